/*
 * printa(), clear() and trunc() of one probe firing act on one snapshot
 * of each aggregation (agg_state.c), as DTrace's act on the consumer's
 * copy: keys that reach the maps meanwhile are neither printed nor
 * removed by that firing's actions, and the next firing (or the exit
 * print) sees them.  The source here adds a new key to the maps after
 * every read, the way a busy probe does between two actions.
 */
#include "agg_helpers.h"

static struct fake *F;
static struct fk_agg *A;
static int64_t next_key;

static void arrive(void)
{
	struct fk_key k = { { 0 } };

	kb_int(&k, A, 0, next_key);
	fk_put(F, A, &k, next_key);
	next_key++;
}

static int arriving_read(void *ctx, const struct dt_aggdesc *ad, struct dt_aggsnap *s)
{
	int rc = fk_read(ctx, ad, s);

	arrive();
	return rc;
}

/* @[k] = sum(k) for k = 1..n; every read of the maps lets one more key in. */
static struct fake *setup(int n, int func)
{
	struct dt_agg_source src;

	F = fk_open(2);
	A = fk_new(F, "_", func);
	fk_key_int(A, 8, true);
	next_key = 1;
	for (int i = 0; i < n; i++)
		arrive();
	src = (struct dt_agg_source){ .ctx = F, .read = arriving_read, .reset = fk_reset,
				      .remove = fk_remove };
	assert_int_equal(dt_agg_set_source(F->dtp->cons, &src), 0);
	return F;
}

static char *printa_text(const char *fmt)
{
	struct dt_strbuf sb;

	dt_sb_init(&sb);
	fk_printa1(F, &sb, fmt, A);
	char *s = strdup(sb.s ? sb.s : "");
	dt_sb_free(&sb);
	return s;
}

/* trunc(@, 5); printa(@); trunc(@): exactly the five kept, then none of them left. */
static void test_trunc_printa(void **state)
{
	(void)state;
	setup(10, AGG_SUM);
	dt_agg_firing(F->dtp->cons, 0, 7, 1000);
	assert_int_equal(dt_agg_trunc(F->dtp->cons, 0, 5), 0);
	char *out = printa_text("%d:%@d\n");
	assert_string_equal(out, "6:6\n7:7\n8:8\n9:9\n10:10\n");
	free(out);
	assert_int_equal(dt_agg_trunc(F->dtp->cons, 0, 0), 0);
	out = printa_text("%d:%@d\n");
	assert_string_equal(out, "");
	free(out);
	/* The key that came after the snapshot is still in the maps for the next firing. */
	assert_int_equal(A->n, 1);
	dt_agg_firing(F->dtp->cons, 0, 7, 2000);
	out = printa_text("%d:%@d\n");
	assert_string_equal(out, "11:11\n");
	free(out);
	fk_close(F);
}

/* trunc(@, -n) keeps the lowest; the records of one firing share the snapshot. */
static void test_trunc_lowest_two_records(void **state)
{
	(void)state;
	setup(8, AGG_SUM);
	dt_agg_firing(F->dtp->cons, 1, 3, 500);
	assert_int_equal(dt_agg_trunc(F->dtp->cons, 0, -3), 0);
	/* the next clause's record of the same firing */
	dt_agg_firing(F->dtp->cons, 1, 3, 500);
	char *out = printa_text("%d ");
	assert_string_equal(out, "1 2 3 ");
	free(out);
	/* the same probe on another CPU is another firing */
	dt_agg_firing(F->dtp->cons, 0, 3, 500);
	out = printa_text("%d ");
	assert_string_equal(out, "1 2 3 9 ");
	free(out);
	fk_close(F);
}

/* clear(@); printa(@): the snapshot's keys, with 0; keys that came later are kept, not lost. */
static void test_clear_printa(void **state)
{
	(void)state;
	setup(4, AGG_COUNT);
	dt_agg_firing(F->dtp->cons, 0, 9, 42);
	assert_int_equal(dt_agg_clear(F->dtp->cons, 0), 0);
	char *out = printa_text("%d:%@d\n");
	assert_string_equal(out, "1:0\n2:0\n3:0\n4:0\n");
	free(out);
	/* The next firing reads the maps as they are: the cleared keys and the newcomer. */
	dt_agg_firing(F->dtp->cons, 0, 9, 43);
	out = printa_text("%d:%@d\n");
	assert_string_equal(out, "1:0\n2:0\n3:0\n4:0\n5:1\n");
	free(out);

	fk_close(F);
}

/* The exit print reads the maps afresh: what trunc() kept and what came after it. */
static void test_exit_print_fresh(void **state)
{
	(void)state;
	setup(4, AGG_SUM);
	dt_agg_firing(F->dtp->cons, 2, 5, 77);
	assert_int_equal(dt_agg_trunc(F->dtp->cons, 0, 2), 0);
	char *out = fk_exit_print(F);
	assert_string_equal(out, "                3                3\n"
				 "                4                4\n"
				 "                5                5\n");
	free(out);
	fk_close(F);
}

/* printa(@a, @b) after trunc(@a, 2): @a's entries are the two kept, @b's the snapshot's. */
static void test_joined_after_trunc(void **state)
{
	struct fk_agg *b;
	uint32_t ids[2];

	(void)state;
	setup(4, AGG_SUM);
	b = fk_new(F, "b", AGG_SUM);
	fk_key_int(b, 8, true);
	for (int i = 1; i <= 2; i++) {
		struct fk_key k = { { 0 } };
		kb_int(&k, b, 0, i);
		fk_put(F, b, &k, 100 * i);
	}
	dt_agg_firing(F->dtp->cons, 0, 1, 1);
	assert_int_equal(dt_agg_trunc(F->dtp->cons, 0, 2), 0);
	ids[0] = A->ad.id;
	ids[1] = b->ad.id;
	struct dt_strbuf sb;
	dt_sb_init(&sb);
	fk_printa(F, &sb, "%d %@d %@d\n", ids, 2);
	assert_string_equal(sb.s, "1 0 100\n2 0 200\n3 3 0\n4 4 0\n");
	dt_sb_free(&sb);
	fk_close(F);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trunc_printa),
		cmocka_unit_test(test_trunc_lowest_two_records),
		cmocka_unit_test(test_clear_printa),
		cmocka_unit_test(test_joined_after_trunc),
		cmocka_unit_test(test_exit_print_fresh),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
