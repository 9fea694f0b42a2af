#!/usr/bin/env python3
"""hlogen.py - random well-typed HLO modules for the pass tests.

  hlogen.py SEED            print the module of SEED
  hlogen.py SEED N DIR      write modules SEED .. SEED+N-1 to DIR/gSEED.hlo

Each module is an entry computation on 1 to 3 parameters (f32, bf16, s32)
of small shapes, built from the ops the passes rewrite: elementwise unary
and binary ops, compares and selects, converts, broadcasts, reshapes,
transposes, slices, concatenates, iotas, reduces (add, max), dots (plain
and batched) and constants, with the patterns that make each pass fire
planted on purpose: identities (x+0, x*1, x/1, double negation), divides
by constants (powers of two and others) and HandleDivide's other shapes, chains of reshapes, transposes,
broadcasts, converts and slices, duplicated subexpressions, size-1
reduces, softmax-like row max / subtract / exp / sum / divide chains and
matmuls with elementwise epilogues.  The same SEED always gives the same
text (Python's random with a fixed seed), so a failing module can be
regenerated from its name.
"""
import random
import re
import sys

FLOAT_UN = ["negate", "abs", "exponential", "tanh", "sqrt", "floor",
            "ceil", "sign", "logistic", "log", "rsqrt"]
INT_UN = ["negate", "abs", "not"]
FLOAT_BIN = ["add", "subtract", "multiply", "divide", "maximum", "minimum"]
INT_BIN = ["add", "subtract", "multiply", "maximum", "minimum", "and", "or",
           "xor"]
CMP = ["EQ", "NE", "LT", "LE", "GT", "GE"]


