/*
 * quantize(), lquantize() and llquantize(): the bucket math of
 * base/quant.h at its edges, and the histograms printed from data
 * fed through it as the conformance tests' D scripts feed it, byte for
 * byte against their expected output (agg_quant_expected.h names each
 * .r file).
 */
#include "agg_helpers.h"
#include "agg_quant_expected.h"

#define STRSIZE 256

static int64_t wrap_add(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}

/* ---- bucket math ---------------------------------------------------------- */

static void test_quantize_buckets(void **state)
{
	assert_int_equal(dt_quantize_bucket(0), 63);
	assert_int_equal(dt_quantize_bucket(1), 64);
	assert_int_equal(dt_quantize_bucket(2), 65);
	assert_int_equal(dt_quantize_bucket(3), 65);
	assert_int_equal(dt_quantize_bucket(4), 66);
	assert_int_equal(dt_quantize_bucket(-1), 62);
	assert_int_equal(dt_quantize_bucket(-3), 61);
	assert_int_equal(dt_quantize_bucket(INT64_MAX), 126);
	assert_int_equal(dt_quantize_bucket(1LL << 62), 126);
	assert_int_equal(dt_quantize_bucket((1LL << 62) - 1), 125);
	/* -(2^62) .. INT64_MIN share the lowest bucket (bpf/agg_qbin.c) */
	assert_int_equal(dt_quantize_bucket(-(1LL << 62)), 0);
	assert_int_equal(dt_quantize_bucket(-(1LL << 62) + 1), 1);
	assert_int_equal(dt_quantize_bucket(INT64_MIN), 0);
	assert_int_equal(dt_quantize_bucket(INT64_MIN + 1), 0);
	assert_int_equal(dt_quantize_bucket_value(0), -(1LL << 62));
	assert_int_equal(dt_quantize_bucket_value(62), -1);
	assert_int_equal(dt_quantize_bucket_value(63), 0);
	assert_int_equal(dt_quantize_bucket_value(64), 1);
	assert_int_equal(dt_quantize_bucket_value(126), 1LL << 62);
	/* every bucket's label is its lowest value, for both signs */
	for (unsigned b = 1; b < 127; b++)
		assert_int_equal(dt_quantize_bucket(dt_quantize_bucket_value(b)), b);
	for (int k = 1; k < 63; k++) {
		int64_t p = 1LL << k;
		assert_int_equal(dt_quantize_bucket(p - 1), 63 + k);
		assert_int_equal(dt_quantize_bucket(-(p - 1)), 63 - k);
	}
}

static void test_lquantize_buckets(void **state)
{
	/* lquantize(v, -10, 10, 1): 20 levels */
	assert_int_equal(dt_lquantize_bucket(-11, -10, 20, 1), 0);
	assert_int_equal(dt_lquantize_bucket(INT64_MIN, -10, 20, 1), 0);
	assert_int_equal(dt_lquantize_bucket(-10, -10, 20, 1), 1);
	assert_int_equal(dt_lquantize_bucket(0, -10, 20, 1), 11);
	assert_int_equal(dt_lquantize_bucket(9, -10, 20, 1), 20);
	assert_int_equal(dt_lquantize_bucket(10, -10, 20, 1), 21);
	assert_int_equal(dt_lquantize_bucket(INT64_MAX, -10, 20, 1), 21);
	/* lquantize(v, 0, 1000, 100) */
	assert_int_equal(dt_lquantize_bucket(99, 0, 10, 100), 1);
	assert_int_equal(dt_lquantize_bucket(100, 0, 10, 100), 2);
	assert_int_equal(dt_lquantize_bucket(999, 0, 10, 100), 10);
	assert_int_equal(dt_lquantize_bucket(1000, 0, 10, 100), 11);
	/* lquantize(v, 0, 150): a step that does not divide the range */
	assert_int_equal(dt_lquantize_bucket(7, 0, 7, 20), 1);
	assert_int_equal(dt_lquantize_bucket(139, 0, 7, 20), 7);
	assert_int_equal(dt_lquantize_bucket(140, 0, 7, 20), 8);
}

