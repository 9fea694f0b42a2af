#!/usr/bin/env python3
"""pkreduce.py - shrinks a failing generated kernel while its failure
class persists, and saves it as a regression case.

  pkreduce.py SEED PRESET OUTDIR [NAME] [--key CLASS]
  pkreduce.py --file KEPT.pk PRESET INSEED OUTDIR NAME CLASS

Regenerates the kernel of SEED (pkgen.py) for PRESET, classifies it
(pkfuzz.classify) and keeps the class (or --key, a prefix of it).  Then,
greedily, each step kept only if the kernel still fails in that class:

  1. the model: drops statements (lets, extra stores; `when` replaced by
     one branch), replaces expressions by a same-typed sub-expression or
     a literal, lowers grid extents (tables and arrays follow), drops
     operands the body no longer reads;
  2. the text: drops single lines of the body, halves integer literals
     (block shapes, array shapes) everywhere at once.

Writes OUTDIR/NAME.pk, its tables (NAME.tK.npy, listed in NAME.smem)
and NAME.run (`presets PRESET`, `input SEED` for --input=random:SEED,
and `expect PRESET CLASS` while the failure remains; replay with
pkfuzz.py replay OUTDIR).
"""

import copy
import os
import re
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
import pkfuzz  # noqa: E402
import pkgen  # noqa: E402

MAX_TESTS = int(os.environ.get("REDUCE_TESTS", "400"))
# A store that writes a whole output (or a loop's chunk of it) or sets a
# scratch buffer up: without it, unwritten memory would differ.
WHOLE_STORE = re.compile(r"^\s*\w+\[(\.\.\.|ds\(|0\])[^=]*\] = ")


class Reducer:
    def __init__(self, preset, key, work, inseed):
        self.preset = preset
        self.inseed = inseed
        self.key = key
        self.work = work
        self.tests = 0

    def fails(self, text, tables):
        """Does this kernel text (with tables [(name, dt, shape, vals)])
        still fail in the class?"""
        if self.tests >= MAX_TESTS:
            return False
        self.tests += 1
        path = os.path.join(self.work, "cand.pk")
        with open(path, "w") as f:
            f.write(text)
        smem = []
        for name, dt, shape, vals in tables:
            p = os.path.join(self.work, "cand.%s.npy" % name)
            pkfuzz.npy_write(p, dt, shape, vals)
            smem.append((name, p))
        oc = pkfuzz.classify(path, self.preset, smem, self.work,
                             self.inseed)
        return oc.key.startswith(self.key)

    def fails_model(self, k):
        fix(k)
        return self.fails(k.render(), model_tables(k))


def model_tables(k):
    return [(t.name, t.dt, t.shape(), t.values) for t in k.tables()]


def fix(k):
    """Recomputes what depends on the grid extents: the block counts of
    maps over axes, the shapes and contents of the tables."""
    ext = k.ext()
    for o in k.ops:
        if o.role == "smem":
            continue
        for d, m in enumerate(o.maps):
            if m.kind in ("axis", "rev", "affine"):
                o.nblk[d] = m.range(ext)
    for o in k.ops:
        if o.role != "smem" or not o.shape_:
            continue
        uses = [m for op in k.ops if op.role != "smem"
                for m in op.maps if m.table == o.name]
        if uses:
            shape = tuple(ext[a] for a in uses[0].axes)
        else:
            shape = o.shape_
        cnt = 1
        for s in shape:
            cnt *= s
        vals = o.values or [0]
        o.values = [vals[i % len(vals)] for i in range(cnt)]
        o.shape_ = shape


def stmt_lists(k):
    """Every statement list of the body (for dropping and unwrapping)."""
    out = []

    def rec(lst):
        out.append(lst)
        for s in lst:
            rec(s.body)
            if s.orelse is not None:
                rec(s.orelse)
    rec(k.body)
    return out


def reduce_stmts(R, k):
    changed = True
    while changed:
        changed = False
        for li, lst in enumerate(stmt_lists(k)):
            for si in range(len(lst) - 1, -1, -1):
                cands = []
                s = lst[si]
                if not s.fixed:
                    cands.append(lst[:si] + lst[si + 1:])
                if s.kind == "when":
                    cands.append(lst[:si] + s.body + lst[si + 1:])
                    if s.orelse is not None:
                        cands.append(lst[:si] + s.orelse + lst[si + 1:])
                for c in cands:
                    k2 = copy.deepcopy(k)
                    set_list(k2, li, c, k)
                    if R.fails_model(k2):
                        k.__dict__.update(k2.__dict__)
                        changed = True
                        break
                if changed:
                    break
            if changed:
                break


