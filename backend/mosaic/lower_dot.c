/*
 * lower_dot.c - part of the body lowering (lower.c): dots (TOP_MATMUL,
 * memory to memory), batched dots one matmul per batch index, i8 x i8
 * dots (accumulating in i32) as bf16 matmuls.
 *
 * Shares lower.h; see lower.c for the strategy.
 */
#include "backend/mosaic/lower.h"

/* K of an i8 dot's bf16 matmul: i8 products are at most 2^14 and the
   MXU sums in f32, exact while |sum| < 2^24, so over 1024 terms. */
#define I8_KCHUNK 1024

static void
matmul_acc(L *l, TRef dst, TRef a, TRef b, const CExpr *e, int accumulate,
    DType acc)
{
	TRef args[3];
	int opi;

	args[0] = dst;
	args[1] = a;
	args[2] = b;
	tile_emit(l->f, TOP_MATMUL, args, 3, NULL, &opi);
	l->f->op.v[opi].loc = e->loc;
	l->f->op.v[opi].u.mm.trans_b = e->u.dot.trans_b;
	l->f->op.v[opi].u.mm.prec = e->u.dot.prec;
	l->f->op.v[opi].u.mm.acc = acc;
	l->f->op.v[opi].u.mm.accumulate = accumulate;
}

/* v (a vector) converted to dtype t (through i32 and f32 as needed). */
static TRef
convert(L *l, TRef v, DType t)
{
	const TVal *tv;
	TVal w;

	v = ml_widen(l, v);
	tv = tile_val(l->f, v);
	if (tv->dtype == DT_I32 && t == DT_BF16) {
		w = ml_vec_type(l, DT_F32, &tv->shape, tv->lay.kind);
		v = tile_emit(l->f, TOP_CONVERT, &v, 1, &w, NULL);
		tv = tile_val(l->f, v);
	}
	w = ml_vec_type(l, t, &tv->shape, tv->lay.kind);
	return tile_emit(l->f, TOP_CONVERT, &v, 1, &w, NULL);
}

/* One chunk of sd[1] = convert(sd[0]) (sd[2] != TNONE: sd[1] += ...,
   i32, wrapping). */
static void
convert_fn(L *l, const Ctx *c, void *arg)
{
	TRef *sd = arg;
	DType t = tile_val(l->f, sd[1])->dtype;
	TRef v = convert(l, c ? ml_load_chunk(l, c, sd[0], TL_NATIVE) :
	    ml_load_whole(l, sd[0]), t);

	if (sd[2] != TNONE)
		v = tile_binop(l->f, TOP_ADD, c ? ml_load_chunk(l, c, sd[1],
		    TL_NATIVE) : ml_load_whole(l, sd[1]), v);
	if (c)
		ml_store_chunk(l, c, sd[1], v);
	else
		ml_store_whole(l, sd[1], v);
}

/* dst = convert(src) (add: dst += ...), chunk by chunk. */
static void
convert_into(L *l, TRef dst, TRef src, int add, Loc loc)
{
	const TVal *dv = tile_val(l->f, dst);
	TRef sd[3];
	Ctx c;
	int chunked = ml_plan(l, dv->dtype, &dv->shape, &c, loc, NULL);

	sd[0] = src;
	sd[1] = dst;
	sd[2] = add ? dst : TNONE;
	ml_run_chunks(l, chunked ? &c : NULL, convert_fn, sd);
}

/* ref converted into a new home of dtype t. */
static TRef
convert_home(L *l, TRef ref, DType t, Loc loc)
{
	TRef h = ml_home(l, t, &tile_val(l->f, ref)->shape);

	convert_into(l, h, ref, 0, loc);
	return h;
}

/* The view of ref's dim d elements [k0, k0 + n). */
static TRef
kview(L *l, TRef ref, int d, int64_t k0, int64_t n)
{
	const Shape *s = &tile_val(l->f, ref)->shape;
	TIdx idx[SEMA_MAXRANK];
	TRef dyn[SEMA_MAXRANK];

	ml_whole(idx, dyn, s);
	if (k0 == 0 && n == s->d[d])
		return ref;
	idx[d].start = k0;
	idx[d].size = n;
	return ml_mkview(l, ref, idx, dyn, s->rank);
}

