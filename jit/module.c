/*
 * module.c - the modules of a process (include/pallas/module.h): one
 * entry per (text, file, line, preset, flags), compiled once however many
 * threads open it at once (the others wait on a condition), kept until
 * the process ends.  An entry comes from the linked ahead-of-time program
 * when its key matches, else from the disk cache, else from jit_compile.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "pallas/module.h"
#include "machine/machine.h"
#include "jit/jit.h"
#include "jit/key.h"
#include "jit/diskcache.h"

struct PallasModule {
	struct PallasModule *next;
	Buf key;		/* jit_key: what the program depends on */
	char preset[16];
	int ready;		/* 0 while its compile runs */
	int rc;			/* PALLAS_OK, PALLAS_ECOMPILE, PALLAS_EINVAL */
	int aot;
	const void *image;	/* AOT: the linked bytes; else owned */
	size_t len;
	char *diag;
	int nexport;
	char **export;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t compiled = PTHREAD_COND_INITIALIZER;
static PallasModule *modules;
static PallasJitStats stats;

/* One more of a counter in stats. */
static void
count(uint64_t *c)
{
	pthread_mutex_lock(&lock);
	(*c)++;
	pthread_mutex_unlock(&lock);
}

/* The exports of m's image, for pallas_module_export. */
static int
list_exports(PallasModule *m)
{
	MachProgram *p;
	char err[256];
	uint32_t i;

	if (mach_image_read(m->image, m->len, &p, err, sizeof err) != MACH_OK)
		return -1;
	m->export = calloc(p->nentry ? p->nentry : 1, sizeof *m->export);
	for (i = 0; m->export && i < p->nentry; i++)
		m->export[m->nexport++] = strdup(mach_program_strat(p,
		    p->entry[i].name));
	mach_program_free(p);
	return m->export ? 0 : -1;
}

/* The linked program, if pallasc built it from this key. */
static int
bind_aot(PallasModule *m, const PallasSource *src, const Buf *aotkey)
{
	if (!src->aot || !src->aot_len || !src->aot_key ||
	    !src->aot_key_len || *src->aot_key_len != aotkey->n ||
	    memcmp(src->aot_key, aotkey->p, aotkey->n) != 0)
		return 0;
	m->image = src->aot;
	m->len = (size_t)*src->aot_len;
	m->aot = 1;
	return 1;
}

/* The program from the disk cache, or compiled (and stored there). */
static void
build(PallasModule *m, const PallasSource *src,
    const PallasModuleOptions *opt)
{
	char dir[4096];
	JitInput in = { src->name, src->file, src->line, src->text,
	    m->preset, opt ? opt->flag : NULL, opt ? opt->nflag : 0 };
	JitOutput out;
	void *img;
	size_t len;
	int cache = jitcache_dir(dir, sizeof dir), rc;

	if (cache) {
		rc = jitcache_load(dir, m->key.p, m->key.n, &img, &len);
		if (rc == JITCACHE_HIT && (m->image = img, m->len = len,
		    list_exports(m) == 0)) {
			count(&stats.disk_hits);
			m->diag = strdup("");
			return;
		}
		if (rc == JITCACHE_HIT)
			free(img), m->image = NULL;
		if (rc == JITCACHE_CORRUPT || rc == JITCACHE_HIT)
			count(&stats.disk_corrupt);
	}
	rc = jit_compile(&in, &out);
	count(&stats.compiles);
	m->diag = out.diag;
	m->image = out.image;
	m->len = out.len;
	if (rc) {
		m->rc = rc == -2 ? PALLAS_EINVAL : PALLAS_ECOMPILE;
		return;
	}
	if (list_exports(m) != 0) {
		m->rc = PALLAS_ENOMEM;
		return;
	}
	if (cache && jitcache_store(dir, m->key.p, m->key.n, m->image,
	    m->len) == 0)
		count(&stats.disk_stores);
}

