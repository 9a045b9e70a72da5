/*
 * Speculation workload: pinned to the CPU it starts on (so that each
 * system call's entry and return run on one CPU, where DTrace frees a
 * committed or discarded speculation at once), it makes N getppid() and
 * then N getpgid(0), one after the other without pause.
 *
 *   spec_work N
 *
 * Built static: no dynamic loader's calls.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100;
	int cpu = sched_getcpu();
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu < 0 ? 0 : cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		return 1;
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	for (long i = 0; i < n; i++)
		syscall(SYS_getpgid, 0);
	return 0;
}
