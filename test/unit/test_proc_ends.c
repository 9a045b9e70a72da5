/*
 * The -c/-p bookkeeping (base/proc.c) with real processes: the first -c
 * is $target even after a -p; every created command waits until it is
 * let go; each process's end is given once, in the order it was seen to
 * end, with the wait status for a created command and none for a grabbed
 * one; all have ended only when every one of them has; a command never
 * let go does not outlive dt_proc_release_all().
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/core.h"
#include "base/proc.h"
#include "unit_skip.h"

static struct dt_core core;
static struct dt_procs pc;

static int setup(void **state)
{
	(void)state;
	memset(&core, 0, sizeof(core));
	core.opts.evaltime = DT_EVAL_POSTINIT;
	memset(&pc, 0, sizeof(pc));
	pc.core = &core;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	dt_proc_release_all(&pc);
	dt_proc_fini(&pc);
	return 0;
}

static pid_t create(const char *script)
{
	char *argv[] = { "/bin/sh", "-c", (char *)script, NULL };
	pid_t pid = 0;

	if (dt_proc_create(&pc, argv, &pid) < 0)
		return -1;
	return pid;
}

/* Block until pid is a zombie, without reaping it: its end is then there to be seen. */
static void until_ended(pid_t pid)
{
	siginfo_t si;

	while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0 && errno == EINTR)
		;
}

static void ends_in_order(void **state)
{
	(void)state;
	/* A -p process (the test's own child, so that it can end it) before the -c ones. */
	pid_t grabbed = fork();
	assert_true(grabbed >= 0);
	if (grabbed == 0) {
		pause();
		_exit(0);
	}
	assert_int_equal(dt_proc_grab(&pc, grabbed), 0);
	assert_int_equal(pc.target_pid, grabbed);

	pid_t first = create("exit 3");
	if (first < 0) {
		kill(grabbed, SIGKILL);
		waitpid(grabbed, NULL, 0);
		unit_skip(core.errmsg);
	}
	pid_t second = create("kill -TERM $$");
	assert_true(second > 0);
	assert_int_equal(pc.target_pid, first);
	assert_int_equal(pc.children.n, 2);
	assert_true(dt_proc_child(&pc, first)->stopped && dt_proc_child(&pc, second)->stopped);

	/* Stopped: nothing ends until they are let go. */
	struct dt_proc_end e;
	dt_proc_poll(&pc);
	assert_false(dt_proc_next_end(&pc, &e));
	assert_false(dt_proc_all_ended(&pc));

	assert_int_equal(dt_proc_detach(&pc, second, false), 0);
	until_ended(second);
	dt_proc_poll(&pc);
	assert_true(dt_proc_next_end(&pc, &e));
	assert_int_equal(e.pid, second);
	assert_true(e.has_status && WIFSIGNALED(e.status) && WTERMSIG(e.status) == SIGTERM);
	assert_false(dt_proc_next_end(&pc, &e));
	assert_false(dt_proc_all_ended(&pc));
	int status = -1;
	assert_int_equal(dt_proc_status(&pc, &status), 0);

	assert_int_equal(dt_proc_detach(&pc, first, false), 0);
	until_ended(first);
	kill(grabbed, SIGKILL);
	waitpid(grabbed, NULL, 0);
	dt_proc_poll(&pc);
	dt_proc_poll(&pc);
	assert_true(dt_proc_next_end(&pc, &e));
	assert_int_equal(e.pid, first);
	assert_true(e.has_status && WIFEXITED(e.status) && WEXITSTATUS(e.status) == 3);
	assert_true(dt_proc_next_end(&pc, &e));
	assert_int_equal(e.pid, grabbed);
	assert_false(e.has_status);
	assert_false(dt_proc_next_end(&pc, &e));
	assert_true(dt_proc_all_ended(&pc));
	/* $target's status. */
	assert_int_equal(dt_proc_status(&pc, &status), 1);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 3);
}

static void never_let_go(void **state)
{
	(void)state;
	pid_t a = create("exit 0"), b;
	if (a < 0)
		unit_skip(core.errmsg);
	b = create("exit 0");
	assert_true(b > 0);
	assert_int_equal(dt_proc_detach(&pc, b, false), 0);
	dt_proc_release_all(&pc);
	/* Both gone and reaped: no such child left. */
	assert_int_equal(waitpid(a, NULL, WNOHANG), -1);
	assert_int_equal(waitpid(b, NULL, WNOHANG), -1);
	assert_int_equal(kill(a, 0), -1);
	/* Killed by us, not ended on their own: nothing to report. */
	struct dt_proc_end e;
	assert_false(dt_proc_next_end(&pc, &e));
}

static void no_processes(void **state)
{
	(void)state;
	/* Without -c or -p there is nothing to wait for: never "all ended". */
	dt_proc_poll(&pc);
	assert_false(dt_proc_all_ended(&pc));
	assert_int_equal(dt_proc_status(&pc, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(ends_in_order, setup, teardown),
		cmocka_unit_test_setup_teardown(never_let_go, setup, teardown),
		cmocka_unit_test_setup_teardown(no_processes, setup, teardown),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
