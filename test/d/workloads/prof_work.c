/*
 * Profile workload for the output formats: CPU-bound work of which
 * hot_spin() does nine parts in ten and cold_spin() one, called from
 * main() in rounds (argument: how many, default 100), so that a profile of
 * it has hot_spin() as its hottest function whatever the machine's speed
 * or load.  Frame pointers and no inlining: user stacks show
 * main -> hot_spin.
 */
#include <stdlib.h>

volatile unsigned long prof_sink;

__attribute__((noinline)) void hot_spin(void)
{
	for (int i = 0; i < 9000000; i++)
		prof_sink++;
}

__attribute__((noinline)) void cold_spin(void)
{
	for (int i = 0; i < 1000000; i++)
		prof_sink++;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 100;

	for (int r = 0; r < rounds; r++) {
		hot_spin();
		cold_spin();
	}
	return 0;
}
