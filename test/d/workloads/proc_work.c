/*
 * proc provider workload: a child that execs this program again, one
 * whose exec fails (it exits 3), one killed by SIGKILL, a thread,
 * and a signal to itself that it handles.  Waits for each in turn, so the
 * events come in a fixed order.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void *thread(void *arg)
{
	return arg;
}

static void handler(int sig)
{
	(void)sig;
}

static void run(void (*child)(char **), char **argv)
{
	pid_t p = fork();

	if (p == 0) {
		child(argv);
		_exit(0);
	}
	waitpid(p, NULL, 0);
}

static void exec_self(char **argv)
{
	execl(argv[0], "proc_work", "exec", "a b", (char *)NULL);
	_exit(127);
}

static void exec_missing(char **argv)
{
	/* On the stack: its page is there when the kernel reads the path. */
	char path[32];

	(void)argv;
	strcpy(path, "/nonexistent/proc_work");
	execl(path, "proc_work", (char *)NULL);
	_exit(3);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "exec") == 0)
		return 0;
	run(exec_self, argv);
	run(exec_missing, argv);
	/* A child killed once it runs. */
	int fd[2];
	char c = 0;
	if (pipe(fd) < 0)
		return 1;
	pid_t p = fork();
	if (p == 0) {
		if (write(fd[1], &c, 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	if (read(fd[0], &c, 1) != 1)
		return 1;
	kill(p, SIGKILL);
	waitpid(p, NULL, 0);
	pthread_t t;
	pthread_create(&t, NULL, thread, NULL);
	pthread_join(t, NULL);
	signal(SIGUSR1, handler);
	raise(SIGUSR1);
	return 0;
}
