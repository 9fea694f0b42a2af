#!/usr/bin/env python3
"""pkfuzz.py - differential fuzzing of pallasc's compiled path against
interpret mode.

  pkfuzz.py run [--seed S] [--count N] [--seconds T] [--presets P,..]
                [--keep DIR] [--reduce DIR] [--check] [--jobs N]
      Generates kernels (pkgen.py), seed S, S+1, ...; for each preset
      checks the kernel (pallasc -fsyntax-only), runs it compiled
      (pallasc --run, the simulator with every check on) and in
      interpret mode (--interpret --run) on the same inputs and SMEM
      tables, and compares the saved outputs: bit for bit (any NaN
      equals any NaN), or within the tolerance the kernel states in a
      `// fuzz-diff: tol NAME RTOL ATOL [sum]` comment (under which
      any two non-finite values agree).  Prints one
      line per finding and a summary by class.  --check: exit 1 if a kernel
      DIVERGEs or CRASHes (REFUSED and REJECTED are counted only).
      --reduce DIR: shrink each new DIVERGE/CRASH class's first kernel
      into DIR (pkreduce.py).  --jobs N: N worker processes, each
      seed's kernels in one (the report is the same as with one).
  pkfuzz.py gen SEED LANES           print the kernel of SEED
  pkfuzz.py one FILE.pk PRESET [S]   classify one saved kernel (its SMEM
                                     tables in FILE.smem, if any; inputs
                                     of --input=random:S, default 0)
  pkfuzz.py replay DIR               run the saved cases of DIR (see
                                     cases/README)

Classes: AGREE; DIVERGE (both ran, outputs differ); CRASH (exit 70, a
signal, a sanitizer report, a timeout, a simulator trap, a compiled run
whose VMEM or SMEM high water exceeds what its program declares,
interpret mode failing on a kernel sema accepted, or "contract": a
compiled run refused after -fsyntax-only accepted the kernel); REFUSED
(-fsyntax-only refuses a kernel interpret mode's checks accept: the
compiled path does not lower it yet, by message); REJECTED (interpret
mode's checks, -fsyntax-only --interpret, refuse the generated kernel: a
generator gap, skipped).

Environment: PALLASC (default ../../build/pallasc from this file),
FUZZ_TIMEOUT (seconds per pallasc run, default 60).
"""

import collections
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True   # the source tree may be read-only
import pkgen  # noqa: E402

LANES = {"small": 16, "v4": 128, "v5e": 128, "v6e": 128}


_PALLASC = []     # (program, library directory or None), once


def pallasc():
    """PALLASC, or the program that libtool's wrapper script of it
    runs: in a build tree, build/pallasc is a shell script that sets
    LD_LIBRARY_PATH to build/.libs and execs build/.libs/pallasc, and it
    took more time than the -fsyntax-only run it started."""
    if not _PALLASC:
        pc = os.environ.get("PALLASC") or os.path.join(
            HERE, "..", "..", "build", "pallasc")
        libs = os.path.join(os.path.dirname(pc), ".libs")
        real = os.path.join(libs, os.path.basename(pc))
        try:
            with open(pc, "rb") as f:
                head = f.read(1 << 16)
        except OSError:
            head = b""
        # the wrapper's own library path: build/.libs and the other
        # libraries' .libs (kernels/.libs for libpallas_splash)
        m = re.search(rb'LD_LIBRARY_PATH="([^"$]*)', head)
        if m:
            libs = m.group(1).decode().rstrip(":")
        if head.startswith(b"#!") and b"libtool" in head and \
                os.access(real, os.X_OK):
            _PALLASC.append((real, libs))
        else:
            _PALLASC.append((pc, None))
    return _PALLASC[0][0]


def timeout():
    return float(os.environ.get("FUZZ_TIMEOUT", "60"))


# ------------------------------------------------------------------- npy