/* The process's entry for key, made (not yet ready) if there is none;
 * *fresh set when the caller must build it.  Under the lock. */
static PallasModule *
find(const Buf *key, const char *preset, int *fresh)
{
	PallasModule *m;

	*fresh = 0;
	for (m = modules; m; m = m->next)
		if (m->key.n == key->n && memcmp(m->key.p, key->p, key->n) == 0)
			return m;
	if (!(m = calloc(1, sizeof *m)))
		return NULL;
	if (!(m->key.p = malloc(key->n))) {
		free(m);
		return NULL;
	}
	memcpy(m->key.p, key->p, key->n);
	m->key.n = m->key.cap = key->n;
	snprintf(m->preset, sizeof m->preset, "%s", preset);
	m->next = modules;
	modules = m;
	*fresh = 1;
	return m;
}

int
pallas_module_open(PallasDevice *dev, const PallasSource *src,
    const PallasModuleOptions *opt, PallasModule **out)
{
	const char *preset;
	PallasModule *m;
	Buf key = {0}, aotkey = {0};
	int fresh, i;

	if (out)
		*out = NULL;
	if (!dev || !src || !out || !src->name || !src->text || !src->file ||
	    (opt && (opt->nflag < 0 || (opt->nflag && !opt->flag))))
		return PALLAS_EINVAL;
	for (i = 0; opt && i < opt->nflag; i++)
		if (!opt->flag[i])
			return PALLAS_EINVAL;
	preset = pallas_device_preset(dev);
	if (jit_key(&key, src, preset, opt, 1) || jit_key(&aotkey, src,
	    preset, opt, 0)) {
		free(key.p);
		free(aotkey.p);
		return PALLAS_ENOMEM;
	}
	pthread_mutex_lock(&lock);
	m = find(&key, preset, &fresh);
	if (m && !fresh) {
		while (!m->ready)
			pthread_cond_wait(&compiled, &lock);
		stats.memory_hits++;
	}
	pthread_mutex_unlock(&lock);
	if (m && fresh) {
		if (bind_aot(m, src, &aotkey) && list_exports(m) == 0) {
			m->diag = strdup("");
			count(&stats.aot_binds);
		} else {
			m->aot = 0;
			m->image = NULL;
			build(m, src, opt);
		}
		if (!m->diag && m->rc == PALLAS_OK)
			m->rc = PALLAS_ENOMEM;
		pthread_mutex_lock(&lock);
		m->ready = 1;
		pthread_cond_broadcast(&compiled);
		pthread_mutex_unlock(&lock);
	}
	free(key.p);
	free(aotkey.p);
	if (!m)
		return PALLAS_ENOMEM;
	*out = m;
	return m->rc;
}

const char *
pallas_module_diagnostics(const PallasModule *m)
{
	return m && m->diag ? m->diag : "";
}

int
pallas_module_nexport(const PallasModule *m)
{
	return m ? m->nexport : 0;
}

const char *
pallas_module_export(const PallasModule *m, int i)
{
	return m && i >= 0 && i < m->nexport ? m->export[i] : NULL;
}

const char *
pallas_module_preset(const PallasModule *m)
{
	return m ? m->preset : NULL;
}

int
pallas_module_is_aot(const PallasModule *m)
{
	return m ? m->aot : 0;
}

int
pallas_module_call(PallasDevice *dev, const PallasModule *m,
    const char *name, const PallasTensor *args, size_t nargs)
{
	if (!dev || !m || !name)
		return PALLAS_EINVAL;
	if (m->rc != PALLAS_OK)
		return m->rc;
	return pallas_call_image_checked(dev, m->image, m->len, name, args,
	    nargs);
}

void
pallas_jit_stats(PallasJitStats *out)
{
	if (!out)
		return;
	pthread_mutex_lock(&lock);
	*out = stats;
	pthread_mutex_unlock(&lock);
}
