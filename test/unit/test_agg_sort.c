/*
 * Sorting as DTrace sorts: by value then key, aggsortkey, aggsortrev,
 * aggsortkeypos, printa() of several aggregations with aggsortpos, and
 * trunc()'s choice of entries; byte for byte against the conformance
 * tests' expected output (agg_sort_expected.h names each .r file).
 */
#include "agg_helpers.h"
#include "agg_sort_expected.h"

#define STRSIZE 256

static struct fk_key key_int(const struct fk_agg *a, int64_t v)
{
	struct fk_key k;

	memset(&k, 0, sizeof(k));
	kb_int(&k, a, 0, v);
	return k;
}

/* aggs/tst.signedkeys.d: aggsortkey; integer keys compare unsigned, print by size. */
static void test_signed_keys(void **state)
{
	struct fake *f = fk_open(1);
	static const uint32_t sizes[] = { 1, 2, 4, 8 };

	f->dtp->core->opts.aggsortkey = true;
	for (int s = 0; s < 4; s++) {
		struct fk_agg *a = fk_new(f, "i", AGG_SUM);
		fk_key_int(a, sizes[s], true);
		for (int v = -2; v <= 2; v++) {
			struct fk_key k = key_int(a, v);
			fk_put(f, a, &k, v);
		}
	}
	char *out = fk_exit_print(f);
	assert_output(signedkeys_r, out);
	free(out);
	fk_close(f);
}

/* aggs/tst.signedkeyspos.d: aggsortkey, aggsortkeypos=1, aggsortrev (the ids too). */
static void test_signed_keys_pos_rev(void **state)
{
	struct fake *f = fk_open(1);
	static const uint32_t sizes[] = { 1, 2, 4, 8 };
	/* each aggregation's (name, multiplier) in the order the script adds them */
	static const char *const names[4][3] = {
		{ "cat", "dog", "mouse" }, { "mouse", "dog", "cat" },
		{ "mouse", "bear", "cat" }, { "cat", "bear", "dog" },
	};
	static const int mult[3] = { 1, 11, 111 };

	f->dtp->core->opts.aggsortkey = true;
	f->dtp->core->opts.aggsortkeypos = 1;
	f->dtp->core->opts.aggsortrev = true;
	for (int s = 0; s < 4; s++) {
		struct fk_agg *a = fk_new(f, "i", AGG_SUM);
		fk_key_str(a, STRSIZE);
		fk_key_int(a, sizes[s], true);
		for (int v = -2; v <= 2; v++)
			for (int n = 0; n < 3; n++) {
				struct fk_key k;
				memset(&k, 0, sizeof(k));
				kb_str(&k, a, 0, names[s][n]);
				kb_int(&k, a, 1, v);
				/* sum(v * 1, 11, 111) with 0 * x = 0, 10, 100 for v = 0 */
				fk_put(f, a, &k, v != 0 ? v * mult[n] : (n == 0 ? 0 : n == 1 ? 10 : 100));
			}
	}
	char *out = fk_exit_print(f);
	assert_output(signedkeyspos_r, out);
	free(out);
	fk_close(f);
}

/* aggs/tst.valsortkeypos.d: equal values sort by keys from aggsortkeypos. */
static void test_value_sort_keypos(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *a = fk_new(f, "_", AGG_SUM);

	f->dtp->core->opts.aggsortkeypos = 1;
	fk_key_int(a, 4, true);
	fk_key_int(a, 4, true);
	for (int i = 1; i <= 3; i++) {
		struct fk_key k;
		memset(&k, 0, sizeof(k));
		kb_int(&k, a, 0, i);
		kb_int(&k, a, 1, 4 - i);
		fk_put(f, a, &k, 0);
	}
	char *out = fk_exit_print(f);
	assert_output(valsortkeypos_r, out);
	free(out);
	fk_close(f);
}

