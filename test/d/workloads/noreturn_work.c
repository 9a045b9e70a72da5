/*
 * pid provider workload for return probes that must not exist: prints
 * its argument count and arguments (what a return probe on _start, the
 * ELF entry point, would change: it would take argc for a return address),
 * calls a function that returns, one that returns through a tail call
 * (no ret of its own), and ends in one that never returns.
 *
 *   noreturn_work ARGS...
 *
 * Built -O2 (finish() and main() have no ret; tail() ends in a jmp).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((noinline)) int twice(int x)
{
	return 2 * x + (int)getppid() * 0;
}

__attribute__((noinline)) int tail(int x)
{
	return twice(x + 1);
}

__attribute__((noinline, noreturn)) void finish(int code)
{
	printf("finish %d\n", code);
	fflush(stdout);
	_exit(code);
}

int main(int argc, char **argv)
{
	printf("argc %d:", argc);
	for (int i = 1; i < argc; i++)
		printf(" %s", argv[i]);
	printf("\ntwice %d tail %d\n", twice(argc), tail(argc));
	finish(argc - 1);
}
