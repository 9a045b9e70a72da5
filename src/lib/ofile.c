/* Opening output files without following planted symbolic links (ofile.h). */
#include "lib/ofile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/dt_impl.h"

static bool trusted(uid_t uid)
{
	return uid == 0 || uid == getuid();
}

/* The last component is a symbolic link: follow it only if nobody else could have planted it. */
static int open_link(struct dtrace_hdl *dtp, const char *path, int oflags)
{
	char *copy = strdup(path);
	if (copy == NULL)
		return dt_set_error(dtp->core, -ENOMEM, "out of memory");
	char *slash = strrchr(copy, '/');
	const char *dir = ".", *base = copy;
	if (slash != NULL) {
		*slash = '\0';
		dir = slash == copy ? "/" : copy;
		base = slash + 1;
	}
	int rc, dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	struct stat ds, ls;
	if (dfd < 0 || fstat(dfd, &ds) < 0 || fstatat(dfd, base, &ls, AT_SYMLINK_NOFOLLOW) < 0) {
		rc = dt_set_error(dtp->core, -errno, "%s", strerror(errno));
	} else if (!S_ISLNK(ls.st_mode)) {
		rc = dt_set_error(dtp->core, -ELOOP, "%s", strerror(ELOOP));
	} else if (!trusted(ls.st_uid) || !trusted(ds.st_uid)) {
		rc = dt_set_error(dtp->core, -ELOOP, "not following symbolic link %s: it or its directory "
				  "belongs to another user (uid %u); name the file it points to",
				  path, (unsigned)(trusted(ls.st_uid) ? ds.st_uid : ls.st_uid));
	} else if ((ds.st_mode & (S_IWGRP | S_IWOTH)) && !(ds.st_mode & S_ISVTX)) {
		rc = dt_set_error(dtp->core, -ELOOP, "not following symbolic link %s: others can replace "
				  "it (its directory is writable and not sticky); name the file it "
				  "points to", path);
	} else {
		/* Relative to the directory checked: the same link, which no one else can swap. */
		rc = openat(dfd, base, oflags, 0666);
		if (rc < 0)
			rc = dt_set_error(dtp->core, -errno, "%s", strerror(errno));
	}
	if (dfd >= 0)
		close(dfd);
	free(copy);
	return rc;
}

int dt_open_output(struct dtrace_hdl *dtp, const char *path, bool append)
{
	int oflags = O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC);
	int fd = open(path, oflags | O_NOFOLLOW, 0666);

	if (fd >= 0)
		return fd;
	/* ELOOP: a symbolic link; or EACCES: another's link in a sticky directory. */
	int err = errno;
	struct stat ls;
	if ((err == ELOOP || err == EACCES) && lstat(path, &ls) == 0 && S_ISLNK(ls.st_mode))
		return open_link(dtp, path, oflags);
	return dt_set_error(dtp->core, -err, "%s", strerror(err));
}

int dtrace_open_output(dtrace_hdl_t *dtp, const char *path, int append)
{
	return dt_open_output(dtp, path, append != 0);
}
