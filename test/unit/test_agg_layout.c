/*
 * The aggregation layouts, byte for byte against the expected output of
 * the conformance tests (each test names its .r file, under
 * tests/unittest/ of the conformance suite): the exit print, printa()
 * without and with a format, avg()/stddev() arithmetic.
 */
#include "agg_helpers.h"

#include <errno.h>

/* aggs/tst.multiaggs2.r, without the newline dtrace(1) prints before the aggregations */
static const char multiaggs2_r[] =
	"              450\n"
	"             4500\n"
	"                0\n"
	"              900\n"
	"\n"
	"           value  ------------- Distribution ------------- count    \n"
	"              -1 |                                         0        \n"
	"               0 |@@@@                                     1        \n"
	"               1 |                                         0        \n"
	"               2 |                                         0        \n"
	"               4 |                                         0        \n"
	"               8 |                                         0        \n"
	"              16 |                                         0        \n"
	"              32 |                                         0        \n"
	"              64 |@@@@                                     1        \n"
	"             128 |@@@@                                     1        \n"
	"             256 |@@@@@@@@@@@@                             3        \n"
	"             512 |@@@@@@@@@@@@@@@@                         4        \n"
	"            1024 |                                         0        \n"
	"\n"
	"\n"
	"           value  ------------- Distribution ------------- count    \n"
	"             < 0 |                                         0        \n"
	"               0 |@@@@                                     1        \n"
	"             100 |@@@@                                     1        \n"
	"             200 |@@@@                                     1        \n"
	"             300 |@@@@                                     1        \n"
	"             400 |@@@@                                     1        \n"
	"             500 |@@@@                                     1        \n"
	"             600 |@@@@                                     1        \n"
	"             700 |@@@@                                     1        \n"
	"             800 |@@@@                                     1        \n"
	"             900 |@@@@                                     1        \n"
	"         >= 1000 |                                         0        \n"
	"\n"
	;

/* printa/tst.basics.r, without the newline dtrace(1) prints at exit */
static const char basics_r[] =
	"@a = 1\n"
	"@b = 1\n"
	"@c = \n"
	"           value  ------------- Distribution ------------- count    \n"
	"             < 1 |                                         0        \n"
	"               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 1        \n"
	"               2 |                                         0        \n"
	"\n"
	"@d = 1\n"
	"@e = 1\n"
	"@f = 1\n"
	"@g = \n"
	"           value  ------------- Distribution ------------- count    \n"
	"               0 |                                         0        \n"
	"               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 1        \n"
	"               2 |                                         0        \n"
	"\n"
	"@h = \n"
	"           value  ------------- Distribution ------------- count    \n"
	"             100 |                                         0        \n"
	"             200 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 8        \n"
	"             400 |                                         0        \n"
	"\n"
	"@i = 5\n"
	;

/* aggs/tst.multiaggs3.r, without the newline dtrace(1) prints at exit */
static const char multiaggs3_r[] =
	"\n"
	"           value  ------------- Distribution ------------- count    \n"
	"             < 0 |                                         0        \n"
	"               0 |@@@@                                     1        \n"
	"             100 |@@@@                                     1        \n"
	"             200 |@@@@                                     1        \n"
	"             300 |@@@@                                     1        \n"
	"             400 |@@@@                                     1        \n"
	"             500 |@@@@                                     1        \n"
	"             600 |@@@@                                     1        \n"
	"             700 |@@@@                                     1        \n"
	"             800 |@@@@                                     1        \n"
	"             900 |@@@@                                     1        \n"
	"         >= 1000 |                                         0        \n"
	"\n"
	"\n"
	"           value  ------------- Distribution ------------- count    \n"
	"              -1 |                                         0        \n"
	"               0 |@@@@                                     1        \n"
	"               1 |                                         0        \n"
	"               2 |                                         0        \n"
	"               4 |                                         0        \n"
	"               8 |                                         0        \n"
	"              16 |                                         0        \n"
	"              32 |                                         0        \n"
	"              64 |@@@@                                     1        \n"
	"             128 |@@@@                                     1        \n"
	"             256 |@@@@@@@@@@@@                             3        \n"
	"             512 |@@@@@@@@@@@@@@@@                         4        \n"
	"            1024 |                                         0        \n"
	"\n"
	"900\n"
	"0\n"
	"4500\n"
	"450\n"
	"10\n"
	;