static void test_llquantize_layout(void **state)
{
	/* 2 * (hmag - lmag + 1) * (steps - steps/factor) + 3 */
	assert_int_equal(dt_llquantize_nbuckets(10, 0, 6, 20), 2 * 7 * 18 + 3);
	assert_int_equal(dt_llquantize_nbuckets(10, 0, 5, 5), 2 * 6 * 5 + 3);
	assert_int_equal(dt_llquantize_nbuckets(3, 3, 5, 27), 2 * 3 * 18 + 3);
	assert_int_equal(dt_llquantize_nbuckets(2, 0, 1, 4), 11);
	assert_int_equal(dt_llquantize_nbuckets(2, 0, 1, 2), 7);

	/* llquantize(v, 10, 0, 6, 20): the middle bucket is 1 + 7 * 18 = 127 */
	struct dt_aggdesc ad = { .llq_factor = 10, .llq_lmag = 0, .llq_hmag = 6, .llq_steps = 20 };
	uint32_t u = 127, last = 2 * 127;
	assert_int_equal(dt_llquantize_bucket(&ad, 0), u);
	assert_int_equal(dt_llquantize_bucket(&ad, 1), u + 1);
	/* 2 .. 9 take every second bucket of magnitude 0 (the others are ghosts) */
	assert_int_equal(dt_llquantize_bucket(&ad, 2), u + 3);
	assert_int_equal(dt_llquantize_bucket(&ad, 9), u + 17);
	assert_int_equal(dt_llquantize_bucket(&ad, 10), u + 19);
	assert_int_equal(dt_llquantize_bucket(&ad, 14), u + 19);
	assert_int_equal(dt_llquantize_bucket(&ad, 15), u + 20);
	assert_int_equal(dt_llquantize_bucket(&ad, 99), u + 36);
	assert_int_equal(dt_llquantize_bucket(&ad, 100), u + 37);
	assert_int_equal(dt_llquantize_bucket(&ad, 9999999), last - 1);
	assert_int_equal(dt_llquantize_bucket(&ad, 10000000), last);
	assert_int_equal(dt_llquantize_bucket(&ad, INT64_MAX), last);
	/* negative values mirror the positive ones */
	assert_int_equal(dt_llquantize_bucket(&ad, -1), u - 1);
	assert_int_equal(dt_llquantize_bucket(&ad, -15), u - 20);
	assert_int_equal(dt_llquantize_bucket(&ad, -10000000), 0);
	assert_int_equal(dt_llquantize_bucket(&ad, INT64_MIN), 0);

	/* llquantize(v, 3, 3, 5, 27): |v| < 27 is the middle bucket 55 */
	struct dt_aggdesc st = { .llq_factor = 3, .llq_lmag = 3, .llq_hmag = 5, .llq_steps = 27 };
	assert_int_equal(dt_llquantize_bucket(&st, 26), 55);
	assert_int_equal(dt_llquantize_bucket(&st, -26), 55);
	assert_int_equal(dt_llquantize_bucket(&st, 27), 56);
	assert_int_equal(dt_llquantize_bucket(&st, 29), 56);
	assert_int_equal(dt_llquantize_bucket(&st, 30), 57);
	assert_int_equal(dt_llquantize_bucket(&st, 728), 109);
	assert_int_equal(dt_llquantize_bucket(&st, 729), 110);
	assert_int_equal(dt_llquantize_bucket(&st, -729), 0);

	/* hmag at the top of 64 bits: 2^63 <= |v| overflows */
	struct dt_aggdesc big = { .llq_factor = 2, .llq_lmag = 0, .llq_hmag = 62, .llq_steps = 2 };
	uint32_t n = dt_llquantize_nbuckets(2, 0, 62, 2);
	assert_int_equal(dt_llquantize_bucket(&big, INT64_MAX), n - 2);
	assert_int_equal(dt_llquantize_bucket(&big, INT64_MIN), 0);
	assert_int_equal(dt_llquantize_bucket(&big, 1LL << 62), n - 2);
	assert_int_equal(dt_llquantize_bucket(&big, (1LL << 62) - 1), n - 3);
}

