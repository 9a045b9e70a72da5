/*
 * Two threads, one pinned to each of the first two CPUs, making system
 * calls whose number the tests know exactly (what they count must match).
 *
 *   syscall_threads count N    each thread: N getppid(), and close(100000 + i)
 *                              for i < N (EBADF: sum(arg0) is known)
 *   syscall_threads soak SECS  each thread, for SECS seconds: bursts of 64
 *                              getppid(), one close(-1) (fails) and one
 *                              close(dup(0)) (succeeds), 2 ms apart
 *
 * At the end it prints what it did ("getppid N", "badclose N", ...),
 * summed over both threads.  Built static: no dynamic loader's calls.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct work {
	int cpu;
	long n;			/* count: iterations; soak: seconds */
	int soak;
	long getppid, badclose, goodclose;
	long long fdsum;	/* count: the sum of close()'s arguments */
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *run(void *arg)
{
	struct work *w = arg;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);	/* best effort: one CPU each */
	if (!w->soak) {
		for (long i = 0; i < w->n; i++) {
			syscall(SYS_getppid);
			syscall(SYS_close, 100000 + i);
			w->fdsum += 100000 + i;
		}
		w->getppid = w->badclose = w->n;
		return NULL;
	}
	double end = now() + (double)w->n;
	struct timespec pause = { 0, 2000000 };
	while (now() < end) {
		for (int i = 0; i < 64; i++)
			syscall(SYS_getppid);
		w->getppid += 64;
		syscall(SYS_close, -1);
		w->badclose++;
		int fd = dup(0);
		if (fd >= 0 && syscall(SYS_close, fd) == 0)
			w->goodclose++;
		nanosleep(&pause, NULL);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct work w[2];
	pthread_t t[2];
	cpu_set_t all;
	/* Not sysconf(), which opens and closes a file: no close() but the counted ones. */
	long ncpu = sched_getaffinity(0, sizeof(all), &all) == 0 ? CPU_COUNT(&all) : 1;

	if (argc != 3 || (strcmp(argv[1], "count") != 0 && strcmp(argv[1], "soak") != 0)) {
		fprintf(stderr, "usage: syscall_threads count N | soak SECS\n");
		return 2;
	}
	for (int i = 0; i < 2; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].cpu = ncpu > 1 ? i : 0;
		w[i].n = atol(argv[2]);
		w[i].soak = strcmp(argv[1], "soak") == 0;
		if (pthread_create(&t[i], NULL, run, &w[i]) != 0)
			return 1;
	}
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("getppid %ld\nbadclose %ld\ngoodclose %ld\nfdsum %lld\n",
	       w[0].getppid + w[1].getppid, w[0].badclose + w[1].badclose,
	       w[0].goodclose + w[1].goodclose, w[0].fdsum + w[1].fdsum);
	printf("thread0 %ld\nthread1 %ld\n", w[0].getppid, w[1].getppid);
	return 0;
}