/* printa/tst.tuple.r, after the script's printf() of a newline, without dtrace(1)'s newline at exit */
static const char tuple_r[] =
	"1: -\n"
	"1: 1\n"
	"1: 1 2\n"
	"1: 1 2 3\n"
	"1: 1 2 3 4\n"
	"1: 1 2 3 4 5\n"
	;

/* aggs/tst.forms.r, without the newline dtrace(1) prints at exit */
static const char forms_r[] =
	"\n"
	"@a = 1\n"
	"@b = 1\n"
	"@c = 1\n"
	"@d = 1\n"
	;

/* aggs/tst.reset.r, without the newline dtrace(1) prints at exit */
static const char reset_r[] =
	"\n"
	"              150\n"
	"\n"
	"               14\n"
	"\n"
	"                5\n"
	"\n"
	"               30\n"
	"\n"
	"\n"
	"           value  ------------- Distribution ------------- count    \n"
	"               4 |                                         0        \n"
	"               8 |@@@@@@@@                                 1        \n"
	"              16 |@@@@@@@@@@@@@@@@                         2        \n"
	"              32 |@@@@@@@@@@@@@@@@                         2        \n"
	"              64 |                                         0        \n"
	"\n"
	"\n"
	"              150\n"
	"\n"
	"               14\n"
	"\n"
	"                5\n"
	"\n"
	"               30\n"
	"\n"
	"\n"
	"           value  ------------- Distribution ------------- count    \n"
	"               4 |                                         0        \n"
	"               8 |@@@@@@@@                                 1        \n"
	"              16 |@@@@@@@@@@@@@@@@                         2        \n"
	"              32 |@@@@@@@@@@@@@@@@                         2        \n"
	"              64 |                                         0        \n"
	"\n"
	"\n"
	"              150\n"
	"\n"
	"               14\n"
	"\n"
	"                5\n"
	"\n"
	"               30\n"
	"\n"
	"\n"
	"           value  ------------- Distribution ------------- count    \n"
	"               4 |                                         0        \n"
	"               8 |@@@@@@@@                                 1        \n"
	"              16 |@@@@@@@@@@@@@@@@                         2        \n"
	"              32 |@@@@@@@@@@@@@@@@                         2        \n"
	"              64 |                                         0        \n"
	"\n"
	"\n"
	"              150\n"
	"\n"
	"               14\n"
	"\n"
	"                5\n"
	"\n"
	"               30\n"
	"\n"
	"\n"
	"           value  ------------- Distribution ------------- count    \n"
	"               4 |                                         0        \n"
	"               8 |@@@@@@@@                                 1        \n"
	"              16 |@@@@@@@@@@@@@@@@                         2        \n"
	"              32 |@@@@@@@@@@@@@@@@                         2        \n"
	"              64 |                                         0        \n"
	"\n"
	"\n"
	"              150\n"
	"\n"
	"               14\n"
	"\n"
	"                5\n"
	"\n"
	"               30\n"
	"\n"
	"\n"
	"           value  ------------- Distribution ------------- count    \n"
	"               4 |                                         0        \n"
	"               8 |@@@@@@@@                                 1        \n"
	"              16 |@@@@@@@@@@@@@@@@                         2        \n"
	"              32 |@@@@@@@@@@@@@@@@                         2        \n"
	"              64 |                                         0        \n"
	"\n"
	;

/*
 * aggs/tst.stddev2.r holds these lines sorted (the runner sorts before
 * comparing: its blank line comes first); DTrace prints them in this order,
 * then dtrace(1)'s newline at exit.
 */
static const char stddev2_r[] =
	"        0\n"
	"        8\n"
	"       80\n"
	"      800\n"
	"     8000\n"
	"    80000\n"
	"   800000\n"
	"  8000000\n"
	" 10000000\n"
	" 20000000\n"
	" 40000000\n"
	" 80000000\n"
	;

/* aggs/tst.clear-one.r, without the newline dtrace(1) prints at exit */
static const char clear_one_r[] =
	"\n"
	"        3                3\n"
	"        2               20\n"
	"        1              100\n"
	"\n"
	"        4                0\n"
	"        5                0\n"
	"        6                0\n"
	"\n"
	"        9                9\n"
	"        8               80\n"
	"        7              700\n"
	;

