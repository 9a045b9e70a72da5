/* The consumer's sleep: one epoll set over everything that should end it. */
#include "consumer/waitset.h"

#include <bpf/libbpf.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/core.h"
#include "base/proc.h"
#include "bpf/runtime.h"
#include "consumer/consumer.h"

struct dt_waitset {
	int epfd;
	DT_VEC(int) pidfds;
};

static int add(struct dt_waitset *ws, int fd)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };

	return epoll_ctl(ws->epfd, EPOLL_CTL_ADD, fd, &ev) < 0 ? -errno : 0;
}

/* A pidfd is readable once the process has exited; none if the kernel lacks them. */
static void watch_pid(struct dt_waitset *ws, pid_t pid)
{
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);

	if (fd < 0)
		return;
	if (add(ws, fd) < 0 || dt_vec_push(&ws->pidfds, fd) < 0)
		close(fd);
}

int dt_waitset_open(struct dt_consumer *cs)
{
	struct dt_runtime *rt = cs->rt;
	struct dt_waitset *ws = calloc(1, sizeof(*ws));

	if (ws == NULL)
		return dt_set_error(cs->core, -ENOMEM, "out of memory");
	ws->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (ws->epfd < 0) {
		int err = errno;
		free(ws);
		return dt_set_error(cs->core, -err, "epoll_create1: %s", strerror(err));
	}
	rt->wait = ws;
	int rc = add(ws, ring_buffer__epoll_fd(rt->ring));
	if (rc == 0 && cs->wake_fd >= 0)
		rc = add(ws, cs->wake_fd);
	if (rc < 0)
		return dt_set_error(cs->core, rc, "epoll_ctl: %s", strerror(-rc));
	for (size_t i = 0; i < cs->procs->children.n; i++)
		if (!cs->procs->children.v[i].exited)
			watch_pid(ws, cs->procs->children.v[i].pid);
	for (size_t i = 0; i < cs->procs->grabbed.n; i++)
		if (cs->procs->grabbed.v[i] > 0)
			watch_pid(ws, cs->procs->grabbed.v[i]);
	return 0;
}

void dt_waitset_wait(struct dt_consumer *cs, int ms)
{
	struct dt_waitset *ws = cs->rt ? cs->rt->wait : NULL;
	struct epoll_event ev[8];

	if (ws == NULL)
		return;
	int n = epoll_wait(ws->epfd, ev, 8, ms);
	for (int i = 0; i < n; i++) {
		int fd = ev[i].data.fd;
		if (fd == cs->wake_fd) {
			uint64_t v;
			if (read(cs->wake_fd, &v, sizeof(v)) < 0) {
				/* Already drained: nothing to do. */
			}
		} else if (fd != ring_buffer__epoll_fd(cs->rt->ring)) {
			/*
			 * A process exited: the caller notices it now.  Its
			 * pidfd would stay readable, and others may still run:
			 * it leaves the set.
			 */
			epoll_ctl(ws->epfd, EPOLL_CTL_DEL, fd, NULL);
		}
	}
}

void dt_waitset_close(struct dt_consumer *cs)
{
	struct dt_waitset *ws = cs->rt ? cs->rt->wait : NULL;

	if (ws == NULL)
		return;
	for (size_t i = 0; i < ws->pidfds.n; i++)
		close(ws->pidfds.v[i]);
	dt_vec_free(&ws->pidfds);
	close(ws->epfd);
	free(ws);
	cs->rt->wait = NULL;
}