def npy_read(path):
    """(dtype descr, shape, list of raw element words)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != b"\x93NUMPY":
        raise ValueError("%s: not a .npy file" % path)
    major = data[6]
    if major == 1:
        hl = struct.unpack("<H", data[8:10])[0]
        off = 10
    else:
        hl = struct.unpack("<I", data[8:12])[0]
        off = 12
    hdr = data[off:off + hl].decode("latin1")
    descr = re.search(r"'descr':\s*'([^']*)'", hdr).group(1)
    shape = tuple(int(x) for x in re.search(
        r"'shape':\s*\(([^)]*)\)", hdr).group(1).replace(",", " ").split())
    body = data[off + hl:]
    fmt = {"<f4": "I", "<u2": "H", "<i4": "i", "|i1": "b", "|b1": "B",
           "<i1": "b"}[descr]
    n = len(body) // struct.calcsize(fmt)
    return descr, shape, list(struct.unpack("<%d%s" % (n, fmt), body))


def npy_write(path, dt, shape, values):
    descr, fmt = {"i32": ("<i4", "i"), "f32": ("<f4", "f")}[dt]
    hdr = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join("%d, " % s for s in shape))
    hdr += " " * (63 - (len(hdr) + 10) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(hdr)))
        f.write(hdr.encode("latin1"))
        f.write(struct.pack("<%d%s" % (len(values), fmt), *values))


def to_float(descr, w):
    if descr == "<f4":
        return struct.unpack("<f", struct.pack("<I", w))[0]
    if descr == "<u2":
        return struct.unpack("<f", struct.pack("<I", w << 16))[0]
    return float(w)


def is_nan(descr, w):
    if descr == "<f4":
        return (w & 0x7f800000) == 0x7f800000 and (w & 0x7fffff) != 0
    if descr == "<u2":
        return (w & 0x7f80) == 0x7f80 and (w & 0x7f) != 0
    return False


def scale(descr, words):
    """The largest finite magnitude of an output."""
    m = 0.0
    for w in words:
        f = abs(to_float(descr, w))
        if f > m and f != float("inf"):
            m = f
    return m


def finite(f):
    return f == f and abs(f) != float("inf")


def compare(a, b, tol):
    """None when the outputs agree, else a short description.  tol:
    (rtol, atol, summed) or None.  A summed value's rounding error is
    relative to the terms of its sums, not to the value: terms that
    cancel leave an error far above rtol times the result (a mean of
    quotients of 1e6 whose exact value is 0 differs by 1e-2).  The terms
    are not known here; the output's largest magnitude stands in for
    them."""
    da, sa, wa = a
    db, sb, wb = b
    if (da, sa) != (db, sb):
        return "shape/dtype %s%s vs %s%s" % (da, sa, db, sb)
    bad, zeros, first = 0, 0, None
    big = 0.0
    if tol is not None and tol[2]:
        big = max(scale(da, wa), scale(db, wb))
    for i, (x, y) in enumerate(zip(wa, wb)):
        if x == y or (is_nan(da, x) and is_nan(da, y)):
            continue
        fx, fy = to_float(da, x), to_float(da, y)
        if tol is not None and not finite(fx) and not finite(fy):
            # an approximation off by an ulp flips what an infinity
            # makes of it: 0 * inf is NaN, -1e-7 * inf is -inf
            continue
        if tol is not None and finite(fx) and finite(fy):
            rtol, atol = tol[0], tol[1]
            if abs(fx - fy) <= atol + rtol * max(abs(fx), abs(fy), big):
                continue
        if fx == 0 and fy == 0:
            zeros += 1
            continue
        bad += 1
        if first is None:
            first = "[%d] compiled %r interpret %r" % (i, fx, fy)
    if bad:
        return "%d of %d differ, first %s" % (bad, len(wa), first)
    if zeros:
        return "signed zero: %d of %d differ in the sign of 0" % (
            zeros, len(wa))
    return None


# --------------------------------------------------------------- running

class Outcome:
    def __init__(self, cls, detail="", key=None):
        self.cls = cls          # AGREE DIVERGE CRASH REFUSED REJECTED
        self.detail = detail
        self.key = key or cls   # the class a reducer keeps

    def __str__(self):
        return "%s %s" % (self.key, self.detail)


def run(args, cwd=None):
    env = dict(os.environ)
    pallasc()
    if _PALLASC[0][1]:
        env["LD_LIBRARY_PATH"] = _PALLASC[0][1] + (
            ":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH")
            else "")
    env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") +
                           ":exitcode=86").lstrip(":")
    env["UBSAN_OPTIONS"] = (env.get("UBSAN_OPTIONS", "") +
                            ":halt_on_error=1:exitcode=87").lstrip(":")
    try:
        p = subprocess.run(args, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, cwd=cwd, env=env,
                           timeout=timeout())
    except subprocess.TimeoutExpired:
        return None, "", "timeout"
    return p.returncode, p.stdout.decode("utf8", "replace"), \
        p.stderr.decode("utf8", "replace")


def norm_msg(msg):
    """A message class: names, numbers and shapes taken out."""
    msg = re.sub(r"(\.\./)+", "", msg)
    msg = re.sub(r"'[^']*'", "'_'", msg)
    msg = re.sub(r"\[[0-9, ]*\]", "[_]", msg)
    msg = re.sub(r"\b\d+\b", "N", msg)
    return msg.strip()


def first_error(err):
    for line in err.splitlines():
        m = re.search(r"\b(internal error.*)", line) or \
            re.search(r"\berror: (.*)", line)
        if m:
            return m.group(1)
    lines = [x for x in err.splitlines() if x.strip()]
    return lines[-1] if lines else ""


def crashed(rc, err):
    """The CRASH class of a finished run, or None."""
    if rc is None:
        return "timeout"
    if rc < 0:
        return "signal %d" % -rc
    if rc == 70:
        return "internal error: " + norm_msg(first_error(err))
    if rc in (86, 87) or "Sanitizer" in err or "runtime error:" in err:
        return "sanitizer: " + norm_msg(first_error(err))
    if rc not in (0, 1):
        return "exit status %d" % rc
    return None


HIGH_WATER = re.compile(r"^  vmem high water (\d+) bytes of (\d+) declared, "
                        r"smem (\d+) bytes of (\d+) declared$", re.M)


def over_budget(out):
    """None when the compiled run's VMEM and SMEM high water (pallasc
    --run's counters) stay within what its program declares."""
    m = HIGH_WATER.search(out)
    if not m:
        return "no declared VMEM/SMEM figures in the counters"
    vh, vd, sh, sd = (int(x) for x in m.groups())
    if vh > vd:
        return "VMEM high water %d bytes over the %d declared" % (vh, vd)
    if sh > sd:
        return "SMEM high water %d bytes over the %d declared" % (sh, sd)
    return None