/* aggs/tst.multinormalize.r, all of it: printf(), printa(), dtrace(1)'s newline, the exit print */
static const char multinormalize_r[] =
	"normalized data #1:\n"
	"\n"
	"        0              600\n"
	"        1              680\n"
	"        2              760\n"
	"        3              840\n"
	"        4              920\n"
	"\n"
	"normalized data #2:\n"
	"\n"
	"        1             1200\n"
	"        2             1360\n"
	"        3             1520\n"
	"        4             1680\n"
	"        5             1840\n"
	;

/* @a = avg(i); @b = sum(i); @c = min(i); @d = max(i); @e = quantize(i);
 * @f = lquantize(i, 0, 1000, 100) for i = 0, 100, ..., 900, printed at exit. */
static void test_exit_print_all_functions(void **state)
{
	struct fake *f = fk_open(2);
	struct fk_agg *a = fk_new(f, "a", AGG_AVG), *b = fk_new(f, "b", AGG_SUM);
	struct fk_agg *c = fk_new(f, "c", AGG_MIN), *d = fk_new(f, "d", AGG_MAX);
	struct fk_agg *e = fk_new(f, "e", AGG_QUANTIZE), *g = fk_new(f, "f", AGG_LQUANTIZE);

	fk_lquant(f, g, 0, 1000, 100);
	for (int i = 0; i < 1000; i += 100) {
		/* the ticks land on either CPU: the merge must not care */
		int cpu = (i / 100) % 2;
		fk_apply(f, a, NULL, cpu, i, 1);
		fk_apply(f, b, NULL, cpu, i, 1);
		fk_apply(f, c, NULL, cpu, i, 1);
		fk_apply(f, d, NULL, cpu, i, 1);
		fk_apply(f, e, NULL, cpu, i, 1);
		fk_apply(f, g, NULL, cpu, i, 1);
	}
	char *out = fk_exit_print(f);
	assert_output(multiaggs2_r, out);
	free(out);
	fk_close(f);
}

/* printa/tst.basics.d: printa("@x = %@u\n", @x) of every function. */
static void test_printa_format_every_function(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *a = fk_new(f, "a", AGG_AVG), *b = fk_new(f, "b", AGG_COUNT);
	struct fk_agg *c = fk_new(f, "c", AGG_LQUANTIZE), *d = fk_new(f, "d", AGG_MAX);
	struct fk_agg *e = fk_new(f, "e", AGG_MIN), *g = fk_new(f, "f", AGG_SUM);
	struct fk_agg *h = fk_new(f, "g", AGG_QUANTIZE), *l = fk_new(f, "h", AGG_LLQUANTIZE);
	struct fk_agg *m = fk_new(f, "i", AGG_STDDEV);
	struct dt_strbuf sb;

	fk_lquant(f, c, 1, 10, 1);
	fk_llquant(f, l, 10, 0, 5, 5);
	fk_put(f, a, NULL, 1);
	fk_put(f, b, NULL, 0);
	fk_put(f, c, NULL, 1);
	fk_put(f, d, NULL, 1);
	fk_put(f, e, NULL, 1);
	fk_put(f, g, NULL, 1);
	fk_put(f, h, NULL, 1);
	fk_apply(f, l, NULL, 0, 320, 8);
	fk_put(f, m, NULL, 10);
	fk_put(f, m, NULL, 20);
	dt_sb_init(&sb);
	fk_printa1(f, &sb, "@a = %@u\n", a);
	fk_printa1(f, &sb, "@b = %@u\n", b);
	fk_printa1(f, &sb, "@c = %@d\n", c);
	fk_printa1(f, &sb, "@d = %@u\n", d);
	fk_printa1(f, &sb, "@e = %@u\n", e);
	fk_printa1(f, &sb, "@f = %@u\n", g);
	fk_printa1(f, &sb, "@g = %@d\n", h);
	fk_printa1(f, &sb, "@h = %@d\n", l);
	fk_printa1(f, &sb, "@i = %@d\n", m);
	assert_output(basics_r, sb.s);
	dt_sb_free(&sb);
	fk_close(f);
}

