"""pkgen.py - random well-typed .pk kernels for the differential fuzzer.

Gives gen_kernel(seed, lanes) -> Kernel, a model of one kernel that
renders to .pk text (Kernel.render()), lists its SMEM tables with their
contents (Kernel.tables()) and the tolerance of each output
(Kernel.tolerances()), and can be shrunk by the reducer (pkreduce.py)
through its statement list, its expression trees and its sizes.

Everything is decided by one random.Random(seed), so a seed gives the
same kernel on every host.  The lane width (16 on `small`, 128 on the
others) only scales the sizes: the same seed gives the same structure
on every preset.

The kernels are meant to be accepted by sema: block shapes follow the
tiling rules, index maps stay in range (tables are filled in range),
outputs are written whole at every step (or at the last step of the
reduction axes), integer division and shifts get safe operands, and
values whose rounding depends on the order of a sum (float reductions,
dots) never reach a comparison, a conversion to an integer or a
divisor, so that a stated tolerance bounds their error.
"""

import os
import random

F32, BF16, I32, I8, BOOL = "f32", "bf16", "i32", "i8", "bool"
FLOATS = (F32, BF16)
INTS = (I32, I8)

# Constructs left out (FUZZ_AVOID="boolop ..."): those with known bugs, so
# that a check-time run guards the rest.  boolop: bool inputs and
# outputs; iota1: iotas along a dimension of size 1; bf16splat: bf16
# scalars stored into a block.
AVOID = set(os.environ.get("FUZZ_AVOID", "").replace(",", " ").split())


class Node:
    """An expression: fmt is a str.format template over the kids'
    renderings; dt and shape its type (shape () is a scalar); own_exact
    is False for operations whose float result depends on an
    evaluation order (float sums, dots), "approx" for approximations
    (EUP functions, division); weak marks an untyped literal.
    """

    def __init__(self, fmt, dt, shape, kids=(), own_exact=True,
                 weak=False):
        self.fmt = fmt
        self.dt = dt
        self.shape = tuple(shape)
        self.kids = list(kids)
        self.own_exact = own_exact
        self.weak = weak

    def render(self):
        return self.fmt.format(*[k.render() for k in self.kids])

    def level(self):
        """0: exact; 1: an approximation (EUP functions, division by a
        reciprocal) ; 2: depends on a summation order."""
        own = {True: 0, "approx": 1, False: 2}[self.own_exact]
        return max([own] + [k.level() for k in self.kids])

    def exact(self):
        return self.level() == 0

    def loose(self):
        """True when an inexact value is rounded to bf16 on the way."""
        if self.dt == BF16 and not self.exact():
            return True
        return any(k.loose() for k in self.kids)

    def walk(self):
        yield self
        for k in self.kids:
            yield from k.walk()

    def size(self):
        return 1 + sum(k.size() for k in self.kids)


def leaf(text, dt, shape, exact=True, weak=False):
    return Node(text.replace("{", "{{").replace("}", "}}"), dt, shape,
                own_exact=exact, weak=weak)


class Stmt:
    """A statement: kind is 'let', 'store', 'when', 'for' or 'raw'.
    For 'let' and 'store' the value is an expression (Node); 'when' has
    then/else statement lists; 'for' has a header and a body.  fixed
    marks statements the reducer must not drop (their loss would leave
    an output unwritten)."""

    def __init__(self, kind, head="", value=None, body=None, orelse=None,
                 fixed=False, target=None):
        self.kind = kind
        self.head = head
        self.value = value
        self.body = body if body is not None else []
        self.orelse = orelse
        self.fixed = fixed
        self.target = target

    def render(self, ind):
        p = "    " * ind
        if self.kind == "let":
            return [p + "let %s = %s;" % (self.head, self.value.render())]
        if self.kind == "store":
            return [p + "%s %s;" % (self.head, self.value.render())]
        if self.kind == "raw":
            return [p + self.head]
        if self.kind == "for":
            out = [p + "for (%s) {" % self.head]
            for s in self.body:
                out += s.render(ind + 1)
            return out + [p + "}"]
        out = [p + "when (%s) {" % self.head]
        for s in self.body:
            out += s.render(ind + 1)
        if self.orelse is not None:
            out.append(p + "} else {")
            for s in self.orelse:
                out += s.render(ind + 1)
        return out + [p + "}"]

    def exprs(self):
        if self.value is not None:
            yield self
        for s in self.body + (self.orelse or []):
            yield from s.exprs()


class Map:
    """One dimension of an index map.  kind: const (c), axis (a),
    rev (ext - 1 - a), affine (a * ext(b) + b), mod ((a + c) % n),
    table (t[a] or t[a, b])."""

    def __init__(self, kind, axes=(), c=0, n=1, table=None):
        self.kind = kind
        self.axes = list(axes)
        self.c = c
        self.n = n
        self.table = table

    def render(self, ext):
        a = self.axes
        if self.kind == "const":
            return str(self.c)
        if self.kind == "axis":
            return a[0]
        if self.kind == "rev":
            return "%d - %s" % (ext[a[0]] - 1, a[0])
        if self.kind == "affine":
            return "%s * %d + %s" % (a[0], ext[a[1]], a[1])
        if self.kind == "mod":
            return "(%s + %d) %% %d" % (a[0], self.c, self.n)
        return "%s[%s]" % (self.table, ", ".join(a))

    def range(self, ext):
        """The number of block indices the map can give."""
        a = self.axes
        if self.kind == "const":
            return self.c + 1
        if self.kind in ("axis", "rev"):
            return ext[a[0]]
        if self.kind == "affine":
            return ext[a[0]] * ext[a[1]]
        return self.n


