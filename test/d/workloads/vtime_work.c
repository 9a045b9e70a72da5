/*
 * vtimestamp workload: spin() is CPU-bound (a loop of volatile additions,
 * called 200 times), nap() sleeps 2 ms (5 times): the first's vtimestamp
 * deltas are time on CPU, the second's a small part of its wall time.
 */
#include <time.h>

volatile unsigned long vtime_sink;

__attribute__((noinline)) void spin(void)
{
	for (int i = 0; i < 20000; i++)
		vtime_sink++;
}

__attribute__((noinline)) void nap(void)
{
	struct timespec ts = { 0, 2000000 };

	nanosleep(&ts, NULL);
}

int main(void)
{
	for (int i = 0; i < 200; i++)
		spin();
	for (int i = 0; i < 5; i++)
		nap();
	return 0;
}
