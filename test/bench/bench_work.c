/* The benchmark's workload: N getppid(), read() of one byte, or openat() calls. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: bench_work getppid|read|openat N\n");
		return 2;
	}
	long n = atol(argv[2]);
	int fd = open("/dev/zero", O_RDONLY);
	char c;

	for (long i = 0; i < n; i++) {
		if (strcmp(argv[1], "getppid") == 0) {
			syscall(SYS_getppid);
		} else if (strcmp(argv[1], "read") == 0) {
			if (read(fd, &c, 1) != 1)
				return 1;
		} else {
			int f = openat(AT_FDCWD, "/dev/null", O_RDONLY);
			if (f >= 0)
				close(f);
		}
	}
	return 0;
}