class Operand:
    """An operand: role in/out/smem; block is the block shape with None
    for a squeezed dimension (None for the whole array); nblk the
    number of blocks per dimension (the array is nblk * block)."""

    def __init__(self, name, role, dt, block=None, maps=None, nblk=None,
                 shape=None, view=None, values=None):
        self.name = name
        self.role = role
        self.dt = dt
        self.block = block
        self.maps = maps
        self.nblk = nblk
        self.shape_ = shape
        self.view = view        # the shape the body sees
        self.values = values    # SMEM table contents (flat)

    def shape(self):
        if self.shape_ is not None:
            return self.shape_
        return tuple((1 if b is None else b) * n
                     for b, n in zip(self.block, self.nblk))


class Kernel:
    def __init__(self, seed, lanes):
        self.seed = seed
        self.lanes = lanes
        self.name = "k%d" % seed
        self.axes = []          # (name, extent, semantics)
        self.ops = []           # Operand: tables, inputs, outputs
        self.scratch = []       # (decl text, name)
        self.body = []
        self.params = []
        self.notes = []

    def ext(self):
        return {a: e for a, e, _ in self.axes}

    def out_nodes(self):
        """Per output, the expressions stored into it (also through
        scratch: a scratch's stores count for the outputs it feeds)."""
        res = {o.name: [] for o in self.ops if o.role == "out"}
        for st in self.all_stmts():
            if st.kind == "store" and st.target in res:
                res[st.target].append(st.value)
        # scratch and let values reach outputs through leaves; be
        # conservative: every let and scratch store counts for all
        # outputs.
        extra = [st.value for st in self.all_stmts()
                 if st.kind in ("let", "store") and
                 st.target not in res]
        for k in res:
            res[k] += extra
        return res

    def all_stmts(self):
        def rec(lst):
            for s in lst:
                yield s
                yield from rec(s.body)
                yield from rec(s.orelse or [])
        return rec(self.body)

    def tolerances(self):
        """Per output (rtol, atol, summed), or None for bit-exact;
        summed: the value depends on a summation order, so its error is
        relative to the terms, which can cancel (see pkfuzz.compare)."""
        tol = {}
        for name, nodes in self.out_nodes().items():
            lvl = max([n.level() for n in nodes] + [0])
            if lvl == 0:
                tol[name] = None
            elif any(n.loose() for n in nodes) or self.out_dt(name) == BF16:
                tol[name] = (2e-2, 2e-2, lvl == 2)
            else:
                # summed for approximations too: a few ulps of exp(7)
                # in terms of 1e6 that cancel to 40 (seed 201632)
                tol[name] = [None, (1e-4, 1e-4, True),
                             (1e-3, 1e-3, True)][lvl]
        return tol

    def out_dt(self, name):
        return [o for o in self.ops if o.name == name][0].dt

    def tables(self):
        return [o for o in self.ops if o.role == "smem"]

    def render(self):
        ext = self.ext()
        lines = ["// fuzz-diff seed %d lanes %d" % (self.seed, self.lanes)]
        for name, t in sorted(self.tolerances().items()):
            if t is not None:
                lines.append("// fuzz-diff: tol %s %g %g%s" % (
                    name, t[0], t[1], " sum" if t[2] else ""))
        for n in self.notes:
            lines.append("// " + n)
        args = []
        for role in ("smem", "in", "out"):
            for o in self.ops:
                if o.role != role:
                    continue
                pre = {"smem": "smem ", "in": "", "out": "out "}[role]
                args.append("%s%s: %s[%s]" % (pre, o.name, o.dt,
                            ", ".join(str(d) for d in o.shape())))
        lines.append("kernel %s(%s)" % (self.name, ",\n    ".join(args)))
        if self.axes:
            lines.append("grid (%s)" % ", ".join(
                "%s: %d" % (a, e) for a, e, _ in self.axes))
            lines.append("semantics (%s)" % ", ".join(
                s for _, _, s in self.axes))
        blk = []
        for o in self.ops:
            if o.role == "smem" or o.block is None:
                continue
            shape = ", ".join("_" if b is None else str(b)
                              for b in o.block)
            at = ", ".join(m.render(ext) for m in o.maps)
            blk.append("    %s: [%s] at (%s);" % (o.name, shape, at))
        if blk:
            lines.append("blocks {")
            lines += blk
            lines.append("}")
        if self.scratch:
            lines.append("scratch { %s }" % " ".join(
                d for d, _ in self.scratch))
        if self.params:
            lines.append("params { %s }" % " ".join(self.params))
        lines.append("{")
        for s in self.body:
            lines += s.render(1)
        lines.append("}")
        lines.append("")
        lines.append("export %s;" % self.name)
        return "\n".join(lines) + "\n"


# ----------------------------------------------------------- expressions

class Env:
    """What a body (or a loop's body) can read: leaves by (dt, shape)."""

    def __init__(self, rows, cols):
        self.R, self.C = rows, cols
        self.items = []     # (make(): Node, dt, shape)
        self.scalars = []   # Node factories for i32 scalars (indices)
        self.bool_scalars = []
        self.fscalars = []  # f32 scalars

    def add(self, make, dt, shape):
        self.items.append((make, dt, tuple(shape)))

    def find(self, dt, shape):
        return [m for m, d, s in self.items if d == dt and s == tuple(shape)]


