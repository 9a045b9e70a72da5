/* Following the -c processes under ptrace (proc_follow.h). */
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

/* One followed child; the handle's are a list (cs->follow). */
struct dt_follow {
	struct dt_follow *next;
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

int dt_proc_follow_start(struct dt_consumer *cs, pid_t pid)
{
	struct dt_child *c = dt_proc_child(cs->procs, pid);

	if (c == NULL || !c->stopped || cs->wake_fd < 0)
		return -EINVAL;
	for (struct dt_follow *o = cs->follow; o != NULL; o = o->next)
		if (o->pid == pid)
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
	struct dt_follow **pp = &cs->follow;
	while (*pp != NULL)
		pp = &(*pp)->next;
	*pp = f;
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
static void on_stop(struct dt_consumer *cs, struct dt_follow *f, int status)
{
	pid_t pid = f->pid;
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
		f->detached = true;
		struct dt_child *c = dt_proc_child(cs->procs, pid);
		if (c != NULL)
			c->traced = false;
	} else {
		ptrace(PTRACE_CONT, pid, NULL, (void *)(long)sig);
	}
}

/* Stop f's helper and free it (its child has been reaped, or is about to be). */
static void end_one(struct dt_follow *f)
{
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

/* f's events: true once its child has ended (reaped, its end noted). */
static bool follow_one(struct dt_consumer *cs, struct dt_follow *f)
{
	while (!f->detached) {
		int status;
		pid_t r = waitpid(f->pid, &status, WNOHANG | __WALL);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			dt_proc_child_ended(cs->procs, f->pid, status);
			return true;
		}
		if (WIFSTOPPED(status))
			on_stop(cs, f, status);
		taken(f);
	}
	return false;
}

void dt_proc_follow_events(struct dt_consumer *cs)
{
	struct dt_follow **pp = &cs->follow;

	while (*pp != NULL) {
		struct dt_follow *f = *pp;
		if (follow_one(cs, f)) {
			*pp = f->next;
			end_one(f);
		} else {
			pp = &f->next;
		}
	}
}

void dt_proc_follow_end(struct dt_consumer *cs)
{
	while (cs->follow != NULL) {
		struct dt_follow *f = cs->follow;
		cs->follow = f->next;
		end_one(f);
	}
}
