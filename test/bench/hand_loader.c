/*
 * Loads one hand-written BPF object, attaches its programs, consumes its
 * ring buffer (if it has one named "events") and runs until SIGINT or
 * SIGTERM.  Prints "ready" once attached.
 */
#include <bpf/libbpf.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int drop(void *ctx, void *data, size_t size)
{
	(void)ctx, (void)data, (void)size;
	return 0;
}

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	struct bpf_program *p;
	struct ring_buffer *rb = NULL;
	int rc = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: hand_loader OBJECT\n");
		return 2;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	obj = bpf_object__open_file(argv[1], NULL);
	if (obj == NULL || bpf_object__load(obj) < 0) {
		fprintf(stderr, "hand_loader: cannot load %s\n", argv[1]);
		return 1;
	}
	bpf_object__for_each_program(p, obj) {
		if (bpf_program__attach(p) == NULL) {
			fprintf(stderr, "hand_loader: cannot attach %s\n", bpf_program__name(p));
			goto out;
		}
	}
	struct bpf_map *ev = bpf_object__find_map_by_name(obj, "events");
	if (ev != NULL && (rb = ring_buffer__new(bpf_map__fd(ev), drop, NULL, NULL)) == NULL)
		goto out;
	printf("ready\n");
	fflush(stdout);
	/* Records are read every millisecond, not woken up for (as our dtrace batches wake-ups). */
	while (!stop) {
		struct timespec ms = { 0, 1000000 };
		if (rb != NULL)
			ring_buffer__consume(rb);
		nanosleep(&ms, NULL);
	}
	rc = 0;
out:
	ring_buffer__free(rb);
	bpf_object__close(obj);
	return rc;
}
