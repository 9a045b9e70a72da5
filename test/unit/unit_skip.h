/*
 * A case that cannot run here (not root: no BPF maps or programs) is
 * skipped with its reason, and the test program then exits 77, which ctest
 * shows as a skip (SKIP_RETURN_CODE), never as a pass.  With DT_NO_SKIP
 * set (CI, as root) such a case fails instead.  Include after <cmocka.h>.
 */
#ifndef TEST_UNIT_SKIP_H
#define TEST_UNIT_SKIP_H

#include <stdlib.h>

static int unit_skips;

#define unit_skip(why) do {							\
	const char *strict_ = getenv("DT_NO_SKIP");				\
	if (strict_ != NULL && *strict_ != '\0')				\
		fail_msg("skipped, and DT_NO_SKIP is set: %s", (why));		\
	print_message("skipped: %s\n", (why));					\
	unit_skips++;								\
	skip();									\
} while (0)

/* main()'s exit status from cmocka_run_group_tests()'s count of failures. */
static inline int unit_status(int failed)
{
	return failed ? 1 : unit_skips ? 77 : 0;
}

#endif
