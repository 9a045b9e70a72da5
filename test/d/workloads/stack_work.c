/*
 * Stack workload: outer() -> middle() -> inner(), which makes the getppid
 * system call itself.  The three are written in assembly with frame
 * pointers, so that their frames are known to the byte: the user PC at
 * the system call is inner+0xb, the return addresses middle+0x9 and
 * outer+0x9.  Modes:
 *   stack_work N [MS]  call outer() N times (default 3), then sleep MS
 *                      milliseconds (default 500) and exit
 *   stack_work fork [CMS]  a child calls outer() once, sleeps CMS
 *                      milliseconds (default 0) and exits; the parent
 *                      waits for it, sleeps a second and exits
 *   stack_work unlink  remove its own executable, then call outer() once
 *                      and exit at once
 *   stack_work entry   emid() once, then ecall_malloc() once: functions
 *                      whose entries differ in their first instruction,
 *                      for stacks at entry probes (below)
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

/*
 * Entry probes: emid() calls eleaf(), a leaf that sets up no frame (its
 * first instruction is a mov), then epush() (first instruction push %rbp)
 * and eendbr() (endbr64), which call eleaf() too.  The return addresses:
 * emid+0x9, emid+0xe, emid+0x13, epush+0x9, eendbr+0xd.  ecall_malloc()
 * calls malloc(100) (returns to ecall_malloc+0xe) and free().
 */
void emid(void);
void ecall_malloc(void);
__asm__(".text\n"
	".globl eleaf\n.type eleaf, @function\neleaf:\n"
	"\tmov %edi, %eax\n\tadd $1, %eax\n\tret\n.size eleaf, .-eleaf\n"
	".globl epush\n.type epush, @function\nepush:\n"
	"\tpush %rbp\n\tmov %rsp, %rbp\n\tcall eleaf\n"
	"\tpop %rbp\n\tret\n.size epush, .-epush\n"
	".globl eendbr\n.type eendbr, @function\neendbr:\n"
	"\t.byte 0xf3, 0x0f, 0x1e, 0xfa\n"	/* endbr64 */
	"\tpush %rbp\n\tmov %rsp, %rbp\n\tcall eleaf\n"
	"\tpop %rbp\n\tret\n.size eendbr, .-eendbr\n"
	".globl emid\n.type emid, @function\nemid:\n"
	"\tpush %rbp\n\tmov %rsp, %rbp\n\tcall eleaf\n\tcall epush\n\tcall eendbr\n"
	"\tpop %rbp\n\tret\n.size emid, .-emid\n"
	".globl ecall_malloc\n.type ecall_malloc, @function\necall_malloc:\n"
	"\tpush %rbp\n\tmov %rsp, %rbp\n\tmov $100, %edi\n\tcall malloc@PLT\n"
	"\tmov %rax, %rdi\n\tcall free@PLT\n"
	"\tpop %rbp\n\tret\n.size ecall_malloc, .-ecall_malloc\n");

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
			if (argc > 2)
				sleep_ms(atol(argv[2]));
			_exit(0);
		}
		waitpid(pid, NULL, 0);
		sleep_ms(1000);
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "unlink") == 0) {
		char self[4096];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (n <= 0)
			return 1;
		self[n] = '\0';
		if (unlink(self) < 0)
			return 1;
		outer();
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "entry") == 0) {
		emid();
		ecall_malloc();
		return 0;
	}
	long n = argc > 1 ? atol(argv[1]) : 3;
	for (long i = 0; i < n; i++)
		outer();
	sleep_ms(argc > 2 ? atol(argv[2]) : 500);
	return 0;
}
