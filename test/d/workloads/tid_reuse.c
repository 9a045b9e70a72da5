/*
 * tid_reuse: a thread ends and a new one gets its tid.
 *
 * A first child calls getppid() once and exits.  The parent then sets
 * the kernel's next pid (/proc/sys/kernel/ns_last_pid, as root) so that a
 * second child gets the first one's pid, and that child calls getppid()
 * once.  Other processes on the machine may take the pid first: it tries
 * again (up to 50 times), each time with a new first child.  Prints
 * "reused" when a second child got its predecessor's pid, else "not reused".
 * Built static: no dynamic loader's calls.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t child(void)
{
	pid_t p = fork();
	if (p == 0) {
		getppid();
		_exit(0);
	}
	if (p > 0)
		waitpid(p, NULL, 0);
	return p;
}

int main(void)
{
	for (int i = 0; i < 50; i++) {
		pid_t first = child();
		if (first <= 1)
			return 1;
		FILE *f = fopen("/proc/sys/kernel/ns_last_pid", "w");
		if (f == NULL)
			return 1;
		fprintf(f, "%d", first - 1);
		if (fclose(f) != 0)
			return 1;
		if (child() == first) {
			puts("reused");
			return 0;
		}
	}
	puts("not reused");
	return 0;
}
