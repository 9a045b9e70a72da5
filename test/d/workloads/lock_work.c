/*
 * lockstat workload: kernel locks held, waited for and given up on, by
 * construction rather than by chance.  A "holder" thread writes from a
 * page that is not there yet and that a userfaultfd handles: the kernel
 * takes the file's lock, then waits in the page fault, holding it.  Once
 * the main thread has seen the fault, a "waiter" thread writes to the
 * same file and waits for the lock; once /proc shows it asleep, the main
 * thread supplies the page and the holder finishes and releases the lock.
 *
 *   pipe  a pipe's mutex: pipe_waiter blocks on it, then takes it
 *         (lockstat:::adaptive-block)
 *   file  a memfd's inode semaphore, held for writing: file_waiter blocks
 *         on it as a writer, then takes it (lockstat:::rw-block)
 *   tty   a pseudo-terminal's write mutex, waited for interruptibly:
 *         tty_waiter is sent SIGUSR1 and gives up, its write fails with
 *         EINTR (lockstat:::adaptive-acquire-error)
 *
 *   lock_work [pipe|file|tty ...]    (all three by default)
 *
 * Exit status 0, or 3 (with the reason on stderr) when this kernel lets
 * it make none of them (no userfaultfd, no pseudo-terminals); 1 on error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define CANNOT 3

static int uffd = -1;
static long pagesz;

struct writer {
	const char *name;
	int fd;
	const char *buf;
	size_t len;
	pthread_t thread;
	volatile pid_t tid;
	ssize_t ret;
	int err;
};

static void *write_once(void *arg)
{
	struct writer *w = arg;

	prctl(PR_SET_NAME, w->name);
	w->tid = (pid_t)syscall(SYS_gettid);
	w->ret = write(w->fd, w->buf, w->len);
	w->err = errno;
	return NULL;
}

static void die(const char *what)
{
	fprintf(stderr, "lock_work: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void start(struct writer *w)
{
	if (pthread_create(&w->thread, NULL, write_once, w) != 0)
		die("pthread_create");
	while (w->tid == 0)
		sched_yield();
}

/* A page the userfaultfd supplies when it is first touched. */
static char *missing_page(void)
{
	char *p = mmap(NULL, (size_t)pagesz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	if (p == MAP_FAILED)
		die("mmap");
	struct uffdio_register r = {
		.range = { .start = (unsigned long)p, .len = (unsigned long)pagesz },
		.mode = UFFDIO_REGISTER_MODE_MISSING,
	};
	if (ioctl(uffd, UFFDIO_REGISTER, &r) != 0)
		die("UFFDIO_REGISTER");
	return p;
}

/* Wait for the holder's fault on `page`: it now holds the lock, waiting. */
static void wait_fault(const char *page)
{
	struct pollfd pfd = { .fd = uffd, .events = POLLIN };
	struct uffd_msg m;

	if (poll(&pfd, 1, -1) != 1 || read(uffd, &m, sizeof(m)) != (ssize_t)sizeof(m))
		die("reading the userfaultfd");
	if (m.event != UFFD_EVENT_PAGEFAULT ||
	    (m.arg.pagefault.address & ~(unsigned long long)(pagesz - 1)) != (unsigned long)page) {
		errno = EPROTO;
		die("unexpected userfaultfd event");
	}
}

/* Supply the page: the holder goes on, and releases the lock. */
static void supply(char *page)
{
	static char src[1 << 16];
	struct uffdio_copy c = {
		.dst = (unsigned long)page,
		.src = (unsigned long)src,
		.len = (unsigned long)pagesz,
	};

	memset(src, 'a', sizeof(src));
	if (ioctl(uffd, UFFDIO_COPY, &c) != 0)
		die("UFFDIO_COPY");
}

/* The state /proc gives a thread of this process ('R', 'S', 'D' ...). */
static char state(pid_t tid)
{
	char path[64], buf[512];

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	FILE *f = fopen(path, "re");
	if (f == NULL)
		return '?';
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	const char *p = strrchr(buf, ')');
	return p != NULL && p[1] == ' ' ? p[2] : '?';
}

/* Wait until the waiter sleeps: nothing but the lock can make it. */
static void wait_asleep(const struct writer *w, char want)
{
	while (state(w->tid) != want)
		usleep(1000);
}

static void join(struct writer *w)
{
	if (pthread_join(w->thread, NULL) != 0)
		die("pthread_join");
}

/* Hold fd's lock in a write from a missing page; let `waiter` wait for it. */
static void contend(int fd, const char *what, struct writer *waiter, char asleep, int signal)
{
	char *page = missing_page();
	char name[16];
	struct writer holder = { .fd = fd, .buf = page, .len = (size_t)pagesz };

	snprintf(name, sizeof(name), "%s_holder", what);
	holder.name = name;
	start(&holder);
	wait_fault(page);
	start(waiter);
	wait_asleep(waiter, asleep);
	if (signal && pthread_kill(waiter->thread, SIGUSR1) != 0)
		die("pthread_kill");
	if (signal)
		join(waiter);
	supply(page);
	join(&holder);
	if (!signal)
		join(waiter);
	if (holder.ret != pagesz) {
		errno = holder.err;
		die("the holder's write");
	}
}

static char one[1] = { 'b' };

static void pipe_lock(void)
{
	int p[2];
	struct writer waiter = { .name = "pipe_waiter", .buf = one, .len = 1 };

	if (pipe(p) != 0)
		die("pipe");
	waiter.fd = p[1];
	contend(p[1], "pipe", &waiter, 'D', 0);
	if (waiter.ret != 1)
		die("pipe_waiter's write");
	close(p[0]);
	close(p[1]);
}

static void file_lock(void)
{
	int fd = memfd_create("lock_work", MFD_CLOEXEC);
	struct writer waiter = { .name = "file_waiter", .buf = one, .len = 1 };

	if (fd < 0)
		die("memfd_create");
	waiter.fd = fd;
	contend(fd, "file", &waiter, 'D', 0);
	if (waiter.ret != 1)
		die("file_waiter's write");
	close(fd);
}

static void on_usr1(int sig)
{
	(void)sig;
}

static int tty_lock(void)
{
	int m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	struct writer waiter = { .name = "tty_waiter", .buf = one, .len = 1 };
	struct sigaction sa;

	if (m < 0 || grantpt(m) != 0 || unlockpt(m) != 0) {
		fprintf(stderr, "lock_work: no pseudo-terminal: %s\n", strerror(errno));
		return CANNOT;
	}
	int s = open(ptsname(m), O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (s < 0)
		die("opening the pseudo-terminal");
	/* Interrupted, the write fails (no SA_RESTART). */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	if (sigaction(SIGUSR1, &sa, NULL) != 0)
		die("sigaction");
	waiter.fd = s;
	contend(s, "tty", &waiter, 'S', 1);
	if (waiter.ret != -1 || waiter.err != EINTR) {
		errno = waiter.err;
		die("tty_waiter's write did not fail with EINTR");
	}
	close(s);
	close(m);
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const all[] = { "pipe", "file", "tty" };
	const char *const *which = argc > 1 ? (const char *const *)argv + 1 : all;
	int n = argc > 1 ? argc - 1 : 3, rc = 0;

	pagesz = sysconf(_SC_PAGESIZE);
	uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC);
	if (uffd < 0) {
		fprintf(stderr, "lock_work: no userfaultfd: %s\n", strerror(errno));
		return CANNOT;
	}
	struct uffdio_api api = { .api = UFFD_API };
	if (ioctl(uffd, UFFDIO_API, &api) != 0) {
		fprintf(stderr, "lock_work: userfaultfd API: %s\n", strerror(errno));
		return CANNOT;
	}
	for (int i = 0; i < n; i++) {
		if (strcmp(which[i], "pipe") == 0)
			pipe_lock();
		else if (strcmp(which[i], "file") == 0)
			file_lock();
		else if (strcmp(which[i], "tty") == 0)
			rc = tty_lock() ?: rc;
		else
			return 1;
	}
	return rc;
}
