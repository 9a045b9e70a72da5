/*
 * freopen() and ftruncate(): the consumer acts when it reaches the record,
 * so they take effect between the output of the records before and after
 * them, as in DTrace.
 *
 * freopen(fmt, ...) sends the output (stdout or the -o file) to the file
 * the format names, appending to it and creating it if need be, until the
 * next freopen(); freopen("") sends it back where it went at the start.
 * The handle's output stream keeps its identity (the new file is dup2()'d
 * onto its descriptor), so what is printed after tracing stops, such as
 * the aggregations, goes to the file chosen last, as in DTrace.
 *
 * Opening files as dtrace (often root) on behalf of a script whose file
 * names may come from traced data:
 *   - the file is opened with dtrace's credentials, relative to its
 *     current directory, mode 0666 less the umask, O_APPEND, never truncated;
 *   - a symbolic link as the file itself is never followed (O_NOFOLLOW), so
 *     a link planted under the name in a shared directory cannot redirect
 *     the output;
 *   - the directory named by the format's literal text (before its first
 *     conversion) is resolved as usual; what the conversions add (from
 *     traced data) may not follow any symbolic link nor leave that
 *     directory with ".." (openat2() with RESOLVE_NO_SYMLINKS and
 *     RESOLVE_BENEATH; on kernels without openat2() that part may not
 *     contain a '/').
 * A failure is reported as DTrace reports it and the output stays where
 * it was.
 */
#include "consumer/freopen.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/abi.h"
#include "base/core.h"
#include "consumer/consumer.h"
#include "consumer/report.h"

#define OFLAGS (O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW)

/* Open `rest` beneath the directory fd without following symbolic links. */
static int open_beneath(int dfd, const char *rest)
{
	struct open_how how = {
		.flags = OFLAGS,
		.mode = 0666,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};
	int fd = (int)syscall(SYS_openat2, dfd, rest, &how, sizeof(how));

	if (fd >= 0 || errno != ENOSYS)
		return fd;
	/* No openat2(): one plain name in that directory, or nothing. */
	if (strchr(rest, '/') != NULL || strcmp(rest, "..") == 0) {
		errno = EXDEV;
		return -1;
	}
	return openat(dfd, rest, OFLAGS, 0666);
}

/* The file descriptor for name (formatted from fmt), or -1 with errno. */
static int open_output(const char *fmt, const char *name)
{
	size_t lit = strcspn(fmt, "%");

	if (fmt[lit] == '\0' || strncmp(fmt, name, lit) != 0)
		return open(name, OFLAGS, 0666);
	/* The directory part of the literal text, then the rest. */
	size_t dirlen = 0;
	for (size_t i = 0; i < lit; i++)
		if (name[i] == '/')
			dirlen = i + 1;
	char *dir = dirlen ? strndup(name, dirlen) : strdup(".");
	if (dir == NULL)
		return -1;
	int dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (dfd < 0)
		return -1;
	int fd = open_beneath(dfd, name + dirlen);
	int err = errno;
	close(dfd);
	errno = err;
	return fd;
}

static const char *why(int err)
{
	switch (err) {
	case ELOOP:
		return "symbolic links are not followed";
	case EXDEV:
		return "the name leads out of the directory the script names";
	default:
		return strerror(err);
	}
}

void dt_freopen(struct dt_consumer *cs, const void *rec, const char *fmt, const char *name)
{
	if (cs->fp == NULL)
		return;
	fflush(cs->fp);
	int ofd = fileno(cs->fp);
	if (ofd < 0)
		return;
	if (fmt[0] == '\0') {
		/* freopen(""): back to the original output. */
		if (cs->out_saved > 0 && dup2(cs->out_saved - 1, ofd) < 0)
			dt_report_liberr(cs, rec, "couldn't restore the output: %s",
					 strerror(errno));
		return;
	}
	int fd = open_output(fmt, name);
	if (fd < 0) {
		dt_report_liberr(cs, rec, "couldn't freopen() \"%s\": %s", name, why(errno));
		return;
	}
	if (cs->out_saved == 0) {
		int saved = fcntl(ofd, F_DUPFD_CLOEXEC, 3);
		if (saved < 0) {
			dt_report_liberr(cs, rec, "couldn't freopen() \"%s\": %s", name,
					 strerror(errno));
			close(fd);
			return;
		}
		cs->out_saved = saved + 1;
	}
	if (dup2(fd, ofd) < 0)
		dt_report_liberr(cs, rec, "couldn't freopen() \"%s\": %s", name, strerror(errno));
	close(fd);
}

void dt_ftruncate(struct dt_consumer *cs)
{
	if (cs->fp == NULL)
		return;
	fflush(cs->fp);
	/* A terminal or a pipe cannot be truncated: nothing happens, as in DTrace. */
	if (ftruncate(fileno(cs->fp), 0) == 0)
		rewind(cs->fp);
	clearerr(cs->fp);
}

void dt_freopen_fini(struct dt_consumer *cs)
{
	if (cs->out_saved > 0)
		close(cs->out_saved - 1);
	cs->out_saved = 0;
}