def tolerances(src):
    tol = {}
    for m in re.finditer(r"// fuzz-diff: tol (\w+) (\S+) (\S+)( sum)?",
                         src):
        tol[m.group(1)] = (float(m.group(2)), float(m.group(3)),
                           m.group(4) is not None)
    return tol


def outputs(src):
    return re.findall(r"\bout (\w+):", src)


def classify(path, preset, smem, work, inseed=0):
    """Runs one kernel file on one preset; smem: [(name, npy path)]."""
    pc = pallasc()
    base = [pc, "-m", preset, "-fdiagnostics-color=never", path]
    rc, out, err = run(base + ["-fsyntax-only"])
    c = crashed(rc, err)
    if c:
        return Outcome("CRASH", err[-300:], "CRASH sema: " + c)
    if rc != 0:
        msg = first_error(err)
        rc, out, err = run(base + ["-fsyntax-only", "--interpret"])
        c = crashed(rc, err)
        if c:
            return Outcome("CRASH", err[-300:], "CRASH sema: " + c)
        if rc != 0:
            return Outcome("REJECTED", first_error(err),
                           "REJECTED " + norm_msg(first_error(err)))
        # the checks refuse what the compiled path does not lower
        return Outcome("REFUSED", msg, "REFUSED " + norm_msg(msg))
    io = ["--input=random:%d" % inseed]
    for name, p in smem:
        io += ["--smem", "%s=%s" % (name, p)]
    dc, di = os.path.join(work, "c"), os.path.join(work, "i")
    for d in (dc, di):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    rc, out, err = run(base + ["--run", "--save-dir", dc] + io)
    c = crashed(rc, err)
    if c:
        return Outcome("CRASH", err[-300:], "CRASH compiled: " + c)
    if rc == 1:
        msg = first_error(err)
        if re.search(r"^pallasc: error: k\d+: ", err, re.M):
            # the program was built and loaded: the simulator trapped
            return Outcome("CRASH", msg, "CRASH trap: " + norm_msg(msg))
        if "a run-time check of the compiled kernel" in err:
            # an index out of range: interpret mode must stop on it too
            ri, _, ierr = run(base + ["--interpret", "--run"] + io)
            if ri == 1 and not crashed(ri, ierr):
                return Outcome("AGREE")
            return Outcome("CRASH", msg, "CRASH check: " + norm_msg(msg))
        # -fsyntax-only accepted it: the checks broke their contract
        return Outcome("CRASH", msg, "CRASH contract: " + norm_msg(msg))
    over = over_budget(out)
    if over:
        return Outcome("CRASH", over, "CRASH budget: " + norm_msg(over))
    ri, iout, ierr = run(base + ["--interpret", "--run", "--save-dir",
                                 di] + io)
    c = crashed(ri, ierr)
    if c:
        return Outcome("CRASH", ierr[-300:], "CRASH interpret: " + c)
    if ri != 0:
        msg = first_error(ierr)
        return Outcome("CRASH", msg, "CRASH interpret error: " +
                       norm_msg(msg))
    with open(path) as f:
        src = f.read()
    tol = tolerances(src)
    diffs = []
    for name in outputs(src):
        pa, pb = os.path.join(dc, name + ".npy"), os.path.join(
            di, name + ".npy")
        if not (os.path.exists(pa) and os.path.exists(pb)):
            return Outcome("CRASH", "output %s not saved" % name,
                           "CRASH no output")
        d = compare(npy_read(pa), npy_read(pb), tol.get(name))
        if d:
            diffs.append((name, d))
    if diffs:
        # the key names the outputs, so that a reducer keeps the
        # divergence it started from (not one it makes, such as rows
        # left unwritten by a smaller grid)
        sz = all(d.startswith("signed zero") for _, d in diffs)
        det = "; ".join("%s: %s" % x for x in diffs)
        return Outcome("DIVERGE", det, "DIVERGE %s%s" % (
            "signed zero " if sz else "", " ".join(n for n, _ in diffs)))
    return Outcome("AGREE")