/* aggs/tst.order.d: printa() with %d, %s, "%d %s" and %c keys. */
static void test_key_order(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *n = fk_new(f, "_", AGG_SUM), *tour = fk_new(f, "tour", AGG_SUM);
	struct fk_agg *ate = fk_new(f, "ate", AGG_SUM), *chars = fk_new(f, "chars", AGG_SUM);
	static const int nums[] = { 8, 6, 7, 5, 3, 0, 9 };
	static const char *const cities[] = { "Ghent", "Berlin", "London", "Dublin", "Shanghai",
					       "Zurich", "Regina", "Winnipeg", "Edmonton", "Calgary" };
	static const char *const food[] = { "Rice", "Oatmeal", "Barley", "Carrots", "Sweet potato",
					     "Asparagus", "Squash" };
	struct dt_strbuf sb;
	struct fk_key k;

	fk_key_int(n, 4, true);
	fk_key_str(tour, STRSIZE);
	fk_key_int(ate, 4, true);
	fk_key_str(ate, STRSIZE);
	fk_key_int(chars, 1, true);
	for (size_t i = 0; i < ARRAY_SIZE(nums); i++) {
		k = key_int(n, nums[i]);
		fk_put(f, n, &k, 1);
	}
	for (size_t i = 0; i < ARRAY_SIZE(cities); i++) {
		memset(&k, 0, sizeof(k));
		fk_put(f, tour, kb_str(&k, tour, 0, cities[i]), 1);
	}
	for (size_t i = 0; i < ARRAY_SIZE(food); i++) {
		memset(&k, 0, sizeof(k));
		kb_int(&k, ate, 0, 8);
		fk_put(f, ate, kb_str(&k, ate, 1, food[i]), 1);
	}
	for (const char *c = "asdf"; *c; c++) {
		k = key_int(chars, *c);
		fk_put(f, chars, &k, 1);
	}
	dt_sb_init(&sb);
	fk_printa1(f, &sb, "%d\n", n);
	dt_sb_puts(&sb, "\n");
	fk_printa1(f, &sb, "%s\n", tour);
	dt_sb_puts(&sb, "\n");
	fk_printa1(f, &sb, "%d %s\n", ate);
	dt_sb_puts(&sb, "\n");
	fk_printa1(f, &sb, "%c\n", chars);
	dt_sb_puts(&sb, "\n");
	char *rest = fk_exit_print(f);
	assert_string_equal(rest, "");	/* printa() printed them all */
	free(rest);
	assert_output(order_r, sb.s);
	dt_sb_free(&sb);
	fk_close(f);
}

/* multiaggs/tst.many.d: joined printa(), repeats, never-used aggregations, then exit. */
static void test_many_aggregations(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *q996 = fk_new(f, "agg996", AGG_QUANTIZE);
	struct fk_agg *c997 = fk_new(f, "agg997", AGG_COUNT);
	struct fk_agg *m998 = fk_new(f, "agg998", AGG_MIN);
	struct fk_agg *l999 = fk_new(f, "agg999", AGG_LQUANTIZE);
	struct fk_agg *agg[247];
	struct dt_strbuf sb;

	fk_key_int(q996, 4, true);
	fk_key_int(c997, 4, true);
	fk_key_int(m998, 4, true);
	fk_key_int(l999, 4, true);
	fk_lquant(f, l999, -10, 10, 1);
	for (int i = 0; i < 247; i++) {
		struct fk_key k;
		agg[i] = fk_new(f, "agg", AGG_SUM);
		fk_key_int(agg[i], 4, true);
		k = key_int(agg[i], i);
		fk_put(f, agg[i], &k, i);
	}
	const uint32_t a01[] = { agg[0]->ad.id, agg[1]->ad.id };
	const uint32_t a0q[] = { agg[0]->ad.id, q996->ad.id };
	const uint32_t a11[] = { agg[12]->ad.id, agg[3]->ad.id, agg[73]->ad.id, c997->ad.id,
				 agg[9]->ad.id, agg[9]->ad.id, agg[4]->ad.id, m998->ad.id,
				 agg[11]->ad.id, agg[23]->ad.id, agg[69]->ad.id };
	const uint32_t a245[] = { agg[245]->ad.id, agg[246]->ad.id };
	const uint32_t a999[] = { l999->ad.id, agg[246]->ad.id };

	dt_sb_init(&sb);
	fk_printa(f, &sb, "%8d %8@d %8@d\n", a01, 2);
	dt_sb_puts(&sb, "\n");
	fk_printa(f, &sb, "%8d %8@d %8@d\n", a0q, 2);
	dt_sb_puts(&sb, "\n");
	fk_printa(f, &sb, "%4d %4@d %4@d %4@d %4@d %4@d %4@d %4@d %4@d %4@d %4@d %4@d\n", a11, 11);
	dt_sb_puts(&sb, "\n");
	fk_printa(f, &sb, "%8d %8@d %8@d\n", a245, 2);
	dt_sb_puts(&sb, "\n");
	fk_printa(f, &sb, "%8d %8@d %8@d\n", a999, 2);
	dt_sb_puts(&sb, "\n");
	dt_sb_puts(&sb, "\n");		/* dtrace(1), before the exit print */
	char *rest = fk_exit_print(f);
	dt_sb_puts(&sb, rest);
	free(rest);
	assert_output(many_r, sb.s);
	dt_sb_free(&sb);
	fk_close(f);
}

