/*
 * Stack workload: outer() -> middle() -> inner(), which makes the getppid
 * system call itself.  The three are written in assembly with frame
 * pointers, so that their frames are known to the byte: the user PC at
 * the system call is inner+0xb, the return addresses middle+0x9 and
 * outer+0x9.  Modes:
 *   stack_work N [MS]  call outer() N times (default 3), then sleep MS
 *                      milliseconds (default 500) and exit
 *   stack_work fork    a child calls outer() once and exits at once; the
 *                      parent waits for it, sleeps a second and exits
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void outer(void);
__asm__(".text\n"
	".globl inner\n.type inner, @function\ninner:\n"
	"\tpush %rbp\n\tmov %rsp, %rbp\n"
	"\tmov $110, %eax\n"	/* __NR_getppid */
	"\tsyscall\n"		/* offset 0x9; returns to 0xb */
	"\tpop %rbp\n\tret\n.size inner, .-inner\n"
	".globl middle\n.type middle, @function\nmiddle:\n"
	"\tpush %rbp\n\tmov %rsp, %rbp\n\tcall inner\n"	/* returns to 0x9 */
	"\tpop %rbp\n\tret\n.size middle, .-middle\n"
	".globl outer\n.type outer, @function\nouter:\n"
	"\tpush %rbp\n\tmov %rsp, %rbp\n\tcall middle\n"	/* returns to 0x9 */
	"\tpop %rbp\n\tret\n.size outer, .-outer\n");

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "fork") == 0) {
		pid_t pid = fork();
		if (pid == 0) {
			outer();
			_exit(0);
		}
		waitpid(pid, NULL, 0);
		sleep_ms(1000);
		return 0;
	}
	long n = argc > 1 ? atol(argv[1]) : 3;
	for (long i = 0; i < n; i++)
		outer();
	sleep_ms(argc > 2 ? atol(argv[2]) : 500);
	return 0;
}