/* aggs/tst.multiaggs3.d: printa("%@d\n") of each, histograms first. */
static void test_printa_format_histograms(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *ag[7];
	int funcs[7] = { AGG_COUNT, AGG_AVG, AGG_SUM, AGG_MIN, AGG_MAX, AGG_QUANTIZE, AGG_LQUANTIZE };
	struct dt_strbuf sb;

	for (int k = 0; k < 7; k++)
		ag[k] = fk_new(f, "x", funcs[k]);
	fk_lquant(f, ag[6], 0, 1000, 100);
	for (int i = 0; i < 1000; i += 100)
		for (int k = 0; k < 7; k++)
			fk_put(f, ag[k], NULL, i);
	dt_sb_init(&sb);
	for (int k = 6; k >= 0; k--)
		fk_printa1(f, &sb, "%@d\n", ag[k]);
	assert_output(multiaggs3_r, sb.s);
	dt_sb_free(&sb);
	fk_close(f);
}

/* printa/tst.def.d, tst.fmt.d, tst.manyval.d: printa(@a), "%@u", seven %@u of one value. */
static void test_printa_count(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *a = fk_new(f, "a", AGG_COUNT);
	struct dt_strbuf sb;

	fk_put(f, a, NULL, 0);
	dt_sb_init(&sb);
	fk_printa1(f, &sb, NULL, a);
	assert_output("\n                1\n", sb.s);
	dt_sb_reset(&sb);
	fk_printa1(f, &sb, "%@u", a);
	assert_output("1", sb.s);
	dt_sb_reset(&sb);
	fk_printa1(f, &sb, "%@u %@u %@u %@u %@u %@u %@u\n", a);
	assert_output("1 1 1 1 1 1 1\n", sb.s);
	dt_sb_free(&sb);
	/* printed by printa(): nothing left for the exit print */
	char *rest = fk_exit_print(f);
	assert_string_equal(rest, "");
	free(rest);
	fk_close(f);
}

/* printa/tst.tuple.d: a format may print fewer keys than the tuple has. */
static void test_printa_tuple(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *a = fk_new(f, "a", AGG_COUNT);
	static const char *const fmts[] = {
		"%@u: -\n", "%@u: %d\n", "%@u: %d %d\n", "%@u: %d %d %d\n", "%@u: %d %d %d %d\n",
		"%@u: %d %d %d %d %d\n",
	};
	struct dt_strbuf sb;
	struct fk_key k;

	memset(&k, 0, sizeof(k));
	for (int i = 0; i < 5; i++) {
		fk_key_int(a, 4, true);
		kb_int(&k, a, i, i + 1);
	}
	fk_put(f, a, &k, 0);
	dt_sb_init(&sb);
	for (size_t i = 0; i < ARRAY_SIZE(fmts); i++)
		fk_printa1(f, &sb, fmts[i], a);
	assert_output(tuple_r, sb.s);
	/* a format wanting more keys than there are: DTrace's EDT_DMISMATCH */
	dt_sb_reset(&sb);
	struct fk_agg *b = fk_new(f, "b", AGG_COUNT);
	fk_key_int(b, 4, true);
	memset(&k, 0, sizeof(k));
	fk_put(f, b, kb_int(&k, b, 0, 1), 0);
	struct dt_pf_format *pf;
	struct dt_pf_error err;
	assert_int_equal(dt_pf_parse("%d %d\n", &pf, &err), 0);
	assert_int_equal(dt_agg_printa(f->dtp->cons, &sb, pf, &b->ad.id, 1), -EINVAL);
	assert_string_equal(dtrace_errmsg(f->dtp), "Data record list does not match statement");
	dt_pf_free(pf);
	dt_sb_free(&sb);
	fk_close(f);
}

/* aggs/tst.forms.d: keyed and keyless aggregations through one format. */
static void test_printa_forms(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *a = fk_new(f, "a", AGG_COUNT), *b = fk_new(f, "b", AGG_MAX);
	struct fk_agg *c = fk_new(f, "c", AGG_COUNT), *d = fk_new(f, "d", AGG_MAX);
	struct dt_strbuf sb;
	struct fk_key k;

	fk_key_int(c, 4, true);
	fk_key_int(d, 4, true);
	fk_put(f, a, NULL, 0);
	fk_put(f, b, NULL, 1);
	memset(&k, 0, sizeof(k));
	fk_put(f, c, kb_int(&k, c, 0, 0), 0);
	fk_put(f, d, kb_int(&k, d, 0, 0), 1);
	dt_sb_init(&sb);
	fk_printa1(f, &sb, "\n@a = %@u\n", a);
	fk_printa1(f, &sb, "@b = %@u\n", b);
	fk_printa1(f, &sb, "@c = %@u\n", c);
	fk_printa1(f, &sb, "@d = %@u\n", d);
	assert_output(forms_r, sb.s);
	dt_sb_free(&sb);
	fk_close(f);
}

