/*
 * Files of every kind that fds[] names, each read once with a count of
 * 7777 (the test's predicate): a regular file (argv[1]), /proc/self/stat,
 * a pipe, a UNIX socket, an eventfd, a memfd, an unlinked file
 * (argv[2]), the same regular file at descriptor 100, and, after a
 * chroot to argv[3], the regular file again by its path there (argv[4]).
 * Before each read it prints the descriptor and what /proc/self/fd says
 * the file is (which the kernel also writes relative to the reader's
 * root), for the test to compare with fds[].fi_pathname.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#define COUNT 7777

static char buf[COUNT];
static int procfd;	/* /proc/self/fd, opened before the chroot */

static int show_and_read(int fd)
{
	char link[64], path[4096];
	ssize_t n;

	snprintf(link, sizeof(link), "%d", fd);
	n = readlinkat(procfd, link, path, sizeof(path) - 1);
	if (n < 0)
		return 1;
	path[n] = '\0';
	printf("fd %d %s\n", fd, path);
	fflush(stdout);
	(void)!read(fd, buf, COUNT);
	return 0;
}

int main(int argc, char **argv)
{
	int p[2], s[2], fd, err = 0;

	if (argc != 5)
		return 2;
	procfd = open("/proc/self/fd", O_RDONLY | O_DIRECTORY);
	if (procfd < 0)
		return 1;
	fd = open(argv[1], O_RDONLY);
	if (fd < 0)
		return 1;
	err |= show_and_read(fd);
	if (dup2(fd, 100) != 100)
		return 1;
	err |= show_and_read(100);
	close(fd);
	close(100);

	fd = open("/proc/self/stat", O_RDONLY);
	err |= fd < 0 || show_and_read(fd);
	close(fd);

	if (pipe(p) < 0 || write(p[1], "x", 1) != 1)
		return 1;
	err |= show_and_read(p[0]);

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, s) < 0 || write(s[1], "x", 1) != 1)
		return 1;
	err |= show_and_read(s[0]);

	fd = eventfd(1, 0);
	err |= fd < 0 || show_and_read(fd);

	fd = memfd_create("fds_work", 0);
	if (fd < 0 || write(fd, "x", 1) != 1 || lseek(fd, 0, SEEK_SET) != 0)
		return 1;
	err |= show_and_read(fd);

	fd = open(argv[2], O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || unlink(argv[2]) < 0)
		return 1;
	err |= show_and_read(fd);

	if (chroot(argv[3]) < 0 || chdir("/") < 0)
		return 1;
	fd = open(argv[4], O_RDONLY);
	err |= fd < 0 || show_and_read(fd);
	return err;
}