def write_kernel(k, work, stem):
    """Writes stem.pk and its tables; returns (path, smem list)."""
    path = os.path.join(work, stem + ".pk")
    with open(path, "w") as f:
        f.write(k.render())
    smem = []
    for t in k.tables():
        p = os.path.join(work, "%s.%s.npy" % (stem, t.name))
        npy_write(p, t.dt, t.shape(), t.values)
        smem.append((t.name, p))
    return path, smem


# ------------------------------------------------------------- campaign

def parse_opts(argv, spec):
    opts, rest = {}, []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a.startswith("--") and a[2:] in spec:
            if spec[a[2:]]:
                opts[a[2:]] = argv[i + 1]
                i += 1
            else:
                opts[a[2:]] = True
        else:
            rest.append(a)
        i += 1
    return opts, rest


def stop(signum, frame):
    raise KeyboardInterrupt


def run_seed(s, presets, work, keep):
    """The kernel of seed s classified on each preset, in a directory
    of its own under work: (s, [(preset, Outcome)]).  Keeps a DIVERGE
    or CRASH kernel (and its tables) in keep."""
    wd = os.path.join(work, "s%d" % s)
    os.makedirs(wd)
    res = []
    for p in presets:
        k = pkgen.gen_kernel(s, LANES[p])
        stem = "s%d_%s" % (s, p)
        path, smem = write_kernel(k, wd, stem)
        oc = classify(path, p, smem, wd, s)
        if oc.cls in ("DIVERGE", "CRASH") and keep:
            os.makedirs(keep, exist_ok=True)
            shutil.copy(path, keep)
            for _, sp in smem:
                shutil.copy(sp, keep)
        res.append((p, oc))
    shutil.rmtree(wd, ignore_errors=True)
    return s, res


class Done:
    """A result computed in this process, as a pool's AsyncResult."""

    def __init__(self, v):
        self.v = v

    def get(self):
        return self.v


def worker_init():
    # the pool's terminate() sends SIGTERM; ^C is the campaign's
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def make_pool(jobs):
    import multiprocessing
    return multiprocessing.Pool(jobs, initializer=worker_init)