def shape_text(t, dims):
    if not dims:
        return "%s[]" % t
    layout = ",".join(str(i) for i in reversed(range(len(dims))))
    return "%s[%s]{%s}" % (t, ",".join(str(d) for d in dims), layout)


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.seed = seed
        self.lines = []
        self.vals = []          # (name, type, dims)
        self.n = 0
        self.reducers = {}      # (type, op) -> computation name
        self.comps = []

    def name(self, base):
        self.n += 1
        return "%s.%d" % (base, self.n)

    def emit(self, base, t, dims, text, keep=True):
        nm = self.name(base)
        self.lines.append("  %s = %s %s" % (nm, shape_text(t, dims), text))
        if keep:
            self.vals.append((nm, t, list(dims)))
        return (nm, t, list(dims))

    def reducer(self, t, op):
        key = (t, op)
        if key not in self.reducers:
            c = "region_%s_%s" % (op, t)
            self.reducers[key] = c
            self.comps.append(
                "%s {\n  a = %s[] parameter(0)\n  b = %s[] parameter(1)\n"
                "  ROOT r = %s[] %s(a, b)\n}\n" % (c, t, t, t, op))
        return self.reducers[key]

    def const(self, t, v):
        if t == "pred":
            lit = "true" if v else "false"
        elif t == "s32":
            lit = str(int(v))
        else:
            lit = repr(float(v))
            if lit == "inf":
                lit = "inf"
            elif lit == "-inf":
                lit = "-inf"
        return self.emit("constant", t, [], "constant(%s)" % lit)

    def bcast(self, v, dims, keep=True):
        """v (a scalar or lower-rank value) broadcast to dims."""
        nm, t, d = v
        if d == dims:
            return v
        if not d:
            return self.emit("broadcast", t, dims,
                             "broadcast(%s), dimensions={}" % nm, keep)
        # d must be a prefix of dims here
        m = ",".join(str(i) for i in range(len(d)))
        return self.emit("broadcast", t, dims,
                         "broadcast(%s), dimensions={%s}" % (nm, m), keep)

    def pick(self, pred=None):
        c = [v for v in self.vals if pred is None or pred(v)]
        return self.r.choice(c) if c else None

    def same_shape(self, v):
        c = [w for w in self.vals if w[1] == v[1] and w[2] == v[2]]
        return self.r.choice(c)

    def unary(self):
        v = self.pick(lambda v: v[1] != "pred")
        ops = FLOAT_UN if v[1] in ("f32", "bf16") else INT_UN
        op = self.r.choice(ops)
        return self.emit(op, v[1], v[2], "%s(%s)" % (op, v[0]))

    def binary(self):
        a = self.pick(lambda v: v[1] != "pred")
        b = self.same_shape(a)
        ops = FLOAT_BIN if a[1] in ("f32", "bf16") else INT_BIN
        op = self.r.choice(ops)
        return self.emit(op, a[1], a[2], "%s(%s, %s)" % (op, a[0], b[0]))

    def identity(self):
        """x op c for the identities algsimp knows (and some it must not)."""
        a = self.pick(lambda v: v[1] in ("f32", "s32"))
        t = a[1]
        op, c = self.r.choice([("add", 0), ("add", -0.0), ("multiply", 1),
                               ("multiply", 0), ("subtract", 0),
                               ("divide", 1), ("divide", 2), ("divide", 64),
                               ("divide", 3), ("divide", 0.5),
                               ("multiply", -1), ("maximum", 0)])
        if t == "s32" and op == "divide":
            op, c = "multiply", 1
        k = self.bcast(self.const(t, c), a[2], keep=False)
        return self.emit(op, t, a[2], "%s(%s, %s)" % (op, a[0], k[0]))

    def negneg(self):
        a = self.pick(lambda v: v[1] in ("f32", "s32"))
        n = self.emit("negate", a[1], a[2], "negate(%s)" % a[0], keep=False)
        return self.emit("negate", a[1], a[2], "negate(%s)" % n[0])

    def duplicate(self):
        """The same expression twice (CSE)."""
        a = self.pick(lambda v: v[1] in ("f32", "bf16"))
        b = self.same_shape(a)
        op = self.r.choice(["add", "multiply", "maximum"])
        x = self.emit(op, a[1], a[2], "%s(%s, %s)" % (op, a[0], b[0]))
        y = self.emit(op, a[1], a[2], "%s(%s, %s)" % (op, a[0], b[0]))
        return self.emit("add", a[1], a[2], "add(%s, %s)" % (x[0], y[0]))

    def convert(self):
        a = self.pick(lambda v: v[1] in ("f32", "bf16", "s32"))
        t = self.r.choice([x for x in ("f32", "bf16", "s32") if x != a[1]])
        if self.r.random() < 0.4:
            mid = self.emit("convert", t, a[2], "convert(%s)" % a[0],
                            keep=False)
            return self.emit("convert", a[1], a[2], "convert(%s)" % mid[0])
        return self.emit("convert", t, a[2], "convert(%s)" % a[0])

    def reshape(self):
        a = self.pick(lambda v: len(v[2]) >= 1)
        d = a[2]
        n = 1
        for x in d:
            n *= x
        choices = [[n], d + [1], [1] + d]
        if len(d) >= 2:
            choices.append([d[0] * d[1]] + d[2:])
        nd = self.r.choice(choices)
        v = self.emit("reshape", a[1], nd, "reshape(%s)" % a[0],
                      keep=self.r.random() < 0.5)
        if v[2] != d and self.r.random() < 0.6:
            return self.emit("reshape", a[1], d, "reshape(%s)" % v[0])
        if v not in self.vals:
            self.vals.append(v)
        return v

    def transpose(self):
        a = self.pick(lambda v: len(v[2]) >= 2)
        if not a:
            return None
        perm = list(range(len(a[2])))
        self.r.shuffle(perm)
        nd = [a[2][p] for p in perm]
        p = ",".join(str(x) for x in perm)
        v = self.emit("transpose", a[1], nd,
                      "transpose(%s), dimensions={%s}" % (a[0], p))
        if self.r.random() < 0.5:
            inv = [0] * len(perm)
            for i, x in enumerate(perm):
                inv[x] = i
            q = ",".join(str(x) for x in inv)
            return self.emit("transpose", a[1], a[2],
                             "transpose(%s), dimensions={%s}" % (v[0], q))
        return v

    def slice_(self):
        a = self.pick(lambda v: len(v[2]) >= 1)
        lo, hi, st, nd = [], [], [], []
        for x in a[2]:
            s = self.r.randrange(0, x)
            e = self.r.randrange(s + 1, x + 1)
            k = self.r.choice([1, 1, 2])
            lo.append(s)
            hi.append(e)
            st.append(k)
            nd.append((e - s + k - 1) // k)
        sl = ", ".join("[%d:%d:%d]" % z for z in zip(lo, hi, st))
        return self.emit("slice", a[1], nd, "slice(%s), slice={%s}" %
                         (a[0], sl))

    def concat(self):
        a = self.pick(lambda v: len(v[2]) >= 1)
        b = self.same_shape(a)
        ax = self.r.randrange(len(a[2]))
        nd = list(a[2])
        nd[ax] *= 2
        return self.emit("concatenate", a[1], nd,
                         "concatenate(%s, %s), dimensions={%d}" %
                         (a[0], b[0], ax))

    def reduce(self):
        a = self.pick(lambda v: len(v[2]) >= 1 and v[1] in ("f32", "s32"))
        t = a[1]
        op = self.r.choice(["add", "maximum"])
        dims = [i for i in range(len(a[2])) if self.r.random() < 0.5]
        if not dims:
            dims = [len(a[2]) - 1]
        init = self.const(t, 0 if op == "add" else
                          (-2147483648 if t == "s32" else float("-inf")))
        nd = [x for i, x in enumerate(a[2]) if i not in dims]
        ds = ",".join(str(x) for x in dims)
        return self.emit("reduce", t, nd,
                         "reduce(%s, %s), dimensions={%s}, to_apply=%s" %
                         (a[0], init[0], ds, self.reducer(t, op)))

    def iota_mask(self):
        a = self.pick(lambda v: len(v[2]) == 2 and v[1] == "f32")
        if not a:
            return None
        d = a[2]
        r = self.emit("iota", "s32", d, "iota(), iota_dimension=0",
                      keep=False)
        c = self.emit("iota", "s32", d, "iota(), iota_dimension=1",
                      keep=False)
        m = self.emit("compare", "pred", d, "compare(%s, %s), direction=%s"
                      % (r[0], c[0], self.r.choice(CMP)), keep=False)
        f = self.bcast(self.const("f32", -1e30), d, keep=False)
        return self.emit("select", "f32", d, "select(%s, %s, %s)" %
                         (m[0], a[0], f[0]))

    def compare_select(self):
        a = self.pick(lambda v: v[1] in ("f32", "s32"))
        b = self.same_shape(a)
        m = self.emit("compare", "pred", a[2], "compare(%s, %s), direction=%s"
                      % (a[0], b[0], self.r.choice(CMP)), keep=False)
        return self.emit("select", a[1], a[2], "select(%s, %s, %s)" %
                         (m[0], a[0], b[0]))

    def softmax(self):
        """Row softmax over the last dim of a rank-2 f32 value."""
        a = self.pick(lambda v: len(v[2]) == 2 and v[1] == "f32")
        if not a:
            return None
        d = a[2]
        mi = self.const("f32", float("-inf"))
        mx = self.emit("reduce", "f32", d[:1],
                       "reduce(%s, %s), dimensions={1}, to_apply=%s" %
                       (a[0], mi[0], self.reducer("f32", "maximum")),
                       keep=False)
        bm = self.bcast(mx, d, keep=False)
        s = self.emit("subtract", "f32", d, "subtract(%s, %s)" %
                      (a[0], bm[0]), keep=False)
        e = self.emit("exponential", "f32", d, "exponential(%s)" % s[0],
                      keep=False)
        z = self.const("f32", 0)
        sm = self.emit("reduce", "f32", d[:1],
                       "reduce(%s, %s), dimensions={1}, to_apply=%s" %
                       (e[0], z[0], self.reducer("f32", "add")), keep=False)
        bs = self.bcast(sm, d, keep=False)
        return self.emit("divide", "f32", d, "divide(%s, %s)" %
                         (e[0], bs[0]))

    def divides(self):
        """What HandleDivide rewrites: exp / exp, x / exp, x / sqrt, x /
        rsqrt, x / pow, nested divides, s32 / 2^k and convert(pred) /
        broadcast(scalar)."""
        k = self.r.randint(0, 7)
        if k == 6:
            a = self.pick(lambda v: v[1] == "s32")
            if not a:
                return None
            c = self.bcast(self.const("s32", 2 ** self.r.randint(1, 5)),
                           a[2], keep=False)
            return self.emit("divide", "s32", a[2], "divide(%s, %s)" %
                             (a[0], c[0]))
        a = self.pick(lambda v: v[1] in ("f32", "bf16"))
        b = self.same_shape(a)
        t, d = a[1], a[2]

        def op(name, *xs):
            return self.emit(name, t, d, "%s(%s)" % (name, ", ".join(
                x[0] for x in xs)), keep=False)
        if k == 7:
            p = self.emit("compare", "pred", d, "compare(%s, %s), "
                          "direction=LT" % (a[0], b[0]), keep=False)
            x = self.emit("convert", t, d, "convert(%s)" % p[0], keep=False)
            y = self.bcast(self.const(t, self.r.choice([3, -0.5, 7])), d,
                           keep=False)
            return self.emit("divide", t, d, "divide(%s, %s)" %
                             (x[0], y[0]))
        if k == 0:
            num, den = op("exponential", a), op("exponential", b)
        elif k == 1:
            num, den = a, op("exponential", b)
        elif k == 2:
            num, den = a, op("sqrt", op("abs", b))
        elif k == 3:
            num, den = a, op("rsqrt", op("abs", b))
        elif k == 4:
            e = self.bcast(self.const(t, self.r.choice([2, 0.5, 3])), d,
                           keep=False)
            num, den = a, op("power", op("abs", b), e)
        else:
            c = self.same_shape(a)
            num = op("divide", a, b) if self.r.random() < 0.7 else a
            den = op("divide", b, c) if num is a or \
                self.r.random() < 0.5 else c
        return self.emit("divide", t, d, "divide(%s, %s)" %
                         (num[0], den[0]))

    def dot(self):
        a = self.pick(lambda v: len(v[2]) in (2, 3) and v[1] == "f32")
        if not a:
            return None
        d = a[2]
        if self.r.random() < 0.25:  # depth 1: algsimp makes it a multiply
            d = d[:-1] + [1]
            a = self.emit("slice", "f32", d, "slice(%s), slice={%s}" % (
                a[0], ", ".join("[0:%d]" % x for x in d)), keep=False)
        n = self.r.choice([1, 4, 8, 16])
        # the right operand: a new parameter-free value of shape [.., K, N]
        bd = d[:-2] + [d[-1], n] if len(d) == 3 else [d[-1], n]
        b = self.pick(lambda v: v[2] == bd and v[1] == "f32")
        if not b:
            b = self.emit("iota", "f32", bd, "iota(), iota_dimension=%d" %
                          (len(bd) - 1), keep=False)
            k = self.bcast(self.const("f32", 0.125), bd, keep=False)
            b = self.emit("multiply", "f32", bd, "multiply(%s, %s)" %
                          (b[0], k[0]), keep=False)
        prec = self.r.choice(["", ", operand_precision={highest,highest}"])
        if len(d) == 3:
            nd = [d[0], d[1], n]
            v = self.emit("dot", "f32", nd,
                          "dot(%s, %s), lhs_batch_dims={0}, "
                          "lhs_contracting_dims={2}, rhs_batch_dims={0}, "
                          "rhs_contracting_dims={1}%s" % (a[0], b[0], prec))
        else:
            nd = [d[0], n]
            v = self.emit("dot", "f32", nd,
                          "dot(%s, %s), lhs_contracting_dims={1}, "
                          "rhs_contracting_dims={0}%s" % (a[0], b[0], prec))
        if self.r.random() < 0.6:   # an elementwise epilogue
            op = self.r.choice(["exponential", "tanh", "negate"])
            v = self.emit(op, "f32", nd, "%s(%s)" % (op, v[0]))
        return v

    def build(self):
        np_ = self.r.randint(1, 3)
        rank = self.r.choice([1, 2, 2, 3])
        dims = [self.r.choice([1, 2, 3, 4, 8]) for _ in range(rank)]
        params = []
        for i in range(np_):
            t = self.r.choice(["f32", "f32", "f32", "bf16", "s32"])
            d = dims if self.r.random() < 0.7 else \
                [self.r.choice([2, 4, 8]) for _ in range(self.r.choice([1, 2,
                                                                       3]))]
            p = self.emit("Arg_%d" % i, t, d, "parameter(%d)" % i)
            params.append(p)
        # each type present gets at least one f32 view so float ops apply
        if not any(v[1] == "f32" for v in self.vals):
            self.emit("convert", "f32", params[0][2],
                      "convert(%s)" % params[0][0])
        steps = [self.unary, self.binary, self.identity, self.negneg,
                 self.duplicate, self.convert, self.reshape, self.transpose,
                 self.slice_, self.concat, self.reduce, self.iota_mask,
                 self.compare_select, self.softmax, self.dot,
                 self.divides]
        for _ in range(self.r.randint(3, 12)):
            self.r.choice(steps)()
        # the root: the values nothing uses (up to 4, a tuple if several)
        body = " ".join(l.split(" = ", 1)[1] for l in self.lines)
        sinks = [v for v in self.vals if not v[0].startswith("Arg_") and
                 not re.search(r"[ (,]%s[,)]" % re.escape(v[0]), body)]
        sinks = sinks[-4:] or [self.vals[-1]]
        if len(sinks) > 1:
            tt = ", ".join(shape_text(v[1], v[2]) for v in sinks)
            self.lines.append("  ROOT tuple.%d = (%s) tuple(%s)" %
                              (self.n + 1, tt,
                               ", ".join(v[0] for v in sinks)))
        else:
            last = sinks[0]
            i = [k for k, l in enumerate(self.lines)
                 if l.startswith("  %s = " % last[0])][0]
            self.lines[i] = "  ROOT " + self.lines[i][2:]
        out = ["HloModule g%d\n" % self.seed]
        out += [c + "\n" for c in self.comps]
        out.append("ENTRY main {\n" + "\n".join(self.lines) + "\n}\n")
        return "\n".join(out)


def main(argv):
    if len(argv) == 2:
        sys.stdout.write(Gen(int(argv[1])).build())
        return 0
    if len(argv) == 4:
        s, n, d = int(argv[1]), int(argv[2]), argv[3]
        for k in range(s, s + n):
            with open("%s/g%d.hlo" % (d, k), "w") as f:
                f.write(Gen(k).build())
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