/* One keyless aggregation printed at exit. */
static char *exit_print_one(int func, const int64_t *v, size_t n, int ncpus)
{
	struct fake *f = fk_open(ncpus);
	struct fk_agg *a = fk_new(f, "a", func);

	for (size_t i = 0; i < n; i++)
		fk_apply(f, a, NULL, (int)(i % (size_t)ncpus), v[i], 1);
	char *out = fk_exit_print(f);
	fk_close(f);
	return out;
}

/* aggs/tst.avg.d, tst.sum.d, tst.count.d, tst.max_neg.d, tst.stddev.d: " %16lld" and friends. */
static void test_exit_scalars(void **state)
{
	int64_t tenths[10], maxes[] = { -100, -900 }, counts[] = { 0, 0 }, sd[20];
	char *out;

	for (int i = 0; i < 10; i++)
		tenths[i] = 100 * i;
	for (int i = 0; i < 10; i++) {
		sd[i] = 5000000000LL + 100 * i;
		sd[10 + i] = -sd[i];
	}
	out = exit_print_one(AGG_AVG, tenths, 10, 2);
	assert_output("              450\n", out);		/* aggs/tst.avg.r */
	free(out);
	out = exit_print_one(AGG_SUM, tenths, 10, 2);
	assert_output("             4500\n", out);		/* aggs/tst.sum.r */
	free(out);
	out = exit_print_one(AGG_COUNT, counts, 2, 2);
	assert_output("                2\n", out);		/* aggs/tst.count.r */
	free(out);
	out = exit_print_one(AGG_MAX, maxes, 2, 2);
	assert_output("             -100\n", out);		/* aggs/tst.max_neg.r */
	free(out);
	out = exit_print_one(AGG_STDDEV, sd, 10, 2);
	assert_output("              287\n", out);		/* aggs/tst.stddev.r */
	free(out);
	out = exit_print_one(AGG_STDDEV, sd + 10, 10, 2);
	assert_output("              287\n", out);
	free(out);

	/* aggs/tst.empty.d: aggregations that never fired print nothing */
	struct fake *f = fk_open(1);
	struct fk_agg *a = fk_new(f, "a", AGG_SUM);
	fk_new(f, "b", AGG_MIN);
	fk_new(f, "c", AGG_MAX);
	fk_put(f, a, NULL, 12345678);
	out = fk_exit_print(f);
	assert_output("         12345678\n", out);
	free(out);
	fk_close(f);
}

/* aggs/tst.stddev2.d: printa("%9@x") of stddev() across 32-bit boundaries. */
static void test_printa_stddev(void **state)
{
	struct fake *f = fk_open(1);
	static const int64_t pairs[][2] = {
		{ 0, 0 }, { 0x10, 0x20 }, { 0x100, 0x200 }, { 0x1000, 0x2000 },
		{ 0x10000, 0x20000 }, { 0x100000, 0x200000 }, { 0x1000000, 0x2000000 },
		{ 0x10000000, 0x20000000 }, { 0x20000000, 0x40000000 }, { 0x40000000, 0x80000000 },
		{ 0x80000000, 0x100000000 }, { 0x100000000, 0x200000000 },
	};
	struct dt_strbuf sb;

	dt_sb_init(&sb);
	for (size_t i = 0; i < ARRAY_SIZE(pairs); i++) {
		struct fk_agg *a = fk_new(f, "x", AGG_STDDEV);
		fk_put(f, a, NULL, pairs[i][0]);
		fk_put(f, a, NULL, pairs[i][1]);
		fk_printa1(f, &sb, "%9@x\n", a);
	}
	assert_output(stddev2_r, sb.s);
	dt_sb_free(&sb);
	fk_close(f);
}