OWN = {0: True, 1: "approx", 2: False}
FLIT = ["0.5", "1.5", "2.0", "-3.0", "0.25", "100.0", "0.001", "-0.75"]
ILIT = ["1", "2", "3", "-1", "5", "7", "-4", "0"]


class Gen:
    def __init__(self, rng, k, env, allow_dot):
        self.r = rng
        self.k = k
        self.env = env
        self.allow_dot = allow_dot
        self.nlet = 0

    def chance(self, p):
        return self.r.random() < p

    def pick(self, seq):
        return self.r.choice(list(seq))

    # scalars -----------------------------------------------------------
    def scalar(self, dt):
        e = self.env
        if dt == I32:
            c = [lambda: leaf(self.pick(ILIT), I32, (), weak=True)]
            c += e.scalars
            return self.pick(c)()
        if dt == F32:
            c = [lambda: leaf(self.pick(FLIT), F32, (), weak=True)]
            c += e.fscalars
            if e.scalars and self.chance(0.3):
                return Node("({0} as f32)", F32, (), [self.pick(
                    e.scalars)()])
            return self.pick(c)()
        if dt == BF16:
            return leaf(self.pick(["0.5bf16", "2.0bf16", "-1.5bf16",
                                   "3.0bf16"]), BF16, ())
        if dt == I8:
            return leaf(self.pick(["1i8", "2i8", "-3i8"]), I8, ())
        return self.cond()

    def cond(self):
        """A scalar bool condition."""
        e = self.env
        if e.bool_scalars and self.chance(0.5):
            return self.pick(e.bool_scalars)()
        if e.scalars:
            a = self.pick(e.scalars)()
            op = self.pick(["==", "!=", "<", ">="])
            c = Node("(%s %s %s)" % ("{0}", op, self.pick(["0", "1", "2"])),
                     BOOL, (), [a])
            if self.chance(0.3):
                b = self.pick(e.scalars)()
                c2 = Node("({0} == 0)", BOOL, (), [b])
                c = Node("({0} %s {1})" % self.pick(["&&", "||"]), BOOL,
                         (), [c, c2])
            return c
        return leaf("(1 == 1)", BOOL, ())

    # arrays ------------------------------------------------------------
    def leafof(self, dt, shape, exact=False):
        """A leaf of dt and shape: an operand, a let, or an iota form;
        exact: only values computed without an inexact operation."""
        shape = tuple(shape)
        if shape == ():
            return self.scalar(dt)
        got = self.env.find(dt, shape)
        if exact:
            got = [m for m in got if m().exact()]
        if got and (self.chance(0.85)):
            return self.pick(got)()
        R, C = shape if len(shape) == 2 else (1, shape[0])
        sh = "[%d, %d]" % (R, C)
        if dt == I32:
            ax = self.r.randint(0, 1)
            if "iota1" in AVOID and shape[ax] == 1:
                ax = 1 - ax
            base = leaf("iota(%s, %d)" % (sh, ax), I32, shape)
            if self.env.scalars and self.chance(0.5):
                return Node("({0} + {1} * %d)" % (R if ax == 0 else C),
                            I32, shape, [base, self.pick(
                                self.env.scalars)()])
            return base
        if dt == BOOL:
            a = self.leafof(I32, shape, exact)
            ax = self.r.randint(0, 1)
            if "iota1" in AVOID and shape[ax] == 1:
                ax = 1 - ax
            b = leaf("iota(%s, %d)" % (sh, ax), I32, shape)
            return Node("({0} %s {1})" % self.pick([">=", "<", "=="]),
                        BOOL, shape, [a, b])
        if dt in FLOATS or dt == I8:
            src = self.leafof(I32, shape, exact)
            if dt == F32:
                return Node("({0} as f32)", F32, shape, [src])
            if dt == I8:
                return Node("({0} as i8)", I8, shape, [src])
            return Node("((({0} as f32) * 0.25) as bf16)", BF16, shape, [src])
        raise ValueError(dt)

    def side(self, shape):
        """An operand shape that broadcasts to shape."""
        if shape == () or self.chance(0.7):
            return shape
        R, C = shape
        return self.pick([(R, 1), (1, C), ()] if R > 1 and C > 1
                         else [()])

    def expr(self, dt, shape, d, exact=False):
        """An expression of dtype dt and shape; exact: no inexact
        operation inside (for comparisons, conversions and divisors)."""
        shape = tuple(shape)
        if d <= 0 or self.chance(0.2):
            return self.leafof(dt, shape, exact)
        if len(shape) == 2 and 1 in shape and shape != (1, 1) and \
                dt in (F32, I32) and self.chance(0.4):
            # rows and columns are mostly reductions
            red = self.reduce(dt, shape, d, exact)
            if red is not None:
                return red
        if dt == F32 and self.allow_dot and len(shape) == 2 and \
                shape[0] > 1 and shape[1] > 1 and not exact and \
                self.chance(0.15):
            return self.dot(dt, shape, d)
        if dt in FLOATS:
            return self.fexpr(dt, shape, d, exact)
        if dt == I32:
            return self.iexpr(dt, shape, d, exact)
        if dt == I8:
            if self.chance(0.5):
                return Node("({0} as i8)", I8, shape,
                            [self.expr(I32, shape, d - 1, True)])
            op = self.pick(["+", "-", "*", "&", "|", "^"])
            return Node("({0} %s {1})" % op, I8, shape,
                        [self.expr(I8, shape, d - 1, exact),
                         self.expr(I8, self.side(shape), d - 1, exact)])
        return self.bexpr(shape, d, exact)

    def common(self, dt, shape, d, exact):
        """Shape-moving and selecting forms common to every dtype, or
        None."""
        r = self.r.random()
        if r < 0.10:
            return Node("where({0}, {1}, {2})", dt, shape,
                        [self.expr(BOOL, self.side(shape), d - 1),
                         self.expr(dt, shape, d - 1, exact),
                         self.expr(dt, self.side(shape), d - 1, exact)])
        if r < 0.15:
            return Node("({0} ? {1} : {2})", dt, shape,
                        [self.cond(), self.expr(dt, shape, d - 1, exact),
                         self.expr(dt, self.side(shape), d - 1, exact)])
        if len(shape) != 2:
            return None
        R, C = shape
        if r < 0.22:
            ax = self.r.randint(0, 1)
            n = shape[ax]
            if self.env.scalars and self.chance(0.2):
                sh = Node("{0}", I32, (), [self.pick(self.env.scalars)()])
                return Node("roll({0}, {1}, axis: %d)" % ax, dt, shape,
                            [self.expr(dt, shape, d - 1, exact), sh])
            s = self.r.randint(1, max(1, n - 1)) if n > 1 else 0
            return Node("roll({0}, %d, axis: %d)" % (s, ax), dt, shape,
                        [self.expr(dt, shape, d - 1, exact)])
        if r < 0.28:
            return Node("transpose({0})", dt, shape,
                        [self.expr(dt, (C, R), d - 1, exact)])
        if r < 0.32 and R > 1:
            return Node("broadcast({0}, [%d, %d])" % (R, C), dt, shape,
                        [self.expr(dt, (1, C), d - 1, exact)])
        if r < 0.37:
            # a slice of a wider or taller value
            if self.chance(0.5):
                o = self.r.randint(0, 1) * C
                return Node("({0})[:, %d:%d]" % (o, o + C), dt, shape,
                            [self.expr(dt, (R, 2 * C), d - 1, exact)])
            o = self.r.randint(0, 1) * R
            return Node("({0})[%d:%d, :]" % (o, o + R), dt, shape,
                        [self.expr(dt, (2 * R, C), d - 1, exact)])
        if r < 0.45 and dt != BOOL:
            return self.reduce(dt, shape, d, exact)
        return None

    def reduce(self, dt, shape, d, exact):
        R, C = shape
        inexact_ok = not exact and dt in FLOATS
        ops = ["max", "min"]
        if dt in INTS or inexact_ok:
            ops += ["sum", "sum"]
        if inexact_ok:
            ops += ["mean"]
        op = self.pick(ops)
        own = not (dt in FLOATS and op in ("sum", "mean"))
        if C == 1 and R > 1:
            w = self.pick([self.env.C, self.env.R, 3])
            src = self.expr(dt, (R, w), d - 1, exact)
            if op in ("sum", "max", "min") and self.chance(0.3):
                return Node("row%s({0})" % op, dt, shape, [src], own)
            return Node("%s({0}, axis: %s, keepdims)" % (
                op, self.pick(["1", "-1"])), dt, shape, [src], own)
        if R == 1 and C > 1:
            h = self.pick([self.env.R, self.env.C, 8])
            src = self.expr(dt, (h, C), d - 1, exact)
            return Node("%s({0}, axis: 0, keepdims)" % op, dt, shape,
                        [src], own)
        return None

    def fexpr(self, dt, shape, d, exact):
        c = self.common(dt, shape, d, exact)
        if c is not None:
            return c
        r = self.r.random()
        if r < 0.35:
            op = self.pick(["+", "-", "*", "*"])
            return Node("({0} %s {1})" % op, dt, shape,
                        [self.expr(dt, shape, d - 1, exact),
                         self.expr(dt, self.side(shape), d - 1, exact)])
        if r < 0.42 and not exact:
            return Node("({0} / {1})", dt, shape,
                        [self.expr(dt, shape, d - 1, exact),
                         self.expr(dt, self.side(shape), d - 1, True)],
                        "approx")
        if r < 0.50:
            return Node("%s({0}, {1})" % self.pick(["max", "min"]), dt,
                        shape, [self.expr(dt, shape, d - 1, exact),
                                self.expr(dt, self.side(shape), d - 1,
                                          exact)])
        if r < 0.58:
            f = self.pick(["-{0}", "abs({0})", "exp({0})", "tanh({0})",
                           "log(abs({0}) + 0.5)", "sqrt(abs({0}))",
                           "rsqrt(abs({0}) + 0.5)"])
            if exact and f not in ("-{0}", "abs({0})"):
                f = "abs({0})"
            return Node(f if f.startswith("-") is False else "(-{0})", dt,
                        shape, [self.expr(dt, shape, d - 1, exact)],
                        True if f in ("-{0}", "abs({0})") else "approx")
        if r < 0.70:
            src = self.pick([I32, F32, BF16, I8] if dt == F32 else
                            [F32, I32])
            if src == dt:
                src = I32
            return Node("({0} as %s)" % dt, dt, shape,
                        [self.expr(src, shape, d - 1, src in INTS or
                                   exact)])
        if r < 0.80 and self.allow_dot and len(shape) == 2 and \
                shape[0] > 1 and shape[1] > 1 and not exact:
            return self.dot(dt, shape, d)
        return self.leafof(dt, shape, exact)

    def dot(self, dt, shape, d):
        R, C = shape
        K = self.pick(self.k.dot_k)
        odt = self.pick([BF16, F32])
        a = self.expr(odt, (R, K), d - 1, True)
        opts = []
        tb = self.chance(0.4)
        b = self.expr(odt, (C, K) if tb else (K, C), d - 1, True)
        if tb:
            opts.append("trans_b")
        if odt == F32 and self.chance(0.6):
            opts.append("precision: %s" % self.pick(["default", "high",
                                                     "highest"]))
        if self.chance(0.2):
            opts.append("acc: f32")
        f = "dot({0}, {1}%s)" % "".join(", " + o for o in opts)
        n = Node(f, F32, shape, [a, b], own_exact=False)
        if dt == BF16:
            n = Node("({0} as bf16)", BF16, shape, [n])
        return n

    def iexpr(self, dt, shape, d, exact=False):
        c = self.common(dt, shape, d, True)
        if c is not None:
            return c
        r = self.r.random()
        a = lambda: self.expr(I32, shape, d - 1, exact)
        b = lambda: self.expr(I32, self.side(shape), d - 1, exact)
        if r < 0.35:
            op = self.pick(["+", "-", "*", "&", "|", "^"])
            return Node("({0} %s {1})" % op, I32, shape, [a(), b()])
        if r < 0.45:
            op = self.pick(["<<", ">>"])
            return Node("({0} %s ({1} & 7))" % op, I32, shape, [a(), b()])
        if r < 0.55:
            op = self.pick(["/", "%"])
            return Node("({0} %s (({1} & 3) + 1))" % op, I32, shape,
                        [a(), b()])
        if r < 0.63:
            return Node("%s({0}, {1})" % self.pick(["max", "min"]), I32,
                        shape, [a(), b()])
        if r < 0.70:
            f = self.pick(["(-{0})", "abs({0})", "(~{0})"])
            return Node(f, I32, shape, [a()])
        if r < 0.82:
            src = self.pick([F32, BF16, I8, BOOL])
            if src == BOOL:
                return Node("where({0}, 1, 0)", I32, shape,
                            [self.expr(BOOL, shape, d - 1, exact)])
            return Node("({0} as i32)", I32, shape,
                        [self.expr(src, shape, d - 1, True)])
        return self.leafof(I32, shape, exact)

    def bexpr(self, shape, d, exact=False):
        r = self.r.random()
        if r < 0.1:
            return Node("where({0}, {1}, {2})", BOOL, shape,
                        [self.expr(BOOL, shape, d - 1, exact),
                         self.expr(BOOL, shape, d - 1, exact),
                         self.expr(BOOL, self.side(shape), d - 1, exact)])
        if r < 0.55:
            dt = self.pick([F32, I32, I32, BF16])
            op = self.pick(["<", "<=", ">", ">=", "==", "!="])
            return Node("({0} %s {1})" % op, BOOL, shape,
                        [self.expr(dt, shape, d - 1, True),
                         self.expr(dt, self.side(shape), d - 1, True)])
        if r < 0.75:
            op = self.pick(["&&", "||", "&", "|", "^"])
            return Node("({0} %s {1})" % op, BOOL, shape,
                        [self.expr(BOOL, shape, d - 1, exact),
                         self.expr(BOOL, self.side(shape), d - 1, exact)])
        if r < 0.85:
            return Node("(!{0})", BOOL, shape,
                        [self.expr(BOOL, shape, d - 1, exact)])
        return self.leafof(BOOL, shape, exact)


