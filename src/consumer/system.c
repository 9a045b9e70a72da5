/*
 * The system() action: the formatted command runs under /bin/sh with
 * dtrace's stdout, after what was printed so far has been flushed, and
 * the consumer waits for it as DTrace does.  With JSON output, what the
 * command writes is captured instead (it goes into the record's object).
 */
#include "consumer/consume.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/core.h"
#include "consumer/consumer.h"

int dt_run_system(struct dt_consumer *cs, const char *cmd)
{
	int status;

	if (cs->fp != NULL)
		fflush(cs->fp);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0)
		return dt_set_error(cs->core, errno, "system(): cannot fork: %s", strerror(errno));
	if (pid == 0) {
		/* The command writes where dtrace's output goes (-o). */
		if (cs->fp != NULL && fileno(cs->fp) != STDOUT_FILENO)
			dup2(fileno(cs->fp), STDOUT_FILENO);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return dt_set_error(cs->core, errno, "system(): %s", strerror(errno));
	}
	return 0;
}

int dt_run_system_capture(struct dt_consumer *cs, const char *cmd, struct dt_strbuf *out)
{
	int status, fds[2];
	char buf[4096];

	if (pipe2(fds, O_CLOEXEC) < 0)
		return dt_set_error(cs->core, errno, "system(): cannot make a pipe: %s", strerror(errno));
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return dt_set_error(cs->core, errno, "system(): cannot fork: %s", strerror(errno));
	}
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		ssize_t n = read(fds[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		dt_sb_putn(out, buf, (size_t)n);
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return dt_set_error(cs->core, errno, "system(): %s", strerror(errno));
	}
	return 0;
}
