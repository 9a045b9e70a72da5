/*
 * sched provider workload: two threads, both on the CPU the process starts
 * on, pass a byte back and forth through two pipes N times, so that each
 * keeps blocking in read() and the CPU keeps switching between them; then
 * they exit and the main thread joins them.
 *
 *   pingpong N
 *
 * Built static: no dynamic loader's calls.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

static int ab[2], ba[2];
static long rounds;
static int first_one = 1;

static void *player(void *arg)
{
	int first = arg != NULL;
	char c = 'x';

	for (long i = 0; i < rounds; i++) {
		if (first && write(ab[1], &c, 1) != 1)
			return NULL;
		if (read(first ? ba[0] : ab[0], &c, 1) != 1)
			return NULL;
		if (!first && write(ba[1], &c, 1) != 1)
			return NULL;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int cpu = sched_getcpu();
	cpu_set_t set;
	pthread_t a, b;

	rounds = argc > 1 ? atol(argv[1]) : 100;
	CPU_ZERO(&set);
	CPU_SET(cpu < 0 ? 0 : cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0 || pipe(ab) != 0 || pipe(ba) != 0)
		return 1;
	/* The threads inherit the CPU. */
	if (pthread_create(&b, NULL, player, NULL) != 0 ||
	    pthread_create(&a, NULL, player, &first_one) != 0)
		return 1;
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
