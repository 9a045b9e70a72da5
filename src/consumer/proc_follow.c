/* Following the -c process under ptrace (proc_follow.h). */
#include "consumer/proc_follow.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/core.h"
#include "base/proc.h"
#include "consumer/consume.h"
#include "consumer/consumer.h"
#include "consumer/symbolize.h"

struct dt_follow {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pid_t pid;
	int wake_fd;
	uint64_t handled;	/* events the consumer thread has taken */
	bool quit;
	bool detached;		/* no longer traced: the caller reaps it */
};

/*
 * The helper: wait until the child has something to report, leave it to
 * be taken (WNOWAIT), wake the consumer, and wait until it was taken.
 */
static void *watch(void *arg)
{
	struct dt_follow *f = arg;

	for (;;) {
		pthread_mutex_lock(&f->mu);
		uint64_t before = f->handled;
		bool quit = f->quit;
		pthread_mutex_unlock(&f->mu);
		if (quit)
			break;
		siginfo_t si;
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)f->pid, &si, WEXITED | WSTOPPED | WNOWAIT | __WALL) < 0) {
			if (errno == EINTR)
				continue;
			break;	/* reaped: nothing more to wait for */
		}
		uint64_t one = 1;
		if (write(f->wake_fd, &one, sizeof(one)) < 0) {
			/* The eventfd is full: the consumer is awake anyway. */
		}
		pthread_mutex_lock(&f->mu);
		while (f->handled == before && !f->quit)
			pthread_cond_wait(&f->cv, &f->mu);
		pthread_mutex_unlock(&f->mu);
	}
	return NULL;
}

int dt_proc_follow_start(struct dt_consumer *cs)
{
	pid_t pid = cs->procs->child_pid;

	if (cs->follow != NULL || pid == 0 || cs->procs->child_exited || cs->wake_fd < 0)
		return -EINVAL;
	/* EXITKILL: as PR_SET_PDEATHSIG, the child does not outlive us. */
	long opts = PTRACE_O_TRACEEXEC | PTRACE_O_TRACEEXIT | PTRACE_O_EXITKILL;
	if (ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)opts) < 0)
		return -errno;
	struct dt_follow *f = calloc(1, sizeof(*f));
	if (f == NULL)
		return -ENOMEM;
	f->pid = pid;
	f->wake_fd = cs->wake_fd;
	pthread_mutex_init(&f->mu, NULL);
	pthread_cond_init(&f->cv, NULL);
	/* Signals sent to dtrace stay with the thread that handles them (its sleep ends). */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int rc = pthread_create(&f->thread, NULL, watch, f);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		pthread_mutex_destroy(&f->mu);
		pthread_cond_destroy(&f->cv);
		free(f);
		ptrace(PTRACE_SETOPTIONS, pid, NULL, NULL);
		return -rc;
	}
	cs->follow = f;
	return 0;
}

static void taken(struct dt_follow *f)
{
	pthread_mutex_lock(&f->mu);
	f->handled++;
	pthread_cond_broadcast(&f->cv);
	pthread_mutex_unlock(&f->mu);
}

static bool stop_signal(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

/* The child stopped with `status`: what it means, and resume it. */
static void on_stop(struct dt_consumer *cs, pid_t pid, int status)
{
	int sig = WSTOPSIG(status), event = (unsigned)status >> 16;

	if (sig == SIGTRAP && event == PTRACE_EVENT_EXEC) {
		/*
		 * What it recorded as the old program is in the ring (it is
		 * stopped): printed before the new program's mappings replace
		 * the old ones.
		 */
		dt_consume_pending(cs);
		dt_syms_track_targets(cs, 0);
		ptrace(PTRACE_CONT, pid, NULL, NULL);
	} else if (sig == SIGTRAP && event == PTRACE_EVENT_EXIT) {
		dt_syms_track_targets(cs, 0);
		ptrace(PTRACE_CONT, pid, NULL, NULL);
	} else if (event != 0) {
		ptrace(PTRACE_CONT, pid, NULL, NULL);
	} else if (stop_signal(sig)) {
		/*
		 * Job control under ptrace would need the tracer to resume it
		 * on SIGCONT: let it go, with the signal, and stop following.
		 * The helper stays until the child is reaped.
		 */
		dt_syms_track_targets(cs, 0);
		ptrace(PTRACE_DETACH, pid, NULL, (void *)(long)sig);
		cs->follow->detached = true;
	} else {
		ptrace(PTRACE_CONT, pid, NULL, (void *)(long)sig);
	}
}

bool dt_proc_following(const struct dt_consumer *cs)
{
	return cs->follow != NULL && !cs->follow->detached;
}

bool dt_proc_follow_events(struct dt_consumer *cs)
{
	struct dt_follow *f = cs->follow;

	if (f == NULL || f->detached)
		return false;
	while (!f->detached && !cs->procs->child_exited) {
		int status;
		pid_t r = waitpid(f->pid, &status, WNOHANG | __WALL);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			cs->procs->child_exited = true;
			cs->procs->child_status = status;
			dt_proc_follow_end(cs);
			break;
		}
		if (WIFSTOPPED(status))
			on_stop(cs, f->pid, status);
		taken(f);
	}
	return true;
}

void dt_proc_follow_end(struct dt_consumer *cs)
{
	struct dt_follow *f = cs->follow;

	if (f == NULL)
		return;
	cs->follow = NULL;
	pthread_mutex_lock(&f->mu);
	f->quit = true;
	f->handled++;
	pthread_cond_broadcast(&f->cv);
	pthread_mutex_unlock(&f->mu);
	/*
	 * The helper is waiting for us, or in waitid(), which returns once
	 * the child is reaped (as it is before this is called).
	 */
	pthread_join(f->thread, NULL);
	pthread_mutex_destroy(&f->mu);
	pthread_cond_destroy(&f->cv);
	free(f);
}