/* ---- histograms ------------------------------------------------------------ */

static char *exit_print(struct fake *f)
{
	return fk_exit_print(f);
}

/* aggs/tst.allquant.d: quantize(+/-(1 << i) [+/- 1]) for every i, wrapping at 2^63. */
static void test_allquant(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *a = fk_new(f, "_", AGG_QUANTIZE);

	for (int i = 0; i < 64; i++) {
		int64_t p = (int64_t)(1ULL << i);
		fk_put(f, a, NULL, p);
		fk_put(f, a, NULL, wrap_add(p, 1));
		fk_put(f, a, NULL, (int64_t)(0 - (uint64_t)p));
		fk_put(f, a, NULL, wrap_add((int64_t)(0 - (uint64_t)p), -1));
	}
	char *out = exit_print(f);
	assert_output(allquant_r, out);
	free(out);
	fk_close(f);
}

static struct fk_key kstr(const struct fk_agg *a, const char *s)
{
	struct fk_key kb;

	memset(&kb, 0, sizeof(kb));
	kb_str(&kb, a, 0, s);
	return kb;
}

/* aggs/tst.negquant.d and tst.neglquant.d: negative and huge increments. */
static void feed_negative_increments(struct fake *f, struct fk_agg *a, bool lquant)
{
	struct fk_key k;
	int64_t big = INT64_MAX;

	k = kstr(a, "j-church");
	fk_apply(f, a, &k, 0, 1, 100);
	fk_apply(f, a, &k, 0, 1, -99);
	fk_apply(f, a, &k, 0, 1, -1);
	k = kstr(a, "k-ingleside");
	fk_apply(f, a, &k, 0, 1, -123);
	k = kstr(a, "l-taraval");
	fk_apply(f, a, &k, 0, 0, -123);
	fk_apply(f, a, &k, 0, -1, -123);
	fk_apply(f, a, &k, 0, 1, 123);
	fk_apply(f, a, &k, 0, 1, 123);
	k = kstr(a, "m-oceanview");
	fk_apply(f, a, &k, 0, 1, big);
	fk_apply(f, a, &k, 0, 1, 1);
	fk_apply(f, a, &k, 0, 2, big);
	fk_apply(f, a, &k, 0, 8, 400000);
	k = kstr(a, "n-judah");
	fk_apply(f, a, &k, 0, 1, 123);
	fk_apply(f, a, &k, 0, 2, 123);
	fk_apply(f, a, &k, 0, 2, 123);
	fk_apply(f, a, &k, 0, 2, 1);
	if (lquant) {
		k = kstr(a, "f-market");
		for (int64_t i = 1; i <= 7; i++)
			fk_apply(f, a, &k, 0, i, big / i);
		k = kstr(a, "s-castro");
		fk_apply(f, a, &k, 0, 1, big - 6);
		for (int64_t i = 2; i <= 7; i++)
			fk_apply(f, a, &k, 0, i, big / i);
	} else {
		int64_t i = 1, v = big;
		k = kstr(a, "f-market");
		for (int n = 0; n < 4; n++, i <<= 1, v >>= 1)
			fk_apply(f, a, &k, 0, i, v);
		i = 1;
		v = big - 3;
		k = kstr(a, "s-castro");
		for (int n = 0; n < 4; n++, i <<= 1, v >>= 1)
			fk_apply(f, a, &k, 0, i, v);
	}
}

static void test_negquant(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *a = fk_new(f, "_", AGG_QUANTIZE);

	fk_key_str(a, STRSIZE);
	feed_negative_increments(f, a, false);
	char *out = exit_print(f);
	assert_output(negquant_r, out);
	free(out);
	fk_close(f);
}

static void test_neglquant(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *a = fk_new(f, "_", AGG_LQUANTIZE);

	fk_key_str(a, STRSIZE);
	fk_lquant(f, a, 0, 10, 1);
	feed_negative_increments(f, a, true);
	char *out = exit_print(f);
	assert_output(neglquant_r, out);
	free(out);
	fk_close(f);
}

