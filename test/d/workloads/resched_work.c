/*
 * sched provider workload: a scheduler that decides and keeps a thread,
 * a CPU told to give its thread up, a thread stopped by its CPU quota.
 *
 *   resched_work keep N       a SCHED_FIFO thread alone at its priority
 *                             on its CPU calls sched_yield() N times: the
 *                             scheduler picks it again (remain-cpu)
 *   resched_work surrender N  a thread spins on a CPU while a SCHED_FIFO
 *                             thread of the same CPU is woken N times
 *                             (through a pipe, from another CPU): each
 *                             wakeup tells the spinner's CPU to
 *                             reschedule (surrender).  The spinner is
 *                             the main thread
 *   resched_work caps DIR K   joins the cgroup DIR (v1 cpu or v2) and
 *                             spins until DIR's cpu.stat says its quota
 *                             stopped it K more times (cpucaps-sleep)
 *
 * Exit status 3: fewer than two CPUs to run on, or no SCHED_FIFO.
 * Built static: no dynamic loader's calls.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int cpus[2];
static long count;
static int to_rt[2], from_rt[2];
static volatile int stop;

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static int fifo(void)
{
	struct sched_param sp = { .sched_priority = 10 };

	return sched_setscheduler(0, SCHED_FIFO, &sp);
}

/* The first two CPUs this process may run on. */
static int two_cpus(void)
{
	cpu_set_t set;
	int n = 0;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return -1;
	for (int c = 0; c < CPU_SETSIZE && n < 2; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n == 2 ? 0 : -1;
}

static int keep(void)
{
	if (pin(cpus[0]) < 0 || fifo() < 0)
		return 3;
	for (long i = 0; i < count; i++)
		sched_yield();
	return 0;
}

static void *rt_thread(void *arg)
{
	char c;

	(void)arg;
	if (pin(cpus[0]) < 0 || fifo() < 0)
		exit(3);
	while (read(to_rt[0], &c, 1) == 1 && c == 'w')
		if (write(from_rt[1], &c, 1) != 1)
			break;
	return NULL;
}

static void *feeder(void *arg)
{
	char c = 'w';

	(void)arg;
	if (pin(cpus[1]) < 0)
		exit(3);
	for (long i = 0; i < count; i++)
		if (write(to_rt[1], &c, 1) != 1 || read(from_rt[0], &c, 1) != 1)
			exit(1);
	c = 'q';
	if (write(to_rt[1], &c, 1) != 1)
		exit(1);
	stop = 1;
	return NULL;
}

static int surrender(void)
{
	pthread_t rt, fd;

	if (pin(cpus[0]) < 0 || pipe(to_rt) < 0 || pipe(from_rt) < 0)
		return 3;
	if (pthread_create(&rt, NULL, rt_thread, NULL) != 0 ||
	    pthread_create(&fd, NULL, feeder, NULL) != 0)
		return 1;
	while (!stop)
		;
	pthread_join(fd, NULL);
	pthread_join(rt, NULL);
	return 0;
}

/* nr_throttled of DIR/cpu.stat, or -1. */
static long throttled(const char *dir)
{
	char path[4096], buf[1024];
	long v = -1;

	snprintf(path, sizeof(path), "%s/cpu.stat", dir);
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	char *p = strstr(buf, "nr_throttled ");
	if (p != NULL)
		v = strtol(p + strlen("nr_throttled "), NULL, 10);
	return v;
}

static int caps(const char *dir, long k)
{
	char path[4096], pid[32];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	int fd = open(path, O_WRONLY);
	int n = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	if (fd < 0 || write(fd, pid, (size_t)n) != n)
		return 1;
	close(fd);
	long start = throttled(dir);
	if (start < 0)
		return 1;
	for (;;) {
		for (volatile long i = 0; i < 1000000; i++)
			;
		long now = throttled(dir);
		if (now < 0)
			return 1;
		if (now - start >= k)
			return 0;
	}
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "caps") == 0)
		return caps(argv[2], atol(argv[3]));
	if (argc != 3)
		return 2;
	count = atol(argv[2]);
	if (two_cpus() < 0)
		return 3;
	if (strcmp(argv[1], "keep") == 0)
		return keep();
	if (strcmp(argv[1], "surrender") == 0)
		return surrender();
	return 2;
}