/* aggs/tst.reset.d: printa() five times over does not consume anything. */
static void test_printa_repeated(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *a = fk_new(f, "a", AGG_SUM), *b = fk_new(f, "b", AGG_STDDEV);
	struct fk_agg *c = fk_new(f, "c", AGG_COUNT), *d = fk_new(f, "d", AGG_AVG);
	struct fk_agg *e = fk_new(f, "e", AGG_QUANTIZE);
	struct dt_strbuf sb;

	for (int v = 10; v <= 50; v += 10) {
		fk_put(f, a, NULL, v);
		fk_put(f, b, NULL, v);
		fk_put(f, c, NULL, v);
		fk_put(f, d, NULL, v);
		fk_put(f, e, NULL, v);
	}
	dt_sb_init(&sb);
	for (int n = 0; n < 5; n++)
		for (uint32_t id = 0; id < 5; id++)
			fk_printa(f, &sb, NULL, &id, 1);
	assert_output(reset_r, sb.s);
	dt_sb_free(&sb);
	fk_close(f);
}

/* aggs/tst.clear-one.d: clear(@b) zeroes @b's values and keeps its keys. */
static void test_clear_keeps_keys(void **state)
{
	struct fake *f = fk_open(2);
	struct fk_agg *ag[3];
	struct dt_strbuf sb;

	static const int v[3][3] = { { 100, 20, 3 }, { 400, 50, 6 }, { 700, 80, 9 } };

	for (int n = 0; n < 3; n++) {
		ag[n] = fk_new(f, "x", AGG_SUM);
		fk_key_int(ag[n], 4, true);
		for (int i = 0; i < 3; i++) {
			struct fk_key k;
			memset(&k, 0, sizeof(k));
			fk_apply(f, ag[n], kb_int(&k, ag[n], 0, 3 * n + i + 1), i % 2, v[n][i], 1);
		}
	}
	assert_int_equal(dt_agg_clear(f->dtp->cons, ag[1]->ad.id), 0);
	dt_sb_init(&sb);
	for (uint32_t id = 0; id < 3; id++)
		fk_printa(f, &sb, NULL, &id, 1);
	assert_output(clear_one_r, sb.s);
	dt_sb_free(&sb);
	fk_close(f);
}

/*
 * aggs/tst.clearavg.d: a cleared avg() prints 0.  A cleared min()/max()
 * prints its sentinel, as DTrace's dt_aggregate_clear_one leaves it.
 */
static void test_clear_values(void **state)
{
	struct fake *f = fk_open(2);
	struct fk_agg *a = fk_new(f, "a", AGG_AVG), *m = fk_new(f, "m", AGG_MIN);
	struct fk_agg *q = fk_new(f, "q", AGG_QUANTIZE);

	for (int i = 0; i < 5; i++) {
		fk_apply(f, a, NULL, i % 2, 1000000 + i, 1);
		fk_apply(f, m, NULL, i % 2, 5 + i, 1);
		fk_apply(f, q, NULL, i % 2, i, 1);
	}
	for (uint32_t id = 0; id < 3; id++)
		assert_int_equal(dt_agg_clear(f->dtp->cons, id), 0);
	char *out = fk_exit_print(f);
	assert_output("                0\n"
		      " 9223372036854775807\n"
		      "\n"
		      "           value  ------------- Distribution ------------- count    \n"
		      "              -1 |                                         0        \n"
		      "               0 |                                         0        \n"
		      "               1 |                                         0        \n"
		      "\n",
		      out);
	free(out);
	/* new values after the clear count from nothing */
	fk_apply(f, m, NULL, 1, 42, 1);
	struct dt_strbuf sb;
	dt_sb_init(&sb);
	fk_printa1(f, &sb, "%@d\n", m);
	assert_output("42\n", sb.s);
	dt_sb_free(&sb);
	fk_close(f);
}

/* aggs/tst.normalize.d, tst.denormalize.d, tst.normalize_multiple_times.d */
static void test_normalize(void **state)
{
	for (int c = 0; c < 3; c++) {
		struct fake *f = fk_open(1);
		struct fk_agg *a = fk_new(f, "a", AGG_SUM), *b = fk_new(f, "b", AGG_SUM);

		for (int i = 0; i < 20; i++) {
			fk_put(f, a, NULL, i * 100);
			fk_put(f, b, NULL, i * 100);
		}
		if (c == 2)
			assert_int_equal(dt_agg_normalize(f->dtp->cons, 0, 2), 0);
		assert_int_equal(dt_agg_normalize(f->dtp->cons, 0, 5), 0);
		if (c == 1)
			assert_int_equal(dt_agg_denormalize(f->dtp->cons, 0), 0);
		char *out = fk_exit_print(f);
		assert_output(c == 1 ? "            19000\n            19000\n"
				     : "             3800\n            19000\n", out);
		free(out);
		fk_close(f);
	}
}

