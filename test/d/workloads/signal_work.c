/*
 * Processes ended by signals, and by exit() and exec() with threads still
 * running (which Linux ends with a SIGKILL of its own), one after the
 * other, each waited for, so that the signal-handle probes come in order:
 *   1. single-threaded, SIGTERM (default action: it dies)
 *   2. single-threaded, SIGKILL
 *   3. three threads, SIGINT sent to the process
 *   4. three threads, exit(3)
 *   5. three threads, exec() of this program with "done" (it exits 0)
 *   6. three threads, a thread other than main calls abort() (SIGABRT;
 *      not dumpable, so no core file)
 *   7. single-threaded, SIGUSR1 caught by a handler, then exit(0)
 *   8. single-threaded, SIGUSR2 blocked, sent to itself three times (the
 *      second and third find it pending), unblocked: caught once
 * Built static: the same on every machine.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static char *self;

static void *sleeper(void *arg)
{
	for (;;)
		pause();
	return arg;
}

static void *aborter(void *arg)
{
	abort();
	return arg;
}

static void threads(int n, void *(*fn)(void *))
{
	pthread_t t;

	for (int i = 0; i < n; i++)
		pthread_create(&t, NULL, fn, NULL);
}

static void caught(int sig)
{
	(void)sig;
}

/* A child that waits for its signal; `ready` says when it is waiting. */
static void killed(int nthreads, int sig)
{
	int p[2];
	char c;

	if (pipe(p) != 0)
		exit(1);
	pid_t pid = fork();
	if (pid == 0) {
		threads(nthreads, sleeper);
		if (write(p[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	if (read(p[0], &c, 1) != 1)
		exit(1);
	kill(pid, sig);
	waitpid(pid, NULL, 0);
	close(p[0]);
	close(p[1]);
}

static void child(int which)
{
	pid_t pid = fork();

	if (pid == 0) {
		switch (which) {
		case 4:
			threads(2, sleeper);
			exit(3);
		case 5:
			threads(2, sleeper);
			execl(self, self, "done", (char *)NULL);
			_exit(1);
		case 6:
			prctl(PR_SET_DUMPABLE, 0);
			threads(1, aborter);
			for (;;)
				pause();
		case 7:
			signal(SIGUSR1, caught);
			raise(SIGUSR1);
			exit(0);
		case 8: {
			sigset_t set;

			signal(SIGUSR2, caught);
			sigemptyset(&set);
			sigaddset(&set, SIGUSR2);
			sigprocmask(SIG_BLOCK, &set, NULL);
			for (int i = 0; i < 3; i++)
				kill(getpid(), SIGUSR2);
			sigprocmask(SIG_UNBLOCK, &set, NULL);
			exit(0);
		}
		}
		_exit(1);
	}
	waitpid(pid, NULL, 0);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "done") == 0)
		return 0;
	self = argv[0];
	killed(0, SIGTERM);
	killed(0, SIGKILL);
	killed(2, SIGINT);
	child(4);
	child(5);
	child(6);
	child(7);
	child(8);
	return 0;
}