/* aggs/tst.quantize.d and tst.lquantize.d: @a[i] = quantize(i) / lquantize(i, -100, 1100, 100). */
static void test_keyed_histograms(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *q = fk_new(f, "a", AGG_QUANTIZE);

	fk_key_int(q, 4, true);
	for (int i = 0; i < 1000; i += 100) {
		struct fk_key k;
		fk_put(f, q, kb_int(&k, q, 0, i), i);
	}
	char *out = exit_print(f);
	assert_output(quantize_r, out);
	free(out);
	fk_close(f);

	f = fk_open(1);
	struct fk_agg *l = fk_new(f, "a", AGG_LQUANTIZE);
	fk_key_int(l, 4, true);
	fk_lquant(f, l, -100, 1100, 100);
	for (int i = 0; i < 1000; i += 100) {
		struct fk_key k;
		fk_put(f, l, kb_int(&k, l, 0, i), i);
	}
	out = exit_print(f);
	assert_output(lquantize_r, out);
	free(out);
	fk_close(f);
}

/* aggs/tst.quantmany.d: both signs in one histogram (half-width bars). */
static void test_quantmany(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *a = fk_new(f, "_", AGG_QUANTIZE);
	int64_t val = 0, shift = 0;

	fk_key_int(a, 8, true);
	for (;;) {
		/* the four syscall::ioctl:entry clauses, in order */
		if (val == 0) {
			val = -(1LL << shift);
			shift++;
		}
		if (shift == 32)
			break;
		if (val == -1)
			val = 1LL << shift;
		struct fk_key k;
		fk_apply(f, a, kb_int(&k, a, 0, shift), 0, val, val);
		val >>= 1;
	}
	char *out = exit_print(f);
	assert_output(quantmany_r, out);
	free(out);
	fk_close(f);
}

/* aggs/tst.quantround.d, tst.lquantround.d: bars round to the nearest '@'. */
static void test_bar_rounding(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *q = fk_new(f, "_", AGG_QUANTIZE);

	for (int i = 1; i <= 27; i++)
		fk_put(f, q, NULL, i > 8 ? 2 : i > 2 ? 1 : 0);
	char *out = exit_print(f);
	assert_output(quantround_r, out);
	free(out);
	fk_close(f);

	f = fk_open(1);
	struct fk_agg *l = fk_new(f, "_", AGG_LQUANTIZE);
	fk_lquant(f, l, 0, 4, 1);
	for (int i = 1; i <= 27; i++)
		fk_put(f, l, NULL, i > 8 ? 2 : i > 2 ? 1 : 0);
	out = exit_print(f);
	assert_output(lquantround_r, out);
	free(out);
	fk_close(f);
}

/* aggs/tst.quantzero.d: all-zero data prints the rows around 0; printa(@). */
static void test_quantzero(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *a = fk_new(f, "_", AGG_QUANTIZE);
	int64_t av = 7, bv = 13, val = (-av * bv) + av, incr, i = 0;
	struct dt_strbuf sb;

	fk_key_int(a, 8, true);
	for (;;) {
		incr = val % bv;
		val += av;
		if (val == 0)
			val += av;
		if (incr == 0)
			break;
		struct fk_key k;
		i++;
		fk_apply(f, a, kb_int(&k, a, 0, i), 0, 0, incr);
	}
	dt_sb_init(&sb);
	fk_printa1(f, &sb, NULL, a);
	assert_output(quantzero_r, sb.s);
	dt_sb_free(&sb);
	fk_close(f);
}

/* aggs/tst.quantlast.d: the top bucket ends the rows (no row after it). */
static void test_quantlast(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *a = fk_new(f, "_", AGG_QUANTIZE);

	fk_apply(f, a, NULL, 0, 0x4000000000000000LL, 1234);
	char *out = exit_print(f);
	assert_output(quantlast_r, out);
	free(out);
	fk_close(f);
}

