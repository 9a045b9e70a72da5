/* Replacing a file whole: write a new one, then rename (file_replace.h). */
#include "consumer/file_replace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fail(char *err, size_t errlen, const char *what, const char *tmp)
{
	int e = errno;

	snprintf(err, errlen, "%s: %s", what, strerror(e));
	if (tmp != NULL)
		unlink(tmp);
	return -1;
}

int dt_file_replace(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash != NULL ? (size_t)(slash - path) + 1 : 0;
	const char *base = path + dirlen;
	char *tmp = NULL;

	/* Hidden, and not ending as the file does: a textfile collector reads *.prom only. */
	if (asprintf(&tmp, "%.*s.%s.%ld.tmp", (int)dirlen, path, base, (long)getpid()) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	unlink(tmp);		/* one an earlier dtrace of this pid left behind */
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
	if (fd < 0) {
		fail(err, errlen, "cannot create a new file in its directory", NULL);
		free(tmp);
		return -1;
	}
	const char *p = data;
	size_t left = len;
	while (left > 0) {
		ssize_t n = write(fd, p, left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			close(fd);
			fail(err, errlen, "write", tmp);
			free(tmp);
			return -1;
		}
		p += n;
		left -= (size_t)n;
	}
	/* On disk before the name points to it: a crash leaves the old file or the new. */
	int synced = fsync(fd);
	if (close(fd) < 0 || synced < 0) {
		fail(err, errlen, "write", tmp);
		free(tmp);
		return -1;
	}
	if (rename(tmp, path) < 0) {
		fail(err, errlen, "rename", tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}
