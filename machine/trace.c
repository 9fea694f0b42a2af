/*
 * trace.c - Chrome trace-event JSON (loads in Perfetto and
 * chrome://tracing): complete "X" events on one track (tid) per slot
 * class, per MXU, per DMA engine, for sync-wait stalls, and for trace
 * regions by nesting depth (depth 0 is the call itself).  Activity on a
 * track in consecutive cycles with the same name is merged into one
 * event, and events on a track never overlap.  Timestamps are machine
 * cycles (shown as microseconds); successive calls follow each other.
 * Nothing here runs when tracing is off.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/sim.h"

typedef struct Run {
	int open, mixed;
	uint64_t from, to, bytes;
	const char *name;
} Run;

typedef struct MachTrace {
	const MachPreset *mp;
	Run run[NTRACK];
	uint64_t base;		/* cycles of earlier calls */
	uint64_t last[NTRACK];	/* end of the last event per track */
	char *buf;
	size_t len, cap;
	int oom;
	char *doc;		/* the last complete document */
} MachTrace;

static void
put(MachTrace *t, const char *s, size_t n)
{
	char *nb;
	size_t nc;

	if (t->oom)
		return;
	if (t->len + n + 1 > t->cap) {
		nc = t->cap ? t->cap : 4096;
		while (nc < t->len + n + 1)
			nc *= 2;
		if (!(nb = realloc(t->buf, nc))) {
			t->oom = 1;
			return;
		}
		t->buf = nb;
		t->cap = nc;
	}
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = 0;
}

static void
puts_(MachTrace *t, const char *s)
{
	put(t, s, strlen(s));
}

static void
put_escaped(MachTrace *t, const char *s)
{
	char e[8];

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			e[0] = '\\';
			e[1] = (char)c;
			put(t, e, 2);
		} else if (c < 0x20) {
			snprintf(e, sizeof e, "\\u%04x", c);
			put(t, e, 6);
		} else {
			put(t, s, 1);
		}
	}
}

static void
event(MachTrace *t, int track, uint64_t from, uint64_t to,
    const char *name, uint64_t bytes)
{
	char num[160];

	if (from < t->last[track])	/* never overlap on a track */
		from = t->last[track];
	if (to <= from)
		return;
	t->last[track] = to;
	puts_(t, t->len ? ",\n{\"name\":\"" : "{\"name\":\"");
	put_escaped(t, name);
	snprintf(num, sizeof num, "\",\"ph\":\"X\",\"pid\":1,\"tid\":%d,"
	    "\"ts\":%llu,\"dur\":%llu", track + 1,
	    (unsigned long long)(t->base + from),
	    (unsigned long long)(to - from));
	puts_(t, num);
	if (bytes) {
		snprintf(num, sizeof num, ",\"args\":{\"bytes\":%llu}",
		    (unsigned long long)bytes);
		puts_(t, num);
	}
	puts_(t, "}");
}

static void
flush(MachTrace *t, int track)
{
	Run *r = &t->run[track];

	if (!r->open)
		return;
	event(t, track, r->from, r->to, r->mixed ?
	    mach_unit_name(track < NMACHUNIT ? track : U_NONE) : r->name,
	    r->bytes);
	r->open = 0;
}

MachTrace *
mach_trace_new(const MachPreset *mp)
{
	MachTrace *t = calloc(1, sizeof *t);

	if (t)
		t->mp = mp;
	return t;
}

void
mach_trace_free(MachTrace *t)
{
	if (!t)
		return;
	free(t->buf);
	free(t->doc);
	free(t);
}

void
mach_trace_begin_call(MachTrace *t, const char *entry)
{
	(void)entry;
	memset(t->last, 0, sizeof t->last);
}

void
mach_trace_end_call(MachTrace *t, uint64_t cycles)
{
	int k;

	for (k = 0; k < NTRACK; k++)
		flush(t, k);
	t->base += cycles;
}

static void
extend(MachTrace *t, int track, uint64_t from, uint64_t to,
    const char *name, uint64_t bytes)
{
	Run *r = &t->run[track];

	if (r->open && from == r->to && (track < NMACHUNIT ||
	    strcmp(r->name, name) == 0)) {
		if (strcmp(r->name, name) != 0)
			r->mixed = 1;
		r->to = to;
		r->bytes += bytes;
		return;
	}
	flush(t, track);
	r->open = 1;
	r->mixed = 0;
	r->from = from;
	r->to = to;
	r->name = name;
	r->bytes = bytes;
}

void
mach_trace_slot(MachTrace *t, int u, uint64_t cyc, int op)
{
	extend(t, u, cyc, cyc + 1, mach_opinfo[op].name, 0);
}

void
mach_trace_span(MachTrace *t, int track, uint64_t from, uint64_t to,
    const char *name, uint64_t bytes)
{
	if (track >= 0 && track < NTRACK)
		extend(t, track, from, to, name, bytes);
}

void
mach_trace_region(MachTrace *t, int depth, uint64_t from, uint64_t to,
    const char *name)
{
	if (depth >= 0 && depth < 8)
		event(t, TRK_REGION + depth, from, to, name, 0);
}

static void
track_name(int k, char *buf, size_t n)
{
	if (k < NMACHUNIT)
		snprintf(buf, n, "slots %s", mach_unit_name(k));
	else if (k < TRK_DMA)
		snprintf(buf, n, "mxu%d", k - TRK_MXU);
	else if (k < TRK_STALL)
		snprintf(buf, n, "dma engine %d", k - TRK_DMA);
	else if (k == TRK_STALL)
		snprintf(buf, n, "sync wait stalls");
	else if (k == TRK_REGION)
		snprintf(buf, n, "calls");
	else
		snprintf(buf, n, "regions depth %d", k - TRK_REGION);
}

const char *
mach_trace_json(MachTrace *t, size_t *len)
{
	char line[200], name[64];
	size_t n = 0, cap;
	int k;
	char *d;

	cap = t->len + 256 + (size_t)NTRACK * 200;
	if (t->oom || !(d = malloc(cap)))
		return NULL;
	n += (size_t)snprintf(d + n, cap - n, "{\"traceEvents\":[\n"
	    "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,"
	    "\"args\":{\"name\":\"pallas %s\"}}", t->mp->name);
	for (k = 0; k < NTRACK; k++) {
		track_name(k, name, sizeof name);
		snprintf(line, sizeof line, ",\n{\"name\":\"thread_name\","
		    "\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"args\":{\"name\":"
		    "\"%s\"}}", k + 1, name);
		memcpy(d + n, line, strlen(line));
		n += strlen(line);
	}
	if (t->len) {
		d[n++] = ',';
		d[n++] = '\n';
		memcpy(d + n, t->buf, t->len);
		n += t->len;
	}
	n += (size_t)snprintf(d + n, cap - n, "\n],\"displayTimeUnit\":\"ns\","
	    "\"otherData\":{\"preset\":\"%s\",\"ts_unit\":\"cycle\"}}\n",
	    t->mp->name);
	free(t->doc);
	t->doc = d;
	if (len)
		*len = n;
	return d;
}