def set_list(k2, li, new, k):
    """Replaces the li-th statement list of k2 by (a copy of) new."""
    lists = stmt_lists(k2)
    lists[li][:] = copy.deepcopy(new)


def exprs(k):
    """(statement index path, node) for every node, outermost first."""
    res = []
    for s in k.all_stmts():
        if s.value is not None:
            for n in s.value.walk():
                res.append((s, n))
    return res


def simpler(n):
    """Candidate replacements of node n, simplest first."""
    c = []
    if n.shape == () or n.kids:
        lit = {"f32": "1.0", "i32": "1", "bf16": "1.0bf16", "i8": "1i8",
               "bool": "(1 == 1)"}[n.dt]
        c.append(pkgen.leaf(lit, n.dt, (), weak=n.dt in ("f32", "i32")))
    for kid in n.kids:
        if kid.dt == n.dt and kid.shape == n.shape:
            c.append(kid)
    for kid in n.kids:
        if kid.dt == n.dt and kid.shape != n.shape:
            c.append(kid)
    return c


def reduce_exprs(R, k):
    changed = True
    while changed and R.tests < MAX_TESTS:
        changed = False
        nodes = exprs(k)
        for i in range(len(nodes)):
            s, n = exprs(k)[i]
            if not n.kids and n.shape == ():
                continue
            for c in simpler(n):
                saved = (n.fmt, n.kids, n.own_exact, n.weak, n.shape)
                n.fmt, n.kids = c.fmt, list(c.kids)
                n.own_exact, n.weak, n.shape = c.own_exact, c.weak, c.shape
                if R.fails_model(k):
                    changed = True
                    break
                n.fmt, n.kids, n.own_exact, n.weak, n.shape = saved
            if changed:
                break


def reduce_grid(R, k):
    for ai in range(len(k.axes)):
        while k.axes[ai][1] > 1:
            k2 = copy.deepcopy(k)
            a, e, s = k2.axes[ai]
            k2.axes[ai] = (a, e - 1, s)
            if not R.fails_model(k2):
                break
            k.__dict__.update(k2.__dict__)


def body_text(k):
    return "\n".join(line for s in k.body for line in s.render(1))


def reduce_operands(R, k):
    for o in list(k.ops):
        if o.role == "out":
            continue
        text = body_text(k) + " ".join(
            m.render(k.ext()) for op in k.ops if op.role != "smem"
            and op is not o for m in op.maps)
        if re.search(r"\b%s\b" % o.name, text):
            continue
        k2 = copy.deepcopy(k)
        k2.ops = [x for x in k2.ops if x.name != o.name]
        if R.fails_model(k2):
            k.__dict__.update(k2.__dict__)


def drop_operands(R, text, tables):
    """Drops the input and table declarations the rest no longer
    names."""
    for name in re.findall(r"(?:[(,]\s*)(?:smem )?(\w+): \w+\[", text):
        cand = re.sub(r"(?:smem )?\b%s: \w+\[[^\]]*\],\s*" % name, "",
                      text, count=1)
        cand = re.sub(r"\n    %s: \[[^\n]*;" % name, "", cand)
        if re.search(r"\b%s\b" % name, re.sub(r"//[^\n]*", "", cand)):
            continue
        tabs = [t for t in tables if t[0] != name]
        if cand != text and R.fails(cand, tabs):
            text, tables = cand, tabs
    return text, tables