def campaign(argv):
    o, _ = parse_opts(argv, {"seed": 1, "count": 1, "seconds": 1,
                             "presets": 1, "keep": 1, "reduce": 1,
                             "check": 0, "quiet": 0, "jobs": 1})
    seed = int(o.get("seed", 1))
    count = int(o["count"]) if "count" in o else None
    secs = float(o["seconds"]) if "seconds" in o else None
    if count is None and secs is None:
        count = 20
    presets = o.get("presets", "small,v4").split(",")
    keep = o.get("keep")
    jobs = max(1, int(o.get("jobs", 1)))
    work = tempfile.mkdtemp(prefix="fuzz-diff.")
    counts, classes, first = {}, {}, {}
    t0 = time.time()
    n = 0
    # a campaign stopped by SIGTERM or ^C still prints its summary
    signal.signal(signal.SIGTERM, stop)
    # seeds run by `jobs` worker processes, a few ahead, and taken in
    # seed order: the output is the same as with one
    pool = make_pool(jobs) if jobs > 1 else None
    pending, nxt = collections.deque(), seed
    try:
        while True:
            while len(pending) < (2 * jobs if pool else 1) and \
                    (count is None or nxt - seed < count) and \
                    (secs is None or time.time() - t0 < secs):
                a = (nxt, presets, work, keep)
                pending.append(pool.apply_async(run_seed, a) if pool
                               else Done(run_seed(*a)))
                nxt += 1
            if not pending:
                break
            s, res = pending.popleft().get()
            n += 1
            if n % 100 == 0:
                print("fuzz-diff: %d kernels, %.0f s: %s" % (
                    n, time.time() - t0, ", ".join(
                        "%s %d" % kv for kv in sorted(counts.items()))),
                    flush=True)
            for p, oc in res:
                counts[oc.cls] = counts.get(oc.cls, 0) + 1
                classes[oc.key] = classes.get(oc.key, 0) + 1
                if oc.cls in ("DIVERGE", "CRASH"):
                    print("%s: seed %d preset %s: %s" % (
                        oc.cls, s, p, oc.key), flush=True)
                if oc.key not in first:
                    first[oc.key] = (s, p)
        if pool:
            pool.close()
    except KeyboardInterrupt:
        print("fuzz-diff: stopped", flush=True)
        if pool:
            pool.terminate()
    finally:
        if pool:
            pool.join()
        shutil.rmtree(work, ignore_errors=True)
    print("fuzz-diff: %d kernels x %d presets in %.0f s (seeds %d..%d)" % (
        n, len(presets), time.time() - t0, seed, seed + n - 1))
    for c in ("AGREE", "DIVERGE", "CRASH", "REFUSED", "REJECTED"):
        print("  %-9s %d" % (c, counts.get(c, 0)))
    for key in sorted(classes, key=lambda x: (-classes[x], x)):
        if key == "AGREE":
            continue
        s, p = first[key] if key in first else ("?", "?")
        print("  %5d  %s  (first: seed %s %s)" % (classes[key], key, s, p))
    if "reduce" in o:
        import pkreduce
        for key, (s, p) in sorted(first.items()):
            if key.startswith("DIVERGE") or key.startswith("CRASH"):
                pkreduce.reduce_seed(s, p, key, o["reduce"])
    bad = counts.get("DIVERGE", 0) + counts.get("CRASH", 0)
    if "check" in o and bad:
        return 1
    return 0


def one(argv):
    path, preset = argv[0], argv[1]
    inseed = int(argv[2]) if len(argv) > 2 else 0
    smem = read_smem(path)
    work = tempfile.mkdtemp(prefix="fuzz-diff.")
    try:
        oc = classify(path, preset, smem, work, inseed)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(oc)
    return 0


def read_smem(path):
    """NAME=FILE lines of FILE.smem next to a saved case."""
    smem = []
    sp = path[:-3] + ".smem"
    if os.path.exists(sp):
        d = os.path.dirname(path)
        for line in open(sp):
            line = line.strip()
            if line and not line.startswith("#"):
                name, f = line.split("=", 1)
                smem.append((name, os.path.join(d, f)))
    return smem


def replay(argv):
    """Every DIR/NAME.pk with its DIR/NAME.run (the presets, and the
    class it shows today if it is known to fail: `expect small DIVERGE`)
    must agree, or, when listed as known-failing, still fail as stated.
    """
    d = argv[0]
    work = tempfile.mkdtemp(prefix="fuzz-diff.")
    ok = bad = 0
    try:
        for f in sorted(os.listdir(d)):
            if not f.endswith(".pk"):
                continue
            path = os.path.join(d, f)
            presets, expect, inseed = ["small", "v4"], {}, 0
            rp = path[:-3] + ".run"
            if os.path.exists(rp):
                for line in open(rp):
                    w = line.split()
                    if w and w[0] == "presets":
                        presets = w[1:]
                    if w and w[0] == "input":
                        inseed = int(w[1])
                    if w and w[0] == "expect":
                        expect[w[1]] = " ".join(w[2:])
            for p in presets:
                oc = classify(path, p, read_smem(path), work, inseed)
                want = expect.get(p)
                if want is None and oc.cls == "AGREE":
                    ok += 1
                elif want is not None and oc.key.startswith(want):
                    ok += 1
                    print("known failure %s on %s: %s" % (f, p, oc.key))
                elif want is not None and oc.cls == "AGREE":
                    bad += 1
                    print("FAIL: %s on %s agrees now: remove its 'expect "
                          "%s' line from %s" % (f, p, p, rp))
                else:
                    bad += 1
                    print("FAIL: %s on %s: %s" % (f, p, oc))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("fuzz-diff cases: %d as expected, %d failed" % (ok, bad))
    return 1 if bad else 0


def main(argv):
    if not argv:
        print(__doc__)
        return 2
    cmd, rest = argv[0], argv[1:]
    if cmd == "run":
        return campaign(rest)
    if cmd == "gen":
        print(pkgen.gen_kernel(int(rest[0]), int(rest[1])).render(),
              end="")
        return 0
    if cmd == "one":
        return one(rest)
    if cmd == "replay":
        return replay(rest)
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
