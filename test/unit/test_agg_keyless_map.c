/*
 * The map of an aggregation without keys, a one-entry per-CPU array
 * whose value is followed by an "updated" word (base/aggdesc.h), as the
 * consumer reads and writes it: an entry never updated is no entry, one
 * updated to zero is one, CPUs that never updated it do not count in
 * min() and max(), clear() keeps it with its values emptied, trunc()
 * takes it away.  Needs a real map (root).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "unit_skip.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/aggdesc.h"
#include "consumer/agg_impl.h"

/* The array for `ad` (as cg_prog.c makes it), or -1 with the test skipped or failed. */
static int new_keyless_map(const struct dt_aggdesc *ad)
{
	int fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "agg_keyless", dt_agg_map_key_size(ad),
				dt_agg_map_value_size(ad), 1, NULL);

	if (fd < 0 && errno == EPERM)
		unit_skip("no privilege to create a per-CPU array (BPF needs root)");
	if (fd < 0)
		fail_msg("bpf_map_create: %s", strerror(errno));
	return fd;
}

/* Every CPU's words, as the map holds them (the caller's to free). */
static int64_t *words(int fd, const struct dt_aggdesc *ad)
{
	int ncpus = libbpf_num_possible_cpus();
	int64_t *w = calloc((size_t)ncpus, dt_agg_map_value_size(ad));
	uint32_t zero = 0;

	assert_non_null(w);
	assert_int_equal(bpf_map_lookup_elem(fd, &zero, w), 0);
	return w;
}

static void put(int fd, const int64_t *w)
{
	uint32_t zero = 0;

	assert_int_equal(bpf_map_update_elem(fd, &zero, w, BPF_ANY), 0);
}

/* How many entries a snapshot of the map has (0 or 1); its merged value in *v. */
static size_t read_entry(int fd, const struct dt_aggdesc *ad, int64_t *v, size_t nv)
{
	struct dt_aggsnap s;

	dt_aggsnap_init(&s, ad, true);
	assert_int_equal(dt_aggmap_read_fd(fd, ad, &s, true), 0);
	size_t n = s.n;
	if (n > 0) {
		const uint8_t *e = dt_aggsnap_ent(&s, 0);
		static const uint8_t zero[8];
		assert_memory_equal(e, zero, 8);
		memcpy(v, dt_aggent_val(&s, e), nv * 8);
	}
	dt_aggsnap_free(&s);
	return n;
}

/* sum(0): no count to show it, the "updated" word does; clear() and trunc(). */
static void test_sum_zero(void **state)
{
	struct dt_aggdesc ad = { .name = "s", .func = AGG_SUM, .key_size = 8, .value_size = 8 };
	int ncpus = libbpf_num_possible_cpus();
	int fd = new_keyless_map(&ad);
	int64_t v = -1;

	(void)state;
	assert_int_equal(read_entry(fd, &ad, &v, 1), 0);
	int64_t *w = words(fd, &ad);
	w[2 * (ncpus - 1) + 1] = 1;	/* the last CPU did sum(0) */
	put(fd, w);
	assert_int_equal(read_entry(fd, &ad, &v, 1), 1);
	assert_int_equal(v, 0);
	w[2 * (ncpus - 1)] = 7;
	w[0] = 5;			/* and CPU 0 wrote 5 without its word (count-like) */
	put(fd, w);
	assert_int_equal(read_entry(fd, &ad, &v, 1), 1);
	assert_int_equal(v, 12);
	free(w);

	/* clear(): values zero, the entry kept */
	static const uint8_t key[8];
	const uint8_t *keys[1] = { key };
	assert_int_equal(dt_aggmap_reset_fd(fd, &ad, keys, 1), 0);
	assert_int_equal(read_entry(fd, &ad, &v, 1), 1);
	assert_int_equal(v, 0);
	w = words(fd, &ad);
	for (int c = 0; c < ncpus; c++) {
		assert_int_equal(w[2 * c], 0);
		assert_int_equal(w[2 * c + 1], 1);
	}
	free(w);

	/* trunc(): every word zero, no entry */
	assert_int_equal(dt_aggmap_remove_fd(fd, &ad, keys, 1), 0);
	assert_int_equal(read_entry(fd, &ad, &v, 1), 0);
	w = words(fd, &ad);
	for (int c = 0; c < 2 * ncpus; c++)
		assert_int_equal(w[c], 0);
	free(w);
	close(fd);
}

/* min(): the CPUs that saw no value (all zero) are not a minimum of 0. */
static void test_min_idle_cpus(void **state)
{
	struct dt_aggdesc ad = { .name = "m", .func = AGG_MIN, .key_size = 8, .value_size = 16 };
	int ncpus = libbpf_num_possible_cpus();
	int fd = new_keyless_map(&ad);
	int64_t v[2];

	(void)state;
	int64_t *w = words(fd, &ad);
	w[3 * (ncpus - 1)] = 5;
	w[3 * (ncpus - 1) + 1] = 1;	/* one value seen, on the last CPU only */
	put(fd, w);
	assert_int_equal(read_entry(fd, &ad, v, 2), 1);
	assert_int_equal(v[0], 5);
	assert_int_equal(v[1], 1);
	free(w);

	/* clear(): the emptied value (min's sentinel), the entry kept */
	static const uint8_t key[8];
	const uint8_t *keys[1] = { key };
	assert_int_equal(dt_aggmap_reset_fd(fd, &ad, keys, 1), 0);
	assert_int_equal(read_entry(fd, &ad, v, 2), 1);
	assert_int_equal(v[0], INT64_MAX);
	assert_int_equal(v[1], 0);
	close(fd);
}

/* count(): the count shows the update; a description that does not fit is refused. */
static void test_count_and_mismatch(void **state)
{
	struct dt_aggdesc ad = { .name = "c", .func = AGG_COUNT, .key_size = 8, .value_size = 8 };
	int ncpus = libbpf_num_possible_cpus();
	int fd = new_keyless_map(&ad);
	int64_t v;

	(void)state;
	int64_t *w = words(fd, &ad);
	for (int c = 0; c < ncpus; c++)
		w[2 * c] = c + 1;
	put(fd, w);
	free(w);
	assert_int_equal(read_entry(fd, &ad, &v, 1), 1);
	assert_int_equal(v, (int64_t)ncpus * (ncpus + 1) / 2);

	struct dt_aggsnap s;
	struct dt_aggkey k = { .kind = DT_AGGKEY_INT, .size = 8 };
	struct dt_aggdesc keyed = ad;
	keyed.nkeys = 1;
	keyed.keys = &k;
	dt_aggsnap_init(&s, &keyed, false);
	assert_int_equal(dt_aggmap_read_fd(fd, &keyed, &s, true), -EINVAL);
	dt_aggsnap_free(&s);
	struct dt_aggdesc bigger = ad;
	bigger.value_size = 16;
	bigger.func = AGG_AVG;
	dt_aggsnap_init(&s, &bigger, false);
	assert_int_equal(dt_aggmap_read_fd(fd, &bigger, &s, true), -EINVAL);
	dt_aggsnap_free(&s);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sum_zero),
		cmocka_unit_test(test_min_idle_cpus),
		cmocka_unit_test(test_count_and_mismatch),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
