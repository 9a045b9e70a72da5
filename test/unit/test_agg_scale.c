/*
 * 200,000 keys through snapshot, merge, sort and print (the bench's S5
 * shape: @[offset] = count() on two CPUs).  Not a timed test: it checks
 * the output and reports how long the consumer took and how much the
 * process grew, to keep an eye on the n log n and memory budget.
 */
#include "agg_helpers.h"

#include <sys/resource.h>
#include <time.h>

#define NKEYS 200000

/* Keys 0..NKEYS-1 in hash order, each counted once on one of two CPUs. */
static int gen_read(void *ctx, const struct dt_aggdesc *ad, struct dt_aggsnap *s)
{
	for (uint64_t i = 0; i < NKEYS; i++) {
		uint64_t key = (i * 2654435761u) % NKEYS;	/* a permutation */
		int64_t vals[2] = { (int64_t)(key & 1), (int64_t)(~key & 1) };
		int rc = dt_aggsnap_add(s, &key, vals, 2, 8);

		if (rc < 0)
			return rc;
	}
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static long maxrss_kb(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static void test_many_keys(void **state)
{
	struct fake *f = fk_open(2);
	struct fk_agg *a = fk_new(f, "_", AGG_COUNT);
	struct dt_agg_source src = { .ctx = f, .read = gen_read, .reset = fk_reset,
				     .remove = fk_remove };
	char *buf = NULL;
	size_t len = 0;

	fk_key_int(a, 8, true);
	assert_int_equal(dt_agg_set_source(f->dtp->cons, &src), 0);
	FILE *fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	long rss0 = maxrss_kb();
	double t0 = now();
	assert_int_equal(dtrace_aggregate_print(f->dtp, fp), 0);
	double t1 = now();
	fflush(fp);
	long rss1 = maxrss_kb();
	print_message("%d keys: %.3f s, peak RSS +%ld kB (the output itself is %zu kB)\n", NKEYS,
		      t1 - t0, rss1 - rss0, len / 1024);

	/* every count is 1: sorted by key, each once */
	const char *p = buf;
	for (int64_t i = 0; i < NKEYS; i++) {
		char line[64];
		int n = snprintf(line, sizeof(line), " %16lld %16d\n", (long long)i, 1);
		assert_memory_equal(p, line, (size_t)n);
		p += n;
	}
	assert_int_equal(*p, '\0');
	fclose(fp);
	free(buf);
	fk_close(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
