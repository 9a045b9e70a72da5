/*
 * pid provider workload: N times (default 10), calls work(i, 2 * i) and
 * twice(i), its own functions, and the C library's getpid().  work() is
 * written in assembly so that its instructions are known: offset 0x3 is
 * the add, and it returns a + b.  With a second argument "wait", it first
 * reads a line from standard input (so that a -p test can attach first).
 * Built as a position-independent executable linked with libc.so.6.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

long work(long a, long b);
__asm__(".text\n"
	".globl work\n"
	".type work, @function\n"
	"work:\n"
	"\tmov %rdi, %rax\n"	/* 48 89 f8 */
	"\tadd %rsi, %rax\n"	/* 48 01 f0: offset 0x3 */
	"\tret\n"
	".size work, .-work\n");

__attribute__((noinline, noclone)) long twice(long x)
{
	__asm__ volatile("" : "+r"(x));
	return 2 * x;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10, sum = 0;
	char line[16];

	if (argc > 2 && strcmp(argv[2], "wait") == 0 && fgets(line, sizeof(line), stdin) == NULL)
		return 1;
	for (long i = 0; i < n; i++) {
		sum += work(i, 2 * i);
		sum += twice(i);
		sum += getpid() > 0;
	}
	return sum > 0 ? 0 : 1;
}
