/*
 * cpc probe names: <event>-<mode>-<count> with DTrace for Linux's event
 * names (libpfm's, lower case, '-' made '_'), its three modes, a count of
 * digits only; and the perf event each asks for.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <linux/perf_event.h>
#include <string.h>

#include "providers/cpc_events.h"

static void test_names(void **state)
{
	char buf[64];

	(void)state;
	assert_non_null(dt_cpc_event("cpu_clock"));
	assert_non_null(dt_cpc_event("perf_count_sw_cpu_clock"));
	assert_int_equal(dt_cpc_event("cs")->config, PERF_COUNT_SW_CONTEXT_SWITCHES);
	assert_int_equal(dt_cpc_event("branches")->config, PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
	assert_int_equal(dt_cpc_event("l1_dcache_load_misses")->type, PERF_TYPE_HW_CACHE);
	assert_int_equal(dt_cpc_event("l1_dcache_load_misses")->config,
			 PERF_COUNT_HW_CACHE_L1D | (PERF_COUNT_HW_CACHE_OP_READ << 8) |
				 (PERF_COUNT_HW_CACHE_RESULT_MISS << 16));
	/* A bare cache event: read misses, libpfm's default. */
	assert_int_equal(dt_cpc_event("perf_count_hw_cache_ll")->config,
			 PERF_COUNT_HW_CACHE_LL | (PERF_COUNT_HW_CACHE_RESULT_MISS << 16));
	/* Only the D names: not perf's spelling, not upper case. */
	assert_null(dt_cpc_event("cpu-clock"));
	assert_null(dt_cpc_event("CPU_CLOCK"));
	assert_null(dt_cpc_event("PAPI_tot_ins"));
	assert_string_equal(dt_cpc_dname(dt_cpc_event_at(0), buf, sizeof(buf)),
			    "perf_count_hw_cpu_cycles");
	/* Every D name is unique and has no '-' (the probe name's separator). */
	for (size_t i = 0; i < dt_cpc_nevents(); i++) {
		dt_cpc_dname(dt_cpc_event_at(i), buf, sizeof(buf));
		assert_null(strchr(buf, '-'));
		assert_ptr_equal(dt_cpc_event(buf), dt_cpc_event_at(i));
	}
}

static void test_parse(void **state)
{
	struct cpc_spec s;

	(void)state;
	assert_true(dt_cpc_parse("cpu_clock-all-1000000000", &s));
	assert_int_equal(s.mode, CPC_ALL);
	assert_int_equal(s.count, 1000000000);
	assert_true(dt_cpc_parse("page_faults-user-1", &s));
	assert_int_equal(s.mode, CPC_USER);
	assert_int_equal(s.count, 1);
	assert_true(dt_cpc_parse("instructions-kernel-18446744073709551615", &s));
	assert_int_equal(s.mode, CPC_KERNEL);
	assert_true(s.count == UINT64_MAX);
	/* Not probe names. */
	assert_false(dt_cpc_parse("cpu_clock-all-10000bonehead", &s));
	assert_false(dt_cpc_parse("cpu_clock-all-", &s));
	assert_false(dt_cpc_parse("cpu_clock-all", &s));
	assert_false(dt_cpc_parse("cpu_clock", &s));
	assert_false(dt_cpc_parse("cpu_clock-any-100", &s));
	assert_false(dt_cpc_parse("cpu_clock-All-100", &s));
	assert_false(dt_cpc_parse("cpu_clock-all-0", &s));
	assert_false(dt_cpc_parse("cpu_clock-all-18446744073709551616", &s));
	assert_false(dt_cpc_parse("cpu_clock-all--5", &s));
	assert_false(dt_cpc_parse("cpu_clock-all-+5", &s));
	/* Attributes between mode and count: not implemented in DTrace for Linux. */
	assert_false(dt_cpc_parse("l1_dcache_loads-all-umask_0x7-10000", &s));
	assert_false(dt_cpc_parse("nosuchevent-all-100", &s));
	assert_false(dt_cpc_parse("-all-100", &s));
	assert_false(dt_cpc_parse("", &s));
}

static void test_attr(void **state)
{
	struct cpc_spec s;
	struct perf_event_attr a;

	(void)state;
	assert_true(dt_cpc_parse("minor_faults-user-250", &s));
	dt_cpc_attr(&s, &a);
	assert_int_equal(a.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(a.config, PERF_COUNT_SW_PAGE_FAULTS_MIN);
	assert_int_equal(a.sample_period, 250);
	assert_int_equal(a.freq, 0);
	assert_int_equal(a.exclude_kernel, 1);
	assert_int_equal(a.exclude_user, 0);
	assert_true(dt_cpc_parse("cycles-kernel-5000", &s));
	dt_cpc_attr(&s, &a);
	assert_int_equal(a.type, PERF_TYPE_HARDWARE);
	assert_int_equal(a.exclude_kernel, 0);
	assert_int_equal(a.exclude_user, 1);
	assert_true(dt_cpc_parse("cycles-all-5000", &s));
	dt_cpc_attr(&s, &a);
	assert_int_equal(a.exclude_kernel, 0);
	assert_int_equal(a.exclude_user, 0);
	assert_string_equal(dt_cpc_kind(s.ev), "hardware");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_attr),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