/* aggs/tst.lquantrange.d: the "< base" and ">= limit" rows. */
static void test_lquantrange(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *a = fk_new(f, "_", AGG_LQUANTIZE);
	struct dt_strbuf sb;
	struct fk_key k;

	fk_key_str(a, STRSIZE);
	fk_lquant(f, a, -10, 10, 1);
	k = kstr(a, "Nixon");
	fk_apply(f, a, &k, 0, -20, 25);
	k = kstr(a, "Hoover");
	fk_apply(f, a, &k, 0, 20, -100);
	k = kstr(a, "Harding");
	fk_apply(f, a, &k, 0, -10, 15);
	k = kstr(a, "Bush");
	fk_apply(f, a, &k, 0, 10, 150);
	dt_sb_init(&sb);
	fk_printa1(f, &sb, NULL, a);
	assert_output(lquantrange_r, sb.s);
	dt_sb_free(&sb);
	fk_close(f);
}

/* aggs/tst.lquantnormal.d, tst.llquantnormal.d: normalize(@, 5) divides the counts only. */
static void test_normalized_histograms(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *l = fk_new(f, "_", AGG_LQUANTIZE);
	struct fk_agg *ll = fk_new(f, "_", AGG_LLQUANTIZE);
	struct dt_strbuf sb;

	fk_lquant(f, l, 0, 10, 1);
	fk_llquant(f, ll, 10, 0, 2, 20);
	for (int i = 1; i <= 10; i++)
		for (int n = 0; n < 5; n++) {
			fk_put(f, l, NULL, i);
			fk_put(f, ll, NULL, i);
		}
	assert_int_equal(dt_agg_normalize(f->dtp->cons, l->ad.id, 5), 0);
	assert_int_equal(dt_agg_normalize(f->dtp->cons, ll->ad.id, 5), 0);
	dt_sb_init(&sb);
	fk_printa1(f, &sb, NULL, l);
	assert_output(lquantnormal_r, sb.s);
	dt_sb_reset(&sb);
	fk_printa1(f, &sb, NULL, ll);
	assert_output(llquantnormal_r, sb.s);
	dt_sb_free(&sb);
	fk_close(f);
}

/* aggs/tst.llquantize.d, tst.llquantincr.d: llquantize(i++, 10, 0, 6, 20[, 2]), i < 1500. */
static void test_llquantize(void **state)
{
	for (int incr = 1; incr <= 2; incr++) {
		struct fake *f = fk_open(1);
		struct fk_agg *a = fk_new(f, "_", AGG_LLQUANTIZE);

		fk_llquant(f, a, 10, 0, 6, 20);
		for (int i = 0; i < 1500; i++)
			fk_apply(f, a, NULL, 0, i, incr);
		char *out = exit_print(f);
		assert_output(incr == 1 ? llquantize_r : llquantincr_r, out);
		free(out);
		fk_close(f);
	}
}

/* aggs/tst.llquantstep.d: llquantize(i++, 3, 3, 5, 27): "abs() < 27" and ">= 729". */
static void test_llquantstep(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *a = fk_new(f, "_", AGG_LLQUANTIZE);

	fk_llquant(f, a, 3, 3, 5, 27);
	for (int i = 0; i < 1500; i++)
		fk_put(f, a, NULL, i);
	char *out = exit_print(f);
	assert_output(llquantstep_r, out);
	free(out);
	fk_close(f);
}

/* aggs/tst.llquantoverflow.d: llquantize(big, 10, 7, 10, 10), one aggregation each. */
static void test_llquantoverflow(void **state)
{
	struct fake *f = fk_open(1);
	static const int64_t v[] = { 1100000000, 1200000000, 1300000000, 1400000000, 1788008280 };

	for (int i = 0; i < 5; i++) {
		struct fk_agg *a = fk_new(f, "x", AGG_LLQUANTIZE);
		fk_llquant(f, a, 10, 7, 10, 10);
		fk_put(f, a, NULL, v[i]);
	}
	char *out = exit_print(f);
	assert_output(llquantoverflow_r, out);
	free(out);
	fk_close(f);
}

