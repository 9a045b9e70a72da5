/*
 * sched provider workload: how threads leave the CPU.
 *
 *   sched_states spin K   two threads on one CPU spin until one has seen
 *                         the other run K times: every switch between
 *                         them is a preemption (neither blocks)
 *   sched_states yield N  two threads on one CPU call sched_yield() N
 *                         times each
 *   sched_states states   a child sleeps (nanosleep), waits for a vfork()
 *                         child (uninterruptibly), stops (SIGSTOP) until
 *                         continued, stops traced (PTRACE_TRACEME, then
 *                         SIGSTOP) until detached, and exits
 *
 * Built static: no dynamic loader's calls.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long runs[2];
static long count;
static int ids[2] = { 0, 1 };

static volatile int done[2];

/*
 * Once one thread has seen the other run K times, the other has run
 * between K switches already; it stops too (it would wait forever to see
 * a thread that has ended run again).
 */
static void *spinner(void *arg)
{
	int me = *(int *)arg;
	unsigned long seen = runs[1 - me];

	for (long n = 0; n < count && !done[1 - me];) {
		runs[me]++;
		if (runs[1 - me] != seen) {
			seen = runs[1 - me];
			n++;
		}
	}
	done[me] = 1;
	return NULL;
}

static void *yielder(void *arg)
{
	(void)arg;
	for (long i = 0; i < count; i++)
		sched_yield();
	return NULL;
}

static int two_threads(void *(*fn)(void *))
{
	int cpu = sched_getcpu();
	cpu_set_t set;
	pthread_t t[2];

	CPU_ZERO(&set);
	CPU_SET(cpu < 0 ? 0 : cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		return 1;
	/* The threads inherit the CPU. */
	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, fn, &ids[i]) != 0)
			return 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return 0;
}

static void child(void)
{
	struct timespec ts = { 0, 1000000 };
	pid_t p;
	int st;

	nanosleep(&ts, NULL);
	p = vfork();
	if (p == 0)
		_exit(0);
	waitpid(p, &st, 0);
	raise(SIGSTOP);
	p = fork();
	if (p == 0) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGSTOP);
		_exit(0);
	}
	if (waitpid(p, &st, 0) == p && WIFSTOPPED(st))
		ptrace(PTRACE_DETACH, p, NULL, NULL);
	waitpid(p, &st, 0);
	_exit(0);
}

int main(int argc, char **argv)
{
	if (argc > 2 && strcmp(argv[1], "spin") == 0) {
		count = atol(argv[2]);
		return two_threads(spinner);
	}
	if (argc > 2 && strcmp(argv[1], "yield") == 0) {
		count = atol(argv[2]);
		return two_threads(yielder);
	}
	if (argc > 1 && strcmp(argv[1], "states") == 0) {
		pid_t p = fork();
		int st;

		if (p == 0)
			child();
		if (waitpid(p, &st, WUNTRACED) == p && WIFSTOPPED(st))
			kill(p, SIGCONT);
		waitpid(p, &st, 0);
		return 0;
	}
	return 2;
}
