/*
 * What the compiler tells the output formats about an aggregation beyond
 * its layout (base/aggdesc.h): each key's name when every use names it
 * with the same variable (OpenMetrics and pprof labels), and whether every
 * use aggregates a time difference (pprof's nanoseconds).
 */
#include "front_helpers.h"

#include "base/aggdesc.h"
#include "base/descs.h"

static const struct dt_aggdesc *agg(dtrace_hdl_t *dtp, const char *name)
{
	for (size_t i = 0; i < dtp->descs->aggs.n; i++)
		if (strcmp(dtp->descs->aggs.v[i]->name, name) == 0)
			return dtp->descs->aggs.v[i];
	fail_msg("no aggregation @%s", name);
	return NULL;
}

static void assert_name(const struct dt_aggdesc *ad, int k, const char *want)
{
	assert_true(k < ad->nkeys);
	if (want == NULL)
		assert_null(ad->keys[k].name);
	else
		assert_string_equal(ad->keys[k].name, want);
}

static void test_key_names(void **state)
{
	dtrace_hdl_t *dtp = *state;

	assert_non_null(fe_check(dtp,
		"int g; inline int four = 4; self int x, y; this int z;\n"
		"BEGIN {\n"
		"	this->z = 1;\n"
		"	@a[execname, self->x, pid + 1, g, four, this->z] = count();\n"
		"	@a[execname, self->y, pid + 1, g, four, this->z] = count();\n"
		"	@b[probefunc, arg0] = count();\n"
		"}\n"));
	const struct dt_aggdesc *a = agg(dtp, "a");
	assert_name(a, 0, "execname");
	assert_name(a, 1, NULL);		/* self->x, then self->y */
	assert_name(a, 2, NULL);		/* an expression */
	assert_name(a, 3, "g");
	assert_name(a, 4, "four");
	assert_name(a, 5, "z");
	const struct dt_aggdesc *b = agg(dtp, "b");
	assert_name(b, 0, "probefunc");
	assert_name(b, 1, "arg0");
}

static void test_time_unit(void **state)
{
	dtrace_hdl_t *dtp = *state;

	assert_non_null(fe_check(dtp,
		"self uint64_t t;\n"
		"BEGIN {\n"
		"	@t = sum(timestamp - self->t);\n"
		"	@t = sum((int64_t)(vtimestamp - self->t));\n"
		"	@w = sum(walltimestamp - 5);\n"
		"	@mixed = sum(timestamp - self->t);\n"
		"	@mixed = sum(1);\n"
		"	@scaled = sum((timestamp - self->t) / 1000);\n"
		"	@plain = sum(timestamp);\n"
		"	@rev = sum(self->t - timestamp);\n"
		"	@c = count();\n"
		"}\n"));
	assert_true(agg(dtp, "t")->value_ns);
	assert_true(agg(dtp, "w")->value_ns);
	assert_false(agg(dtp, "mixed")->value_ns);
	assert_false(agg(dtp, "scaled")->value_ns);	/* microseconds */
	assert_false(agg(dtp, "plain")->value_ns);
	assert_false(agg(dtp, "rev")->value_ns);
	assert_false(agg(dtp, "c")->value_ns);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_key_names, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_time_unit, fe_setup, fe_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