/* aggs/tst.llquantize_sort.d: sorted by DTrace's llquantize sum, ghost buckets and all. */
static void test_llquantize_sort(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *normal = fk_new(f, "normal", AGG_LLQUANTIZE);
	struct fk_agg *tricky = fk_new(f, "tricky", AGG_LLQUANTIZE);
	static const struct { const char *k; int v, incr; } in[] = {
		{ "r", 2, 1 }, { "z", -4, 1 }, { "v", 0, 1 }, { "x", -2, 1 }, { "q", 3, 1 },
		{ "u", 0, 2 }, { "y", -3, 1 }, { "t", 0, 2 }, { "p", 4, 1 }, { "w", -1, 1 },
		{ "s", 1, 1 },
	};
	struct dt_strbuf sb;

	fk_key_str(normal, STRSIZE);
	fk_key_str(tricky, STRSIZE);
	fk_llquant(f, normal, 2, 0, 1, 2);
	fk_llquant(f, tricky, 2, 0, 1, 4);
	for (size_t i = 0; i < ARRAY_SIZE(in); i++) {
		struct fk_key k = kstr(normal, in[i].k);
		fk_apply(f, normal, &k, 0, in[i].v, in[i].incr);
		fk_apply(f, tricky, &k, 0, in[i].v, in[i].incr);
	}
	dt_sb_init(&sb);
	dt_sb_puts(&sb, "normal\n");
	fk_printa1(f, &sb, NULL, normal);
	dt_sb_puts(&sb, "tricky\n");
	fk_printa1(f, &sb, NULL, tricky);
	assert_output(llquantize_sort_r, sb.s);
	dt_sb_free(&sb);
	fk_close(f);
}

/* aggs/tst.llquantsortkey.d, tst.llquantsortsum.d, tst.llquantsortzero.d */
static void test_llquantize_sorts(void **state)
{
	static const struct { const char *k; int v, incr; } key[] = {
		{ "Spanky", 10, 20 }, { "Buckwheat", 4, 50 }, { "Alfalfa", 2, 100 },
	}, sum[] = {
		{ "Larry", 1, -25 }, { "Moe", 2, -50 }, { "Shemp", 3, 50 }, { "Curly", 4, 25 },
	}, zero[] = {
		{ "Alfalfa", 0, 25 }, { "Buckwheat", 0, -25 }, { "Alfalfa", 2, 100 },
		{ "Buckwheat", 4, 50 },
	};
	const struct { const void *in; size_t n; const char *expect; } cases[] = {
		{ key, ARRAY_SIZE(key), llquantsortkey_r },
		{ sum, ARRAY_SIZE(sum), llquantsortsum_r },
		{ zero, ARRAY_SIZE(zero), llquantsortzero_r },
	};

	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		struct fake *f = fk_open(1);
		struct fk_agg *a = fk_new(f, "_", AGG_LLQUANTIZE);
		const typeof(key[0]) *in = cases[c].in;
		struct dt_strbuf sb;

		fk_key_str(a, STRSIZE);
		fk_llquant(f, a, 10, 0, 2, 20);
		for (size_t i = 0; i < cases[c].n; i++) {
			struct fk_key k = kstr(a, in[i].k);
			fk_apply(f, a, &k, 0, in[i].v, in[i].incr);
		}
		dt_sb_init(&sb);
		fk_printa1(f, &sb, NULL, a);
		assert_output(cases[c].expect, sb.s);
		dt_sb_free(&sb);
		fk_close(f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quantize_buckets),
		cmocka_unit_test(test_lquantize_buckets),
		cmocka_unit_test(test_llquantize_layout),
		cmocka_unit_test(test_allquant),
		cmocka_unit_test(test_negquant),
		cmocka_unit_test(test_neglquant),
		cmocka_unit_test(test_keyed_histograms),
		cmocka_unit_test(test_quantmany),
		cmocka_unit_test(test_bar_rounding),
		cmocka_unit_test(test_quantzero),
		cmocka_unit_test(test_quantlast),
		cmocka_unit_test(test_lquantrange),
		cmocka_unit_test(test_normalized_histograms),
		cmocka_unit_test(test_llquantize),
		cmocka_unit_test(test_llquantstep),
		cmocka_unit_test(test_llquantoverflow),
		cmocka_unit_test(test_llquantize_sort),
		cmocka_unit_test(test_llquantize_sorts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