/* aggs/tst.multinormalize.d: printa() marks @func1 printed; only @func2 prints at exit. */
static void test_normalize_then_printa(void **state)
{
	struct fake *f = fk_open(2);
	struct fk_agg *f1 = fk_new(f, "func1", AGG_SUM), *f2 = fk_new(f, "func2", AGG_SUM);
	struct dt_strbuf sb;

	fk_key_int(f1, 4, true);
	fk_key_int(f2, 4, true);
	for (int i = 0; i < 20; i++) {
		struct fk_key k;
		memset(&k, 0, sizeof(k));
		fk_apply(f, f1, kb_int(&k, f1, 0, i % 5), i % 2, i * 100, 1);
		fk_apply(f, f2, kb_int(&k, f2, 0, i % 5 + 1), i % 2, i * 200, 1);
	}
	dt_sb_init(&sb);
	dt_sb_puts(&sb, "normalized data #1:\n");
	assert_int_equal(dt_agg_normalize(f->dtp->cons, 0, 5), 0);
	fk_printa1(f, &sb, NULL, f1);
	dt_sb_puts(&sb, "\nnormalized data #2:\n");
	assert_int_equal(dt_agg_normalize(f->dtp->cons, 1, 5), 0);
	dt_sb_puts(&sb, "\n");		/* dtrace(1), before the exit print */
	char *rest = fk_exit_print(f);
	dt_sb_puts(&sb, rest);
	free(rest);
	assert_output(multinormalize_r, sb.s);
	dt_sb_free(&sb);
	fk_close(f);
}

/*
 * Normalized avg() and stddev(): dt_print_average divides sum by normal
 * then by count; pfprint_average (printa's %@) does it unsigned, so a
 * negative average prints as DTrace prints it, wrapped.
 */
static void test_avg_stddev_arithmetic(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *a = fk_new(f, "a", AGG_AVG), *n = fk_new(f, "n", AGG_AVG);
	struct fk_agg *s = fk_new(f, "s", AGG_STDDEV);
	struct dt_strbuf sb;

	fk_put(f, a, NULL, 100);
	fk_put(f, a, NULL, 201);		/* 301 / 2 = 150 */
	fk_put(f, n, NULL, -3);
	fk_put(f, n, NULL, -4);			/* -7 / 2 = -3 */
	fk_put(f, s, NULL, 10);
	fk_put(f, s, NULL, 30);			/* sqrt(500 - 400) = 10 */
	dt_sb_init(&sb);
	fk_printa1(f, &sb, "%@d ", a);
	fk_printa1(f, &sb, "%@d ", n);
	fk_printa1(f, &sb, "%@d\n", s);
	assert_output("150 9223372036854775804 10\n", sb.s);
	dt_sb_free(&sb);
	assert_int_equal(dt_agg_normalize(f->dtp->cons, 0, 10), 0);
	assert_int_equal(dt_agg_normalize(f->dtp->cons, 1, 2), 0);
	assert_int_equal(dt_agg_normalize(f->dtp->cons, 2, 2), 0);
	dt_sb_init(&sb);
	for (uint32_t id = 0; id < 3; id++)
		fk_printa(f, &sb, NULL, &id, 1);
	/*
	 * 301/10/2 = 15; -7/2/2 = -1; dt_stddev divides the sum of squares by
	 * normal twice: sqrt(1000/2/2/2 - (40/2/2)^2) = sqrt(25) = 5.
	 */
	assert_output("\n               15\n\n               -1\n\n                5\n", sb.s);
	dt_sb_free(&sb);
	fk_close(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_print_all_functions),
		cmocka_unit_test(test_printa_format_every_function),
		cmocka_unit_test(test_printa_format_histograms),
		cmocka_unit_test(test_printa_count),
		cmocka_unit_test(test_printa_tuple),
		cmocka_unit_test(test_printa_forms),
		cmocka_unit_test(test_exit_scalars),
		cmocka_unit_test(test_printa_stddev),
		cmocka_unit_test(test_printa_repeated),
		cmocka_unit_test(test_clear_keeps_keys),
		cmocka_unit_test(test_clear_values),
		cmocka_unit_test(test_normalize),
		cmocka_unit_test(test_normalize_then_printa),
		cmocka_unit_test(test_avg_stddev_arithmetic),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
