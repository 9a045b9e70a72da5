/* -C: the source goes through cpp(1); its line markers keep line numbers. */
#include "compiler/cpp.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/core.h"
#include "compiler/compiler.h"

/*
 * What DTrace passes cpp before the user's -D/-U/-I/-H arguments: it keeps
 * cpp's own predefined macros (__x86_64__, __STDC__ ...) except __GNUC__.
 */
static const char *const predefs[] = {
	"-D__linux", "-D__unix", "-D__SVR4", "-D__SUNW_D=1", "-U__GNUC__", "-D__SUNW_D_64",
	"-D__Linux",
};

int dt_cpp_run(struct dt_compiler *cc, const char *src, size_t len, const char *filename,
	       char **outp, size_t *outlenp)
{
	const char *cpp = cc->core->opts.cpppath ? cc->core->opts.cpppath : "cpp";
	int in[2], out[2];
	size_t nargv = ARRAY_SIZE(predefs) + (size_t)cc->core->opts.ncppargs + 8;
	const char **argv = calloc(nargv, sizeof(*argv));
	char verdef[40];
	size_t n = 0;

	if (argv == NULL)
		return dt_set_error(cc->core, -ENOMEM, "out of memory");
	/* As DTrace: argv[0] is the program's base name. */
	const char *base = strrchr(cpp, '/');
	argv[n++] = base != NULL ? base + 1 : cpp;
	for (size_t i = 0; i < ARRAY_SIZE(predefs); i++)
		argv[n++] = predefs[i];
	for (int i = 0; i < cc->core->opts.ncppargs; i++)
		argv[n++] = cc->core->opts.cppargs[i];
	snprintf(verdef, sizeof(verdef), "-D__SUNW_D_VERSION=0x%08x", (unsigned)cc->core->opts.vmax);
	argv[n++] = verdef;
	/* -Xa/-Xc/-Xt (the default) are ISO C; -Xs is K&R C, without __STDC__. */
	argv[n++] = cc->core->opts.stdc == DT_STDC_XS ? "-traditional-cpp" : "-std=c99";
	/* Line-only positions in cpp's messages, as DTrace's report them. */
	argv[n++] = "-fno-show-column";
	/* As DTrace: the program is /dev/stdin to cpp, and its messages say so. */
	argv[n++] = "/dev/stdin";
	argv[n] = NULL;
	/* An interpreter line ("#!/usr/sbin/dtrace -s") is not for cpp; its newline keeps line numbers. */
	if (len >= 2 && src[0] == '#' && src[1] == '!') {
		const char *nl = memchr(src, '\n', len);
		size_t skip = nl != NULL ? (size_t)(nl - src) : len;
		src += skip;
		len -= skip;
	}
	dt_dprintf(cc->core, "running %s with %zu arguments\n", cpp, n - 1);

	if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0) {
		free(argv);
		return dt_set_error(cc->core, -errno, "failed to run cpp: %s", strerror(errno));
	}
	pid_t pid = fork();
	if (pid < 0) {
		int err = errno;
		close(in[0]), close(in[1]), close(out[0]), close(out[1]);
		free(argv);
		return dt_set_error(cc->core, -err, "failed to run cpp: %s", strerror(err));
	}
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		execvp(cpp, (char *const *)argv);
		_exit(errno == ENOENT ? 127 : 126);
	}
	free(argv);
	close(in[0]);
	close(out[1]);

	/* Feed the source while reading the output. */
	struct dt_strbuf feed, res;
	dt_sb_init(&feed);
	dt_sb_init(&res);
	(void)filename;
	dt_sb_putn(&feed, src, len);
	size_t fed = 0;
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	sigaction(SIGPIPE, &ign, &old);
	fcntl(in[1], F_SETFL, O_NONBLOCK);
	bool open_in = true;
	for (;;) {
		struct pollfd p[2] = { { out[0], POLLIN, 0 }, { in[1], POLLOUT, 0 } };
		int np = open_in ? 2 : 1;
		if (poll(p, (nfds_t)np, -1) < 0 && errno != EINTR)
			break;
		if (open_in && (p[1].revents & (POLLOUT | POLLERR | POLLHUP))) {
			ssize_t w = write(in[1], feed.s + fed, feed.len - fed);
			if (w > 0)
				fed += (size_t)w;
			if (w < 0 && errno != EAGAIN)
				fed = feed.len;
			if (fed >= feed.len) {
				close(in[1]);
				open_in = false;
			}
		}
		if (p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			char buf[8192];
			ssize_t r = read(out[0], buf, sizeof(buf));
			if (r <= 0)
				break;
			dt_sb_putn(&res, buf, (size_t)r);
		}
	}
	if (open_in)
		close(in[1]);
	close(out[0]);
	sigaction(SIGPIPE, &old, NULL);
	dt_sb_free(&feed);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	dt_dprintf(cc->core, "%s returned exit status %i\n", cpp, status);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		dt_sb_free(&res);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
			return dt_set_error(cc->core, -EINVAL, "Preprocessor not found");
		if (WIFEXITED(status) && WEXITSTATUS(status) == 126)
			return dt_set_error(cc->core, -EINVAL, "Failed to exec preprocessor");
		return dt_set_error(cc->core, -EINVAL, "Preprocessor failed to process input program");
	}
	*outlenp = res.len;
	*outp = dt_sb_take(&res);
	return 0;
}