/*
 * An i8 x i8 dot into i32 dst, the operands a and b converted to bf16
 * (exact): bf16 matmuls of at most I8_KCHUNK terms into an f32 home,
 * whose sums are exact integers, each converted to i32 and added into
 * dst (wrapping, as interpret mode's i32 sums).
 */
static void
matmul_i8(L *l, TRef dst, TRef a, TRef b, const CExpr *e, int accumulate)
{
	const Shape *as = &tile_val(l->f, a)->shape;
	int r = as->rank, kd = e->u.dot.trans_b ? r - 1 : r - 2;
	int64_t K = as->d[r - 1], k0, n;
	TRef t = ml_home(l, DT_F32, &tile_val(l->f, dst)->shape);

	for (k0 = 0; k0 < K && !l->err; k0 += n) {
		n = K - k0 < I8_KCHUNK ? K - k0 : I8_KCHUNK;
		matmul_acc(l, t, kview(l, a, r - 1, k0, n), kview(l, b, kd, k0,
		    n), e, 0, DT_F32);
		convert_into(l, dst, t, accumulate || k0 > 0, e->loc);
	}
}

static void
matmul(L *l, TRef dst, TRef a, TRef b, const CExpr *e, int accumulate)
{
	if (tile_val(l->f, a)->dtype == DT_BF16 && e->u.dot.acc == DT_I32)
		matmul_i8(l, dst, a, b, e, accumulate);
	else
		matmul_acc(l, dst, a, b, e, accumulate, e->u.dot.acc);
}

/* Squeezed views of r at batch k (the leading dims, row-major). */
static TRef
batch_view(L *l, TRef r, int64_t k)
{
	const Shape *s = &tile_val(l->f, r)->shape;
	TIdx idx[SEMA_MAXRANK];
	TRef dyn[SEMA_MAXRANK];
	int i;

	ml_whole(idx, dyn, s);
	for (i = s->rank - 3; i >= 0; i--) {
		idx[i].start = k % s->d[i];
		idx[i].size = 1;
		idx[i].squeeze = 1;
		k /= s->d[i];
	}
	return ml_mkview(l, r, idx, dyn, s->rank);
}

/*
 * dst = a . b (accumulate: +=).  A batched dot (rank > 2, one batch
 * shape for the three, as sema checks) is one matmul per batch index on
 * squeezed views: the MXU multiplies matrices.
 */
void
ml_matmul(L *l, TRef dst, TRef a, TRef b, const CExpr *e, int accumulate)
{
	const Shape *s = &tile_val(l->f, dst)->shape;
	int64_t n = 1, k;
	int i;

	if (tile_val(l->f, a)->dtype == DT_I8) {	/* matmul_i8 */
		a = convert_home(l, a, DT_BF16, e->loc);
		b = convert_home(l, b, DT_BF16, e->loc);
	}
	if (s->rank <= 2)
		return matmul(l, dst, a, b, e, accumulate);
	for (i = 0; i < s->rank - 2; i++)
		n *= s->d[i];
	for (k = 0; k < n && !l->err; k++)
		matmul(l, batch_view(l, dst, k), batch_view(l, a, k),
		    batch_view(l, b, k), e, accumulate);
}

/* The operands of a dot as refs: a and b; 0, or -1 after an error. */
int
ml_dot_operands(L *l, const CExpr *e, TRef *a, TRef *b)
{
	if (e->arg[0]->shape.rank < 2 || e->arg[1]->shape.rank < 2 ||
	    e->arg[0]->shape.rank != e->arg[1]->shape.rank) {
		ml_error(l, e->loc, "dot of rank-1 or mixed-rank operands is "
		    "not supported yet");
		return -1;
	}
	*a = ml_as_ref(l, ml_materialise(l, e->arg[0]), e->loc);
	*b = ml_as_ref(l, ml_materialise(l, e->arg[1]), e->loc);
	if (l->err)
		return -1;
	if (e->u.dot.trans_a)
		*a = ml_transpose_ref(l, *a);
	return 0;
}

Val
ml_mat_dot(L *l, const CExpr *e)
{
	Val v = { V_REF, TNONE };
	TRef a, b;

	if (ml_dot_operands(l, e, &a, &b))
		return v;
	v.r = ml_home(l, e->dtype, &e->shape);
	ml_matmul(l, v.r, a, b, e, 0);
	return v;
}