# ---------------------------------------------------------------- kernel

class Builder:
    def __init__(self, seed, lanes):
        self.r = random.Random(seed)
        self.k = Kernel(seed, lanes)
        self.LN = lanes
        self.nt = 0

    def chance(self, p):
        return self.r.random() < p

    def pick(self, seq):
        return self.r.choice(list(seq))

    def build(self):
        r, k, LN = self.r, self.k, self.LN
        # grid: roles par* seq* red*
        naxes = r.choice([0, 1, 1, 2, 2, 2, 3, 3])
        names = ["i", "j", "k"][:naxes]
        roles = sorted((self.pick(["par", "par", "seq", "red"])
                        for _ in names),
                       key=["par", "seq", "red"].index)
        for n, role in zip(names, roles):
            k.axes.append((n, r.randint(1, 3),
                           "parallel" if role == "par" else "arbitrary"))
        self.roles = dict(zip(names, roles))
        if naxes and self.chance(0.1) and all(
                x == "par" for x in roles):
            k.axes = [(a, e, "arbitrary") for a, e, _ in k.axes]
            self.roles = {a: "seq" for a in self.roles}
        ext = k.ext()
        self.ext = ext
        nonred = [a for a in names if self.roles[a] != "red"]
        red = [a for a in names if self.roles[a] == "red"]
        self.red = red
        # the body's block shape; odd shapes need one block per row/col
        self.odd = self.chance(0.1)
        if len(nonred) > 2:
            self.odd = False    # one dim cannot take three axes
        if self.odd:
            BR = r.randint(1, 20)
            BC = r.randint(1, 3 * LN)
        else:
            BR = self.pick([8, 8, 16, 32])
            BC = self.pick([LN, LN, 2 * LN])
        self.BR, self.BC = BR, BC
        k.dot_k = [LN, 2 * LN]
        self.out_maps(nonred)
        env = Env(BR, BC)
        for a in names:
            env.scalars.append(lambda a=a: leaf(a, I32, ()))
        if names and self.chance(0.3):
            a0 = self.pick(names)
            env.scalars.append(lambda a0=a0: leaf(
                "num_programs(%s)" % a0, I32, ()))
        self.env = env
        self.inputs()
        self.body()
        return k

    # maps ----------------------------------------------------------------
    def out_maps(self, nonred):
        """Lay the non-reduction axes onto the outputs' dimensions,
        one-to-one, so no two steps write one block."""
        r = self.r
        axes = list(nonred)
        r.shuffle(axes)
        rank3 = len(axes) == 3 or (len(axes) >= 1 and self.chance(0.3)) \
            or (self.odd and axes)
        dims = [[], [], []] if rank3 else [[], []]
        if self.odd:
            # one block per row and column: everything in the lead dim
            dims[0] = axes
        else:
            for a in axes:
                free = [d for d in dims if len(d) < 2]
                self.pick(free).append(a)
        maps, nblk = [], []
        for dl in dims:
            if not dl:
                maps.append(Map("const", c=0))
                nblk.append(1)
            elif len(dl) == 1:
                m = Map(self.pick(["axis", "axis", "rev"]), dl)
                maps.append(m)
                nblk.append(m.range(self.ext))
            else:
                m = Map("affine", dl)
                maps.append(m)
                nblk.append(m.range(self.ext))
        self.omaps = maps
        self.onblk = nblk
        self.rank3 = rank3

    def in_map(self, n_axes_ok=True):
        """A random map dimension and the number of blocks it needs."""
        names = [a for a, _, _ in self.k.axes]
        kinds = ["const", "axis", "axis", "rev", "affine", "mod", "table"]
        kd = self.pick(kinds)
        if not names:
            kd = "const"
        if kd == "const":
            c = self.r.randint(0, 2)
            return Map("const", c=c), c + 1 + self.r.randint(0, 1)
        if kd in ("axis", "rev"):
            m = Map(kd, [self.pick(names)])
            return m, m.range(self.ext)
        if kd == "affine" and len(names) >= 2:
            a, b = self.r.sample(names, 2)
            m = Map("affine", [a, b])
            return m, m.range(self.ext)
        if kd == "mod":
            n = self.r.randint(1, 3)
            m = Map("mod", [self.pick(names)], c=self.r.randint(0, 2), n=n)
            return m, n
        # an SMEM table of block indices, filled in range
        ax = self.r.sample(names, min(len(names), self.r.randint(1, 2)))
        n = self.r.randint(1, 3)
        t = self.table(I32, [self.ext[a] for a in ax], 0, n - 1)
        return Map("table", ax, n=n, table=t.name), n

    def table(self, dt, shape, lo, hi):
        name = "t%d" % self.nt
        self.nt += 1
        cnt = 1
        for s in shape:
            cnt *= s
        if dt == I32:
            vals = [self.r.randint(lo, hi) for _ in range(cnt)]
        else:
            vals = [self.r.choice([0.5, -1.25, 2.0, 3.5, -0.125])
                    for _ in range(cnt)]
        t = Operand(name, "smem", dt, shape=tuple(shape), values=vals)
        self.k.ops.append(t)
        return t

    # operands ------------------------------------------------------------
    def add_input(self, name, dt, view, rows_mult=1, cols_mult=1):
        """An input whose body view is view (rows, cols); its array has
        a block per map value; with odd shapes only one block per row
        and column dimension."""
        R, C = view
        lead = self.chance(0.35)
        mid = lead and self.chance(0.3)
        pack = {BF16: 2, I8: 4}.get(dt, 1)
        # a dimension that breaks the tiling rule must be the whole
        # array's: one block on it
        rows_ok = R % (8 * pack) == 0 or mid
        cols_ok = C % self.LN == 0
        maps, nblk, block = [], [], []
        if lead:
            m, n = self.in_map()
            maps.append(m)
            nblk.append(n)
            block.append(None)
        for sz, ok in ((R, rows_ok), (C, cols_ok)):
            if self.odd or not ok or self.chance(0.2):
                m, n = Map("const", c=0), 1
            else:
                m, n = self.in_map()
            maps.append(m)
            nblk.append(n)
            block.append(sz)
        if mid:
            # the squeezed dim in the middle
            maps = [maps[1], maps[0], maps[2]]
            nblk = [nblk[1], nblk[0], nblk[2]]
            block = [block[1], block[0], block[2]]
        o = Operand(name, "in", dt, block, maps, nblk, view=view)
        self.k.ops.append(o)
        return o

    def inputs(self):
        k, env, BR, BC = self.k, self.env, self.BR, self.BC
        nin = self.r.randint(1, 4)
        tile16 = self.odd or BR % 16 == 0
        tile32 = self.odd or BR % 32 == 0
        dts = [F32, F32, F32, I32, I32]
        if tile16:
            dts += [BF16, BF16]
        if tile32:
            dts += [I8, I32 if "boolop" in AVOID else BOOL]
        views = [(BR, BC)] * 4 + [(BR, 1), (1, BC), (BC, BR),
                                  (BR, 2 * BC), (2 * BR, BC)]
        for n in range(nin):
            dt = self.pick(dts)
            v = self.pick(views)
            o = self.add_input("x%d" % n, dt, v)
            env.add(lambda o=o: leaf("%s[...]" % o.name, o.dt, o.view),
                    dt, v)
        self.allow_dot = not self.odd and self.chance(0.3)
        if self.allow_dot:
            for Kd in k.dot_k:
                for dt in ([BF16, F32] if tile16 else [F32]):
                    for v in [(BR, Kd), (Kd, BC), (BC, Kd)]:
                        if self.chance(0.25):
                            nm = "d%d" % len([o for o in k.ops
                                              if o.name[0] == "d"])
                            o = self.add_input(nm, dt, v)
                            env.add(lambda o=o: leaf(
                                "%s[...]" % o.name, o.dt, o.view), dt, v)
        if self.chance(0.3):
            names = [a for a, _, _ in k.axes]
            ax = names[:1]
            t = self.table(self.pick([I32, F32]),
                           [self.ext[a] for a in ax] or [2], -8, 8)
            idx = ", ".join(ax) or "1"
            if t.dt == I32:
                env.scalars.append(lambda t=t, idx=idx: leaf(
                    "%s[%s]" % (t.name, idx), I32, ()))
            else:
                env.fscalars.append(lambda t=t, idx=idx: leaf(
                    "%s[%s]" % (t.name, idx), F32, ()))

    # body ------------------------------------------------------------------
    def body(self):
        k, r = self.k, self.r
        g = Gen(r, k, self.env, self.allow_dot)
        self.g = g
        BR, BC = self.BR, self.BC
        nout = self.pick([1, 1, 1, 2])
        outs = []
        for n in range(nout):
            dt = self.pick([F32] * 4 + [I32] * 3 + [BF16] * 2 + [BOOL, I8])
            if dt == BF16 and not (self.odd or BR % 16 == 0):
                dt = F32
            if dt in (I8, BOOL) and not (self.odd or BR % 32 == 0):
                dt = I32
            if dt == BOOL and "boolop" in AVOID:
                dt = I32
            maps = [Map(m.kind, m.axes, m.c, m.n) for m in self.omaps]
            block = [BR, BC]
            if self.rank3:
                block = [None] + block
            o = Operand("z%d" % n, "out", dt, block, maps,
                        list(self.onblk), view=(BR, BC))
            outs.append(o)
        # lets
        depth = self.pick([2, 3, 3, 4])
        for n in range(r.randint(0, 3)):
            dt = self.pick([F32, F32, I32, BOOL, BF16])
            sh = self.pick([(BR, BC), (BR, BC), (BR, 1), (1, BC)])
            v = g.expr(dt, sh, depth)
            name = "v%d" % n
            k.body.append(Stmt("let", name, v))
            ex = OWN[v.level()]
            self.env.add(lambda name=name, dt=dt, sh=sh, ex=ex:
                         leaf(name, dt, sh, exact=ex), dt, sh)
        for o in outs:
            k.ops.append(o)
        for o in outs:
            self.write_output(o, depth)

    def store(self, o, depth, head=None, shape=None, extra=()):
        g = self.g
        shape = shape or (self.BR, self.BC)
        sh = shape if g.chance(0.85) else g.side(shape)
        if sh == () and o.dt == BF16 and "bf16splat" in AVOID:
            sh = shape
        v = g.expr(o.dt, sh, depth)
        return Stmt("store", head or "%s[...] =" % o.name, v,
                    target=o.name, fixed=True)

    def first_last(self):
        first = " && ".join("%s == 0" % a for a in self.red)
        last = " && ".join("%s == num_programs(%s) - 1" % (a, a)
                           for a in self.red)
        return first, last

    def write_output(self, o, depth):
        k, g, r = self.k, self.g, self.r
        BR, BC = self.BR, self.BC
        acc_ok = o.dt in (F32, I32)
        if self.red:
            first, last = self.first_last()
            if acc_ok and self.chance(0.6):
                # a scratch accumulator over the reduction axes
                an = "acc_%s" % o.name
                k.scratch.append(("%s: %s[%d, %d];" % (an, o.dt, BR, BC),
                                  an))
                init = Stmt("store", "%s[...] =" % an,
                            g.expr(o.dt, (BR, BC), depth - 1)
                            if self.chance(0.5) else
                            leaf("0.0" if o.dt == F32 else "0", o.dt, (),
                                 weak=True), fixed=True, target=an)
                k.body.append(Stmt("when", first, body=[init], fixed=True))
                upd = g.expr(o.dt, (BR, BC), depth)
                form = self.pick(["+=", "max", "-="])
                if form == "max":
                    st = Stmt("store", "%s[...] =" % an, Node(
                        "max(%s[...], {0})" % an, o.dt, (BR, BC), [upd]),
                        target=an)
                else:
                    st = Stmt("store", "%s[...] %s" % (an, form), upd,
                              target=an)
                k.body.append(st)
                ex = OWN[max(init.value.level(), upd.level())]
                self.env.add(lambda an=an, dt=o.dt, ex=ex:
                             leaf("%s[...]" % an, dt, (BR, BC), exact=ex),
                             o.dt, (BR, BC))
                fin = Stmt("store", "%s[...] =" % o.name,
                           Node("({0} + {1})" if self.chance(0.5) else
                                "{0}", o.dt, (BR, BC),
                                [leaf("%s[...]" % an, o.dt, (BR, BC),
                                      exact=ex),
                                 g.expr(o.dt, (BR, BC), depth - 2)]),
                           target=o.name, fixed=True)
                if self.chance(0.3):
                    cnt = "cnt_%s" % o.name
                    k.scratch.append(("smem %s: i32[1];" % cnt, cnt))
                    k.body.insert(0, Stmt("when", first, body=[Stmt(
                        "raw", "%s[0] = 0;" % cnt, fixed=True)],
                        fixed=True))
                    k.body.append(Stmt("raw", "%s[0] = %s[0] + 1;" %
                                       (cnt, cnt), fixed=True))
                    self.env.scalars.append(lambda cnt=cnt: leaf(
                        "%s[0]" % cnt, I32, ()))
                k.body.append(Stmt("when", last, body=[fin], fixed=True))
            else:
                # accumulate into the resident output block
                s0 = self.store(o, depth)
                e = g.expr(o.dt, (BR, BC), depth)
                if o.dt in (F32, I32, BF16) and self.chance(0.7):
                    s1 = Stmt("store", "%s[...] +=" % o.name, e,
                              target=o.name, fixed=True)
                else:
                    s1 = Stmt("store", "%s[...] =" % o.name, e,
                              target=o.name, fixed=True)
                k.body.append(Stmt("when", first, body=[s0], orelse=[s1],
                                   fixed=True))
            return
        seq = [a for a in self.roles if self.roles[a] == "seq"]
        if seq and acc_ok and self.chance(0.4):
            # state carried along an arbitrary axis in scratch
            a = seq[-1]
            sn = "run_%s" % o.name
            k.scratch.append(("%s: %s[%d, %d];" % (sn, o.dt, BR, BC), sn))
            s0 = Stmt("store", "%s[...] =" % sn,
                      g.expr(o.dt, (BR, BC), depth - 1), target=sn,
                      fixed=True)
            s1 = Stmt("store", "%s[...] =" % sn, Node(
                "(%s[...] * %s + {0})" % (sn, "0.5" if o.dt == F32
                                           else "3"), o.dt, (BR, BC),
                [g.expr(o.dt, (BR, BC), depth - 1)]), target=sn,
                fixed=True)
            k.body.append(Stmt("when", "%s == 0" % a, body=[s0],
                               orelse=[s1], fixed=True))
            ex = OWN[max(s0.value.level(), s1.value.level())]
            self.env.add(lambda sn=sn, dt=o.dt, ex=ex:
                         leaf("%s[...]" % sn, dt, (BR, BC), exact=ex),
                         o.dt, (BR, BC))
            k.body.append(self.store(o, depth))
            return
        pat = r.random()
        looped = False
        if pat < 0.2 and self.env.scalars:
            k.body.append(Stmt("when", g.cond().render(),
                               body=[self.store(o, depth)],
                               orelse=[self.store(o, depth)], fixed=True))
        elif pat < 0.35 and not self.odd and BR % 8 == 0 and BR > 8 \
                and o.dt in (F32, I32, BOOL):
            self.chunk_loop(o, depth)
            looped = True   # sema cannot see the loops cover the block
        else:
            k.body.append(self.store(o, depth))
        if self.chance(0.3):
            # a partial overwrite after the whole store
            if BC % self.LN == 0 and BC > self.LN and self.chance(0.5):
                c0 = self.LN * self.r.randint(0, BC // self.LN - 1)
                k.body.append(self.store(
                    o, depth - 1, "%s[:, %d:%d] =" % (o.name, c0,
                                                      c0 + self.LN),
                    (BR, self.LN)))
            else:
                r0 = self.r.randint(0, BR - 1)
                k.body.append(self.store(
                    o, depth - 1, "%s[%d:%d, :] =" % (o.name, r0, r0 + 1),
                    (1, BC)))
            if o.dt in (F32, I32) and self.chance(0.5) and not looped:
                k.body.append(Stmt("store", "%s[...] +=" % o.name,
                                   self.g.expr(o.dt, (BR, BC), depth - 1),
                                   target=o.name))

    def chunk_loop(self, o, depth):
        """for over the row chunks of 8: loads and stores by ds."""
        k, BR, BC = self.k, self.BR, self.BC
        env = Env(8, BC)
        env.scalars = list(self.env.scalars) + [lambda: leaf("r", I32, ())]
        env.fscalars = list(self.env.fscalars)
        env.bool_scalars = list(self.env.bool_scalars)
        for make, dt, sh in self.env.items:
            if dt in (BF16, I8):
                continue    # their tiles are 16 or 32 rows
            if sh == (BR, BC) or sh == (BR, 1):
                sh2 = (8, sh[1])
                env.add(lambda make=make, sh2=sh2, dt=dt: Node(
                    "%s[ds(r * 8, 8), :]" % (
                        make().render().replace("[...]", "")
                        .replace("{", "{{").replace("}", "}}")
                        if make().render().endswith("[...]") else
                        "(" + make().render().replace("{", "{{")
                        .replace("}", "}}") + ")"),
                    dt, sh2, own_exact=OWN[make().level()]), dt, sh2)
            elif sh == (1, BC) or sh == ():
                env.add(make, dt, sh)
        g = Gen(self.r, k, env, False)
        step = self.pick([1, 1, 2])
        stmts = []
        for lo in range(step):
            v = g.expr(o.dt, (8, BC), depth)
            st = Stmt("store", "%s[ds(r * 8, 8), :] =" % o.name, v,
                      target=o.name, fixed=True)
            hd = "r in %d : %d" % (lo, BR // 8)
            if step > 1:
                hd += " : %d" % step
            stmts.append(Stmt("for", hd, body=[st], fixed=True))
        k.body += stmts


def gen_kernel(seed, lanes):
    return Builder(seed, lanes).build()


if __name__ == "__main__":
    import sys
    print(gen_kernel(int(sys.argv[1]), int(sys.argv[2])).render(), end="")
