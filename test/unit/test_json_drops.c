/*
 * Drops as JSON objects: every kind the library reports has its name
 * (the last, nested probe drops, included), and the CPU is given when
 * the drop is a CPU's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "consumer/json_rec.h"
#include "base/util.h"

static char *drop(dtrace_dropkind_t kind, int cpu)
{
	struct dt_strbuf sb;
	dtrace_dropdata_t dd = { .kind = kind, .cpu = cpu, .drops = 3, .tag = "T", .msg = "m" };

	dt_sb_init(&sb);
	dt_json_drop(&sb, &dd);
	return dt_sb_take(&sb);
}

static void test_kinds(void **state)
{
	static const char *const want[] = {
		"\"principal\"", "\"aggregation\"", "\"dynamic\"", "\"speculative\"",
		"\"speculation_busy\"", "\"speculation_unavailable\"", "\"nested\"",
	};

	(void)state;
	assert_int_equal(DTRACE_DROP_NESTED + 1, sizeof(want) / sizeof(want[0]));
	for (int k = DTRACE_DROP_PRINCIPAL; k <= DTRACE_DROP_NESTED; k++) {
		char *s = drop((dtrace_dropkind_t)k, -1);
		assert_non_null(strstr(s, want[k]));
		assert_null(strstr(s, "\"cpu\""));
		free(s);
	}
	char *s = drop(DTRACE_DROP_NESTED, 1);
	assert_string_equal(s, "{\"event\":\"drop\",\"kind\":\"nested\",\"cpu\":1,\"count\":3,"
			       "\"tag\":\"T\",\"message\":\"m\"}");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
