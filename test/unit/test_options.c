/*
 * Options as DTrace reads them: size and rate syntax, run-time flag words,
 * version strings, stability attributes, and the option table's rules
 * (compile-time flags take no value, options refused inside a program,
 * iregs, strsize, version ordering, printsize rounding).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/attr.h"
#include "base/options.h"
#include "base/optval.h"
#include "dtrace.h"
#include "lib/dt_impl.h"

static void test_size(void **state)
{
	int64_t v;

	(void)state;
	assert_int_equal(dt_optval_size("64", &v), 0);
	assert_int_equal(v, 64);
	assert_int_equal(dt_optval_size("4k", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(dt_optval_size("4K", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(dt_optval_size("2m", &v), 0);
	assert_int_equal(v, 2 << 20);
	assert_int_equal(dt_optval_size("1g", &v), 0);
	assert_int_equal(v, 1 << 30);
	assert_int_equal(dt_optval_size("1t", &v), 0);
	assert_int_equal(v, INT64_C(1) << 40);
	assert_int_equal(dt_optval_size("0x10k", &v), 0);
	assert_int_equal(v, 16 << 10);
	/* As DTrace: no value but the empty string is 0. */
	assert_int_equal(dt_optval_size("", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(dt_optval_size("-1", &v), -1);
	assert_int_equal(dt_optval_size("4kb", &v), -1);
	assert_int_equal(dt_optval_size("1q", &v), -1);
	/* A suffix alone is none of it (DTrace reads no digits, then the suffix). */
	assert_int_equal(dt_optval_size("k", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(dt_optval_size("99999999999999999999", &v), -1);
	assert_int_equal(dt_optval_size("8388608t", &v), -1);	/* beyond 2^63 */
}

static void test_rate(void **state)
{
	int64_t v;

	(void)state;
	assert_int_equal(dt_optval_rate("100", &v), 0);
	assert_int_equal(v, 100);
	assert_int_equal(dt_optval_rate("100ns", &v), 0);
	assert_int_equal(v, 100);
	assert_int_equal(dt_optval_rate("3us", &v), 0);
	assert_int_equal(v, 3000);
	assert_int_equal(dt_optval_rate("4500ms", &v), 0);
	assert_int_equal(v, INT64_C(4500000000));
	assert_int_equal(dt_optval_rate("2sec", &v), 0);
	assert_int_equal(v, INT64_C(2000000000));
	assert_int_equal(dt_optval_rate("1m", &v), 0);
	assert_int_equal(v, INT64_C(60000000000));
	assert_int_equal(dt_optval_rate("1hour", &v), 0);
	assert_int_equal(v, INT64_C(3600000000000));
	assert_int_equal(dt_optval_rate("1day", &v), 0);
	assert_int_equal(v, INT64_C(86400000000000));
	assert_int_equal(dt_optval_rate("10hz", &v), 0);
	assert_int_equal(v, 100000000);
	assert_int_equal(dt_optval_rate("3Hz", &v), 0);
	assert_int_equal(v, 333333333);
	assert_int_equal(dt_optval_rate("0hz", &v), 0);
	assert_int_equal(v, 0);
	/* A unit alone is none of it, as in DTrace. */
	assert_int_equal(dt_optval_rate("ms", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(dt_optval_rate("-1s", &v), -1);
	assert_int_equal(dt_optval_rate("5 s", &v), -1);
	assert_int_equal(dt_optval_rate("5fortnights", &v), -1);
	assert_int_equal(dt_optval_rate("9999999999d", &v), -1);
}

static void test_flag(void **state)
{
	int64_t v = -7;

	(void)state;
	assert_int_equal(dt_optval_flag(NULL, &v), 1);
	assert_int_equal(v, 0);
	assert_int_equal(dt_optval_flag("", &v), 0);
	assert_int_equal(dt_optval_flag("yes", &v), 1);
	assert_int_equal(v, 1);
	assert_int_equal(dt_optval_flag("Enabled", &v), 1);
	assert_int_equal(dt_optval_flag("ON", &v), 1);
	assert_int_equal(dt_optval_flag("no", &v), 0);
	assert_int_equal(dt_optval_flag("disable", &v), 0);
	assert_int_equal(dt_optval_flag("unset", &v), 0);
	assert_int_equal(dt_optval_flag("42", &v), 1);
	assert_int_equal(v, 42);
	assert_int_equal(dt_optval_flag("0x10", &v), 1);
	assert_int_equal(v, 16);
	assert_int_equal(dt_optval_flag("0", &v), 1);
	assert_int_equal(v, 0);
	assert_int_equal(dt_optval_flag("-1", &v), -1);
	assert_int_equal(dt_optval_flag("maybe", &v), -1);
	assert_int_equal(dt_optval_flag("3x", &v), -1);
}

static void test_version(void **state)
{
	uint32_t v;

	(void)state;
	assert_int_equal(dt_optval_version("2.0", &v), 0);
	assert_int_equal(v, DT_VERSION_NUMBER(2, 0, 0));
	assert_true(dt_version_defined(v));
	assert_int_equal(dt_optval_version("1.6.3", &v), 0);
	assert_true(dt_version_defined(v));
	assert_int_equal(dt_optval_version("2", &v), 0);
	assert_int_equal(v, DT_VERSION_NUMBER(2, 0, 0));
	assert_int_equal(dt_optval_version("1.7", &v), 0);
	assert_false(dt_version_defined(v));
	assert_int_equal(dt_optval_version("99.1", &v), 0);
	assert_false(dt_version_defined(v));
	assert_int_equal(dt_optval_version("1.2.3.4", &v), -1);
	assert_int_equal(dt_optval_version("1.x", &v), -1);
	assert_int_equal(dt_optval_version("256.0", &v), -1);
	assert_int_equal(dt_optval_version("1.4096", &v), -1);
}

static void test_attr(void **state)
{
	struct dt_attr a;

	(void)state;
	assert_int_equal(dt_str2attr("Evolving/Unstable/ISA", &a), 0);
	assert_string_equal(dt_stability_name(a.name), "Evolving");
	assert_string_equal(dt_stability_name(a.data), "Unstable");
	assert_string_equal(dt_class_name(a.cls), "ISA");
	assert_int_equal(dt_str2attr("stable", &a), 0);
	assert_string_equal(dt_stability_name(a.name), "Stable");
	assert_string_equal(dt_stability_name(a.data), "Standard");
	assert_string_equal(dt_class_name(a.cls), "Common");
	assert_int_equal(dt_str2attr("", &a), 0);
	assert_int_equal(dt_str2attr("Stable/Wobbly", &a), -1);
	assert_int_equal(dt_str2attr("Stable/Stable/Everywhere", &a), -1);
	assert_int_equal(dt_str2attr("Stable/Stable/Common/Extra", &a), -1);
}

static int open_hdl(void **state)
{
	int err;

	*state = dtrace_open(0, &err);
	return *state == NULL ? -1 : 0;
}

static int close_hdl(void **state)
{
	dtrace_close(*state);
	return 0;
}

static void assert_setopt(dtrace_hdl_t *dtp, const char *name, const char *val, int rc,
			  const char *msg)
{
	assert_int_equal(dtrace_setopt(dtp, name, val), rc);
	if (msg != NULL)
		assert_string_equal(dtrace_errmsg(dtp), msg);
}

static void test_table(void **state)
{
	dtrace_hdl_t *dtp = *state;
	int64_t v;

	assert_setopt(dtp, "nosuchoption", NULL, -ENOENT, "Invalid option name");
	/* Compile-time flags take no value at all. */
	assert_setopt(dtp, "zdefs", NULL, 0, NULL);
	assert_setopt(dtp, "zdefs", "1", -EINVAL, "Invalid value for specified option");
	assert_setopt(dtp, "errtags", "", -EINVAL, NULL);
	/* Run-time flags read DTrace's words; "no" and "" unset. */
	assert_setopt(dtp, "quiet", "yes", 0, NULL);
	assert_int_equal(dtrace_getopt(dtp, "quiet", &v), 0);
	assert_int_equal(v, 1);
	assert_setopt(dtp, "quiet", "no", 0, NULL);
	assert_int_equal(dtrace_getopt(dtp, "quiet", &v), 0);
	assert_int_equal(v, 0);
	/* Run-time integers: unset restores the default; no negatives. */
	assert_setopt(dtp, "cpu", "2", 0, NULL);
	assert_int_equal(dtrace_getopt(dtp, "cpu", &v), 0);
	assert_int_equal(v, 2);
	assert_setopt(dtp, "cpu", "", 0, NULL);
	assert_int_equal(dtrace_getopt(dtp, "cpu", &v), 0);
	assert_int_equal(v, -1);
	assert_setopt(dtp, "cpu", "-1", -EINVAL, NULL);
	/* iregs: DTrace's 8 registers, no more (invalid) and no fewer. */
	assert_setopt(dtp, "iregs", "9", -EINVAL, "Invalid value for specified option");
	assert_setopt(dtp, "iregs", "0", -EINVAL, NULL);
	assert_setopt(dtp, "iregs", "7", -ENOSPC, "Insufficient registers to generate code");
	assert_setopt(dtp, "iregs", "8", 0, NULL);
	/* Words. */
	assert_setopt(dtp, "linktype", "DOF", 0, NULL);
	assert_setopt(dtp, "linktype", "foo", -EINVAL, NULL);
	assert_setopt(dtp, "bufpolicy", "Ring", -EINVAL, NULL);
	assert_setopt(dtp, "stdc", "x", -EINVAL, NULL);
	assert_setopt(dtp, "evaltime", "main", 0, NULL);
	/* Sizes. */
	assert_setopt(dtp, "bufsize", "-1", -EINVAL, NULL);
	assert_setopt(dtp, "strsize", "1", -EINVAL, NULL);
	assert_setopt(dtp, "strsize", "2", 0, NULL);
	assert_setopt(dtp, "printsize", "5", 0, NULL);
	assert_int_equal(dtrace_getopt(dtp, "printsize", &v), 0);
	assert_int_equal(v, 8);
	assert_setopt(dtp, "printsize", "100000", 0, NULL);
	assert_int_equal(dtrace_getopt(dtp, "printsize", &v), 0);
	assert_int_equal(v, 8192);
	/* Versions only go down. */
	assert_setopt(dtp, "version", "1.2.3.4", -EINVAL,
		      "Version is not properly formatted or is too large");
	assert_setopt(dtp, "version", "3.0", -ENOTSUP,
		      "Requested version is not supported by compiler");
	assert_setopt(dtp, "version", "1.5", 0, NULL);
	assert_setopt(dtp, "version", "2.0", -EINVAL,
		      "Requested version conflicts with earlier setting");
	assert_setopt(dtp, "amin", "Evolving/Evolving/Common", 0, NULL);
	assert_setopt(dtp, "amin", "bogus", -EINVAL, NULL);
}

static void test_program_context(void **state)
{
	dtrace_hdl_t *dtp = *state;

	/* Options that matter before compiling are refused from a program... */
	assert_int_equal(dt_option_set_from(dtp->core, "cpppath", "/bin/cpp", true), -EINVAL);
	assert_string_equal(dtrace_errmsg(dtp), "Option cannot be used from within a D program");
	assert_int_equal(dt_option_set_from(dtp->core, "define", "X", true), -EINVAL);
	assert_int_equal(dt_option_set_from(dtp->core, "lockmem", "1", true), -EINVAL);
	/* ... after the value is checked, as DTrace checks it first. */
	assert_int_equal(dt_option_set_from(dtp->core, "ldpath", NULL, true), -EINVAL);
	assert_string_equal(dtrace_errmsg(dtp), "Invalid value for specified option");
	assert_int_equal(dt_option_set_from(dtp->core, "cpphdrs", "x", true), -EINVAL);
	assert_string_equal(dtrace_errmsg(dtp), "Invalid value for specified option");
	/* ... and accepted on the command line. */
	assert_int_equal(dt_option_set_from(dtp->core, "cpppath", "/bin/cpp", false), 0);
	assert_int_equal(dt_option_set_from(dtp->core, "cppargs", "-DA -DB", false), 0);
	assert_string_equal(dtp->core->opts.cppargs[dtp->core->opts.ncppargs - 1], "-DB");
	/* Other options are set from programs too. */
	assert_int_equal(dt_option_set_from(dtp->core, "libdir", "/tmp", true), 0);
	assert_int_equal(dt_option_set_from(dtp->core, "quiet", NULL, true), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size),
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_flag),
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_attr),
		cmocka_unit_test_setup_teardown(test_table, open_hdl, close_hdl),
		cmocka_unit_test_setup_teardown(test_program_context, open_hdl, close_hdl),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
