/*
 * The system() action: the formatted command runs under /bin/sh with
 * dtrace's stdout, after what was printed so far has been flushed, and
 * the consumer waits for it as DTrace does.
 */
#include "consumer/consume.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/dt_impl.h"

int dt_run_system(struct dtrace_hdl *dtp, const char *cmd)
{
	int status;

	fflush(dtp->out);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0)
		return dt_set_error(dtp, errno, "system(): cannot fork: %s", strerror(errno));
	if (pid == 0) {
		/* The command writes where dtrace's output goes (-o). */
		if (fileno(dtp->out) != STDOUT_FILENO)
			dup2(fileno(dtp->out), STDOUT_FILENO);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return dt_set_error(dtp, errno, "system(): %s", strerror(errno));
	}
	return 0;
}
