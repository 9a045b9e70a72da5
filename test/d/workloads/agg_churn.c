/*
 * Aggregation keys that keep coming while another thread's system calls
 * fire the clauses that truncate, clear and print them:
 *
 *   agg_churn N    a thread calls getuid() without pause (each call a new
 *                  key for the test's clauses) while the main thread, once
 *                  the thread has made 64 calls, makes N getppid(), N
 *                  getpgid(0) and N getsid(0), 2 ms apart.
 *
 * Built static: no dynamic loader's calls.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static atomic_long calls;
static atomic_int stop;

static void *churn(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop)) {
		syscall(SYS_getuid);
		atomic_fetch_add(&calls, 1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10;
	struct timespec pause = { 0, 2000000 };
	pthread_t t;

	if (pthread_create(&t, NULL, churn, NULL) != 0)
		return 1;
	while (atomic_load(&calls) < 64)
		sched_yield();
	for (long i = 0; i < n; i++) {
		syscall(SYS_getppid);
		nanosleep(&pause, NULL);
	}
	for (long i = 0; i < n; i++) {
		syscall(SYS_getpgid, 0);
		nanosleep(&pause, NULL);
	}
	for (long i = 0; i < n; i++) {
		syscall(SYS_getsid, 0);
		nanosleep(&pause, NULL);
	}
	atomic_store(&stop, 1);
	pthread_join(t, NULL);
	return 0;
}