/* multiaggs/tst.same.d: one aggregation three times, and %@ beyond the last. */
static void test_same_aggregation(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *a = fk_new(f, "_", AGG_SUM);
	const uint32_t ids[] = { 0, 0, 0 };
	struct dt_strbuf sb;

	fk_put(f, a, NULL, 90904);
	dt_sb_init(&sb);
	fk_printa(f, &sb, "%@d %@d %@d\n", ids, 3);
	fk_printa(f, &sb, "%@d %@d %@d\n", ids, 1);
	assert_output(same_r, sb.s);
	dt_sb_free(&sb);
	fk_close(f);
}

/* multiaggs/tst.sort.d: rows sort by the first aggregation's value, then the next. */
static void test_joined_sort(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *a[4];
	static const int div[4] = { 2, 4, 8, 16 };
	struct dt_strbuf sb;

	for (int n = 0; n < 4; n++) {
		a[n] = fk_new(f, "x", AGG_SUM);
		fk_key_int(a[n], 8, true);
	}
	for (int i = 1; i <= 100; i++)
		for (int n = 0; n < 4; n++) {
			struct fk_key k = key_int(a[n], i);
			fk_put(f, a[n], &k, 100 - (i / div[n]));
		}
	const uint32_t abcd[] = { 0, 1, 2, 3 }, dcba[] = { 3, 2, 1, 0 };
	dt_sb_init(&sb);
	fk_printa(f, &sb, "%10d %@10d %@10d %@10d %@10d\n", abcd, 4);
	fk_printa(f, &sb, "%10d %@10d %@10d %@10d %@10d\n", dcba, 4);
	assert_output(sort_r, sb.s);
	dt_sb_free(&sb);
	fk_close(f);
}

/* multiaggs/tst.sortpos.d: aggsortpos 0..9 over six arguments, three of them @a. */
static void test_joined_sortpos(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *a[4];
	static const int off[4] = { 0, 25, 50, 75 };
	struct dt_strbuf sb;

	for (int n = 0; n < 4; n++) {
		a[n] = fk_new(f, "x", AGG_SUM);
		fk_key_int(a[n], 8, true);
	}
	for (int i = 1; i <= 100; i++)
		for (int n = 0; n < 4; n++) {
			struct fk_key k = key_int(a[n], i);
			fk_put(f, a[n], &k, (off[n] + i) % (n ? 100 : 1000));
		}
	const uint32_t ids[] = { 0, 1, 2, 0, 3, 0 };
	dt_sb_init(&sb);
	for (int j = 0; j < 10; j++) {
		dt_sb_printf(&sb, "Sorted at position %d:\n", j);
		f->dtp->core->opts.aggsortpos = j;
		fk_printa(f, &sb, "%9d %@9d %@9d %@9d %@9d %@9d %@9d\n", ids, 6);
		dt_sb_puts(&sb, "\n");
	}
	assert_output(sortpos_r, sb.s);
	dt_sb_free(&sb);
	fk_close(f);
}

/* multiaggs/tst.tuplecompat.d: four keys, the format printing three. */
static void test_joined_tuple(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *one = fk_new(f, "one", AGG_SUM), *two = fk_new(f, "two", AGG_SUM);
	const uint32_t ids[] = { 0, 1 };
	struct dt_strbuf sb;

	for (int n = 0; n < 2; n++) {
		struct fk_agg *a = n ? two : one;
		struct fk_key k;

		fk_key_str(a, 128);
		fk_key_int(a, 4, true);
		fk_key_str(a, 128);
		fk_key_int(a, 8, false);	/* curthread */
		memset(&k, 0, sizeof(k));
		kb_str(&k, a, 0, "foo");
		kb_int(&k, a, 1, 789);
		kb_str(&k, a, 2, "bar");
		kb_int(&k, a, 3, 0xffff8880deadbeefLL);
		fk_put(f, a, &k, n ? 456 : 123);
	}
	dt_sb_init(&sb);
	fk_printa(f, &sb, "%10s %10d %10s %@10d %@10d\n", ids, 2);
	assert_output(tuplecompat_r, sb.s);
	dt_sb_free(&sb);
	fk_close(f);
}

