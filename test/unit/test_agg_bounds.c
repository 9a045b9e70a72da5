/*
 * Histogram bucket bounds for structured output: each bucket's [min, max]
 * must be exactly the values the bucketing (llquant.h, shared with the BPF
 * side) puts in it, buckets must tile the 64-bit range in order, and
 * llquantize's ghost buckets hold nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/quant.h"
#include "compiler/ident.h"
#include "consumer/agg_impl.h"

static uint32_t bucket_of(const struct dt_aggdesc *ad, int64_t v)
{
	switch (ad->func) {
	case AGG_QUANTIZE:
		return dt_quantize_bucket(v);
	case AGG_LQUANTIZE:
		return dt_lquantize_bucket(v, ad->lq_base, ad->lq_levels, (unsigned)ad->lq_step);
	default:
		return dt_llquantize_bucket_of(v, ad->llq_factor, ad->llq_lmag, ad->llq_hmag,
					       ad->llq_steps);
	}
}

/* Every non-ghost bucket: its ends map to it, the buckets tile [INT64_MIN, INT64_MAX]. */
static void check_tiling(const struct dt_aggdesc *ad)
{
	uint32_t n = dt_agg_nbuckets(ad);
	int64_t prev_max = 0;
	bool first = true;

	assert_true(n > 0);
	for (uint32_t b = 0; b < n; b++) {
		int64_t lo, hi;

		if (!dt_agg_bucket_bounds(ad, b, &lo, &hi))
			continue;
		if (lo > hi)
			fail_msg("func %d bucket %u: [%lld, %lld]", ad->func, b, (long long)lo, (long long)hi);
		if (bucket_of(ad, lo) != b || bucket_of(ad, hi) != b)
			fail_msg("func %d bucket %u [%lld, %lld] maps to %u, %u", ad->func, b,
				 (long long)lo, (long long)hi, bucket_of(ad, lo), bucket_of(ad, hi));
		if (first)
			assert_true(lo == INT64_MIN);
		else if (lo != prev_max + 1)
			fail_msg("func %d bucket %u starts at %lld, previous ended at %lld", ad->func,
				 b, (long long)lo, (long long)prev_max);
		/* a value in the middle too */
		assert_int_equal(bucket_of(ad, (int64_t)((uint64_t)lo + ((uint64_t)hi - (uint64_t)lo) / 2)), b);
		prev_max = hi;
		first = false;
	}
	if (prev_max != INT64_MAX)
		fail_msg("func %d: the last bucket ends at %lld", ad->func, (long long)prev_max);
	assert_false(dt_agg_bucket_bounds(ad, n, &prev_max, &prev_max));
}

static void test_quantize(void **state)
{
	struct dt_aggdesc ad = { .func = AGG_QUANTIZE };
	int64_t lo, hi;

	(void)state;
	check_tiling(&ad);
	assert_true(dt_agg_bucket_bounds(&ad, DT_QUANTIZE_ZERO, &lo, &hi));
	assert_true(lo == 0 && hi == 0);
	assert_true(dt_agg_bucket_bounds(&ad, DT_QUANTIZE_ZERO + 3, &lo, &hi));
	assert_true(lo == 4 && hi == 7);
	assert_true(dt_agg_bucket_bounds(&ad, DT_QUANTIZE_ZERO - 1, &lo, &hi));
	assert_true(lo == -1 && hi == -1);
}

static void test_lquantize(void **state)
{
	static const int64_t params[][3] = {	/* base, step, levels */
		{ 0, 10, 10 }, { -100, 7, 30 }, { 5, 1, 1 }, { -2147483647, 65535, 1000 },
	};
	int64_t lo, hi;

	(void)state;
	for (size_t i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
		struct dt_aggdesc ad = { .func = AGG_LQUANTIZE, .lq_base = params[i][0],
					 .lq_step = params[i][1],
					 .lq_levels = (uint32_t)params[i][2] };
		check_tiling(&ad);
	}
	struct dt_aggdesc ad = { .func = AGG_LQUANTIZE, .lq_base = 0, .lq_step = 10, .lq_levels = 10 };
	assert_true(dt_agg_bucket_bounds(&ad, 0, &lo, &hi));
	assert_true(lo == INT64_MIN && hi == -1);
	assert_true(dt_agg_bucket_bounds(&ad, 3, &lo, &hi));
	assert_true(lo == 20 && hi == 29);
	assert_true(dt_agg_bucket_bounds(&ad, 11, &lo, &hi));
	assert_true(lo == 100 && hi == INT64_MAX);
}

static void test_llquantize(void **state)
{
	static const uint16_t params[][4] = {	/* factor, lmag, hmag, steps */
		{ 10, 0, 6, 20 }, { 10, 1, 3, 10 }, { 2, 0, 10, 2 }, { 10, 0, 2, 5 },
		{ 10, 2, 4, 100 }, { 3, 0, 5, 9 }, { 10, 0, 18, 10 }, { 4, 1, 8, 16 },
		{ 2, 0, 62, 4 }, { 10, 0, 0, 10 },
	};
	int ghosts = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
		struct dt_aggdesc ad = { .func = AGG_LLQUANTIZE, .llq_factor = params[i][0],
					 .llq_lmag = params[i][1], .llq_hmag = params[i][2],
					 .llq_steps = params[i][3] };
		check_tiling(&ad);
		/* ghost buckets: no small value lands there */
		uint32_t n = dt_agg_nbuckets(&ad);
		for (uint32_t b = 0; b < n; b++) {
			int64_t lo, hi;
			if (dt_agg_bucket_bounds(&ad, b, &lo, &hi))
				continue;
			ghosts++;
			for (int64_t v = -100000; v <= 100000; v++)
				assert_int_not_equal(bucket_of(&ad, v), b);
		}
	}
	assert_true(ghosts > 0);	/* factor 10, steps 20 with lmag 0 has them */

	/* llquantize(v, 10, 0, 6, 20): 0, then 1, 2 ... 9, then 10-14 ... */
	struct dt_aggdesc ad = { .func = AGG_LLQUANTIZE, .llq_factor = 10, .llq_lmag = 0,
				 .llq_hmag = 6, .llq_steps = 20 };
	int64_t lo, hi;
	uint32_t b = bucket_of(&ad, 10);
	assert_true(dt_agg_bucket_bounds(&ad, b, &lo, &hi));
	assert_true(lo == 10 && hi == 14);
	b = bucket_of(&ad, 0);
	assert_true(dt_agg_bucket_bounds(&ad, b, &lo, &hi));
	assert_true(lo == 0 && hi == 0);
	b = bucket_of(&ad, -3);
	assert_true(dt_agg_bucket_bounds(&ad, b, &lo, &hi));
	assert_true(lo == -3 && hi == -3);
}

static void test_not_histogram(void **state)
{
	struct dt_aggdesc ad = { .func = AGG_COUNT };
	int64_t lo, hi;

	(void)state;
	assert_int_equal(dt_agg_nbuckets(&ad), 0);
	assert_false(dt_agg_bucket_bounds(&ad, 0, &lo, &hi));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quantize),
		cmocka_unit_test(test_lquantize),
		cmocka_unit_test(test_llquantize),
		cmocka_unit_test(test_not_histogram),
	};

	return cmocka_run_group_tests_name("agg_bounds", tests, NULL, NULL);
}
