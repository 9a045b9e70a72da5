/*
 * cpc provider workload: page faults of known kinds and numbers.  It
 * touches each page of a fresh anonymous mapping from user mode (one
 * minor fault each: no huge pages), then has the kernel write into the
 * pages of another (read() from /dev/zero: one fault each, in the
 * kernel).
 *
 *   fault_pages USER KERNEL
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static char *fresh(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || madvise(p, len, MADV_NOHUGEPAGE) != 0)
		exit(1);
	return p;
}

int main(int argc, char **argv)
{
	long user = argc > 1 ? atol(argv[1]) : 1000, kernel = argc > 2 ? atol(argv[2]) : 1000;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	volatile char *u = fresh((size_t)user * pg);
	char *k = fresh((size_t)kernel * pg);
	int fd = open("/dev/zero", O_RDONLY);

	for (long i = 0; i < user; i++)
		u[(size_t)i * pg] = 1;
	for (long i = 0; i < kernel; i++)
		if (fd < 0 || read(fd, k + (size_t)i * pg, 1) != 1)
			return 1;
	return 0;
}