/* ---- trunc() ---------------------------------------------------------------- */

/* @[i] = sum(i) for i < 100, then trunc(@, n) (aggs/tst.trunc.d, tst.negtrunc.d). */
static void test_trunc_sum(void **state)
{
	for (int neg = 0; neg < 2; neg++) {
		struct fake *f = fk_open(2);
		struct fk_agg *a = fk_new(f, "_", AGG_SUM);

		fk_key_int(a, 4, true);
		for (int i = 0; i < 100; i++) {
			struct fk_key k = key_int(a, i);
			fk_apply(f, a, &k, i % 2, i, 1);
		}
		assert_int_equal(dt_agg_trunc(f->dtp->cons, 0, neg ? -10 : 10), 0);
		assert_int_equal(a->n, 10);
		char *out = fk_exit_print(f);
		assert_output(neg ? negtrunc_r : trunc_r, out);
		free(out);
		fk_close(f);
	}
}

/* aggs/tst.truncquant.d: trunc(@, 5) of lquantize()s keeps the largest sums. */
static void test_trunc_lquantize(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *a = fk_new(f, "_", AGG_LQUANTIZE);

	fk_key_int(a, 4, true);
	fk_lquant(f, a, 0, 150, 1);
	for (int i = 0; i < 100; i++) {
		struct fk_key k = key_int(a, i);
		for (int d = 0; d < 4; d++)
			fk_put(f, a, &k, i + d);
	}
	assert_int_equal(dt_agg_trunc(f->dtp->cons, 0, 5), 0);
	char *out = fk_exit_print(f);
	assert_output(truncquant_r, out);
	free(out);
	fk_close(f);
}

/* aggs/tst.trunc-{sum,lquantize}-*.d: trunc(@[, n]), then a new key: the removed stay removed. */
static void test_trunc_then_add(void **state)
{
	static const struct { int func; int64_t n; const char *expect; } cases[] = {
		{ AGG_SUM, 5, trunc_sum_5_r },
		{ AGG_SUM, -5, trunc_sum_neg5_r },
		{ AGG_SUM, 0, trunc_sum_default_r },
		{ AGG_LQUANTIZE, 5, trunc_lquantize_5_r },
		{ AGG_LQUANTIZE, -5, trunc_lquantize_neg5_r },
	};

	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		struct fake *f = fk_open(1);
		struct fk_agg *a = fk_new(f, "_", cases[c].func);
		bool lq = cases[c].func == AGG_LQUANTIZE;
		struct fk_key k;

		fk_key_int(a, 4, true);
		if (lq)
			fk_lquant(f, a, 0, 150, 1);
		for (int i = 0; i < 100; i++) {
			k = key_int(a, 100 + i);
			if (!lq)
				fk_put(f, a, &k, 1000 + i);
			for (int d = 1; lq && d <= 4; d++)
				fk_apply(f, a, &k, 0, i + d, 10000 + i);
		}
		assert_int_equal(dt_agg_trunc(f->dtp->cons, 0, cases[c].n), 0);
		k = key_int(a, 301);
		if (!lq)
			fk_put(f, a, &k, 2101);
		for (int d = 1; lq && d <= 4; d++)
			fk_apply(f, a, &k, 0, 101 + d, 20101);
		char *out = fk_exit_print(f);
		assert_output(cases[c].expect, out);
		free(out);
		fk_close(f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signed_keys),
		cmocka_unit_test(test_signed_keys_pos_rev),
		cmocka_unit_test(test_value_sort_keypos),
		cmocka_unit_test(test_key_order),
		cmocka_unit_test(test_many_aggregations),
		cmocka_unit_test(test_same_aggregation),
		cmocka_unit_test(test_joined_sort),
		cmocka_unit_test(test_joined_sortpos),
		cmocka_unit_test(test_joined_tuple),
		cmocka_unit_test(test_trunc_sum),
		cmocka_unit_test(test_trunc_lquantize),
		cmocka_unit_test(test_trunc_then_add),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
