/*
 * User symbols of a short-lived command that execs and loads a library
 * just before it exits.  Its frames are in assembly with frame pointers
 * (as in stack_work), so that they are known to the byte: the user PC at
 * the system call is inner+0xb, the return address outer+0x9; the
 * library's (usym_lib.c) are lib_inner+0xb and lib_outer+0x9.
 *   usym_late        outer() twice, then exec itself as "usym_late late"
 *   usym_late late   dlopen() libusym_lib.so (beside the executable), call
 *                    its lib_outer() three times and exit at once
 *   usym_late exec PROG ARGS...  outer() twice, then exec PROG
 *   usym_late fork   a child does the same as usym_late, but sleeps a second before its
 *                    exec and before its exit ("late-sleep"); the parent
 *                    waits for it and exits
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void outer(void);
__asm__(".text\n"
	".globl inner\n.type inner, @function\ninner:\n"
	"\tpush %rbp\n\tmov %rsp, %rbp\n"
	"\tmov $110, %eax\n"	/* __NR_getppid */
	"\tsyscall\n"		/* returns to 0xb */
	"\tpop %rbp\n\tret\n.size inner, .-inner\n"
	".globl outer\n.type outer, @function\nouter:\n"
	"\tpush %rbp\n\tmov %rsp, %rbp\n\tcall inner\n"	/* returns to 0x9 */
	"\tpop %rbp\n\tret\n.size outer, .-outer\n");

int main(int argc, char **argv)
{
	char self[PATH_MAX], lib[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0)
		return 1;
	self[n] = '\0';
	if (argc > 2 && strcmp(argv[1], "exec") == 0) {
		outer();
		outer();
		execv(argv[2], argv + 2);
		return 1;
	}
	bool fork_mode = argc > 1 && strcmp(argv[1], "fork") == 0;
	if (fork_mode) {
		pid_t child = fork();
		if (child > 0) {
			waitpid(child, NULL, 0);
			return 0;
		}
		if (child < 0)
			return 1;
	}
	if (argc < 2 || fork_mode) {
		outer();
		outer();
		if (fork_mode)
			sleep(1);
		execl(self, argv[0], fork_mode ? "late-sleep" : "late", (char *)NULL);
		return 1;
	}
	char *slash = strrchr(self, '/');
	*slash = '\0';
	snprintf(lib, sizeof(lib), "%s/libusym_lib.so", self);
	void *h = dlopen(lib, RTLD_NOW);
	void (*f)(void) = h != NULL ? (void (*)(void))dlsym(h, "lib_outer") : NULL;
	if (f == NULL)
		return 1;
	for (int i = 0; i < 3; i++)
		f();
	if (strcmp(argv[1], "late-sleep") == 0)
		sleep(1);
	_exit(0);
}