def reduce_text(R, text, tables):
    """Line drops in the body, then integer halving."""
    lines = text.split("\n")
    start = lines.index("{") + 1
    i = len(lines) - 1
    while i >= start:
        ln = lines[i]
        if ln.strip().endswith(";") and not ln.startswith("export") and \
                not WHOLE_STORE.match(ln):
            cand = lines[:i] + lines[i + 1:]
            if R.fails("\n".join(cand), tables):
                lines = cand
        i -= 1
    text = "\n".join(lines)
    changed = True
    while changed:
        changed = False
        body = re.sub(r"//[^\n]*", "", text)
        nums = sorted({int(x) for x in re.findall(r"\b\d+\b", body)
                       if int(x) > 1}, reverse=True)
        for n in nums:
            for m in sorted({n // 2, n - 1, 1}, reverse=True):
                if m < 1 or m == n:
                    continue
                cand = re.sub(r"(?<![\w.])%d(?![\w.])" % n, str(m), text)
                # comments keep their numbers
                cand = "\n".join(
                    orig if orig.startswith("//") else new
                    for orig, new in zip(text.split("\n"),
                                         cand.split("\n")))
                if cand != text and R.fails(cand, tables):
                    text = cand
                    changed = True
                    break
            if changed:
                break
    return text


def reduce_seed(seed, preset, key, outdir, name=None):
    lanes = pkfuzz.LANES[preset]
    k = pkgen.gen_kernel(seed, lanes)
    work = tempfile.mkdtemp(prefix="fuzz-reduce.")
    try:
        R = Reducer(preset, key, work, seed)
        if not R.fails_model(k):
            print("reduce: seed %d on %s does not fail with '%s'" % (
                seed, preset, key))
            return None
        reduce_stmts(R, k)
        reduce_exprs(R, k)
        reduce_grid(R, k)
        reduce_operands(R, k)
        reduce_stmts(R, k)
        reduce_exprs(R, k)
        fix(k)
        tables = model_tables(k)
        text = reduce_text(R, k.render(), tables)
        text, tables = drop_operands(R, text, tables)
        name = name or "s%d_%s" % (seed, preset)
        save(outdir, name, text, tables, preset, key, seed)
        print("reduce: seed %d on %s (%s): %d tests -> %s/%s.pk" % (
            seed, preset, key, R.tests, outdir, name))
        return os.path.join(outdir, name + ".pk")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def load_tables(path):
    """The tables of a kept kernel: STEM.tK.npy next to STEM.pk."""
    tables = []
    stem = path[:-3]
    d = os.path.dirname(path) or "."
    for f in sorted(os.listdir(d)):
        full = os.path.join(d, f)
        if not (full.startswith(stem + ".") and f.endswith(".npy")):
            continue
        descr, shape, words = pkfuzz.npy_read(full)
        if descr == "<f4":
            vals = [pkfuzz.to_float(descr, w) for w in words]
            tables.append((f.split(".")[-2], "f32", shape, vals))
        else:
            tables.append((f.split(".")[-2], "i32", shape, words))
    return tables


def reduce_file(path, preset, key, outdir, name, inseed):
    """The text phase alone, for a kept kernel whose seed the current
    generator no longer reproduces."""
    work = tempfile.mkdtemp(prefix="fuzz-reduce.")
    try:
        R = Reducer(preset, key, work, inseed)
        text, tables = open(path).read(), load_tables(path)
        if not R.fails(text, tables):
            print("reduce: %s on %s does not fail with '%s'" % (
                path, preset, key))
            return None
        text = reduce_text(R, text, tables)
        text, tables = drop_operands(R, text, tables)
        save(outdir, name, text, tables, preset, key, inseed)
        print("reduce: %s on %s (%s): %d tests -> %s/%s.pk" % (
            path, preset, key, R.tests, outdir, name))
        return os.path.join(outdir, name + ".pk")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def save(outdir, name, text, tables, preset, key, inseed):
    os.makedirs(outdir, exist_ok=True)
    text = re.sub(r"\bk\d+\b", name.replace("-", "_"), text)
    with open(os.path.join(outdir, name + ".pk"), "w") as f:
        f.write(text)
    if tables:
        with open(os.path.join(outdir, name + ".smem"), "w") as f:
            for tn, dt, shape, vals in tables:
                fn = "%s.%s.npy" % (name, tn)
                pkfuzz.npy_write(os.path.join(outdir, fn), dt, shape, vals)
                f.write("%s=%s\n" % (tn, fn))
    with open(os.path.join(outdir, name + ".run"), "w") as f:
        f.write("presets %s\n" % preset)
        f.write("input %d\n" % inseed)
        f.write("expect %s %s\n" % (preset, key))


def main(argv):
    key = None
    if argv and argv[0] == "--file":
        # --file KEPT.pk PRESET INSEED OUTDIR NAME KEY
        path, preset, inseed, outdir, name, key = argv[1:7]
        return 0 if reduce_file(path, preset, key, outdir, name,
                                int(inseed)) else 1
    if "--key" in argv:
        i = argv.index("--key")
        key = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    if len(argv) < 3:
        print(__doc__)
        return 2
    seed, preset, outdir = int(argv[0]), argv[1], argv[2]
    name = argv[3] if len(argv) > 3 else None
    if key is None:
        work = tempfile.mkdtemp(prefix="fuzz-reduce.")
        try:
            k = pkgen.gen_kernel(seed, pkfuzz.LANES[preset])
            path, smem = pkfuzz.write_kernel(k, work, "k")
            key = pkfuzz.classify(path, preset, smem, work, seed).key
        finally:
            shutil.rmtree(work, ignore_errors=True)
        print("reduce: class '%s'" % key)
    return 0 if reduce_seed(seed, preset, key, outdir, name) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
