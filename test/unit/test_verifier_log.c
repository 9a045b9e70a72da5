/* Reading verifier logs: the D source line and the reason of a rejection. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "bpf/verifier_log.h"

/* The tail of a real log (kernel 6.18), rejecting an access in a clause. */
static const char log_clause[] =
	"; if (n >= nb || i >= nb) @ strsearch.bpf.c:166\n"
	"252: (3d) if r2 >= r8 goto pc+25      ; frame2: R2=7 R8=257 refs=5\n"
	"; printf(\"%d\\n\", x[i]); @ prog.d:12\n"
	"258: (71) r4 = *(u8 *)(r4 +0)\n"
	"invalid access to map value, value_size=8720 off=8720 size=1\n"
	"R4 max value is outside of the allowed memory range\n"
	"processed 5171 insns (limit 1000000) max_states_per_insn 4 total_states 82\n"
	"\n";

static void clause_line_and_reason(void **state)
{
	char pos[64], reason[128];

	(void)state;
	bo_verifier_log_parse(log_clause, "/home/me/prog.d", pos, sizeof(pos), reason,
			      sizeof(reason));
	assert_string_equal(pos, "prog.d:12");
	assert_string_equal(reason, "R4 max value is outside of the allowed memory range");
}

static void other_files_are_not_the_source(void **state)
{
	char pos[64], reason[128];

	(void)state;
	/* Only the run-time library's line: no D source position. */
	bo_verifier_log_parse("; x @ str.bpf.c:3\nBPF program is too large. Processed 1000001 insn\n",
			      "prog.d", pos, sizeof(pos), reason, sizeof(reason));
	assert_string_equal(pos, "");
	assert_string_equal(reason, "BPF program is too large. Processed 1000001 insn");
}

static void any_file_without_a_source_name(void **state)
{
	char pos[64], reason[128];

	(void)state;
	bo_verifier_log_parse(log_clause, NULL, pos, sizeof(pos), reason, sizeof(reason));
	assert_string_equal(pos, "prog.d:12");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(clause_line_and_reason),
		cmocka_unit_test(other_files_are_not_the_source),
		cmocka_unit_test(any_file_without_a_source_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
