/*
 * Snapshots: merging the per-CPU values (sums, min/max with and without
 * the per-CPU "values seen" word, stddev's 128-bit sum of squares,
 * histograms bucket by bucket), aggpercpu output, symbol-like keys,
 * errors, and the BPF-map layer on a real per-CPU hash when the test
 * may create one.
 */
#include "agg_helpers.h"
#include "unit_skip.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <unistd.h>

/* The snapshot of one aggregation through the handle's source. */
static void snap(struct fake *f, struct fk_agg *a, struct dt_aggsnap *s)
{
	assert_int_equal(dt_agg_snapshot(f->dtp->cons, &a->ad, s), 0);
}

static void test_merge_sums(void **state)
{
	struct fake *f = fk_open(4);
	struct fk_agg *c = fk_new(f, "c", AGG_COUNT), *q = fk_new(f, "q", AGG_QUANTIZE);
	struct fk_agg *v = fk_new(f, "v", AGG_AVG);
	struct dt_aggsnap s;

	for (int cpu = 0; cpu < 4; cpu++)
		for (int i = 0; i <= cpu; i++) {
			fk_apply(f, c, NULL, cpu, 0, 1);
			fk_apply(f, q, NULL, cpu, cpu, 1);
			fk_apply(f, v, NULL, cpu, 10 * cpu, 1);
		}
	snap(f, c, &s);
	assert_int_equal(s.n, 1);
	assert_int_equal(dt_aggent_val(&s, dt_aggsnap_ent(&s, 0))[0], 1 + 2 + 3 + 4);
	dt_aggsnap_free(&s);

	snap(f, q, &s);
	const int64_t *b = dt_aggent_val(&s, dt_aggsnap_ent(&s, 0));
	assert_int_equal(b[63], 1);		/* 0 once, from CPU 0 */
	assert_int_equal(b[64], 2);		/* 1 twice, CPU 1 */
	assert_int_equal(b[65], 3 + 4);		/* 2 and 3 */
	dt_aggsnap_free(&s);

	snap(f, v, &s);
	const int64_t *w = dt_aggent_val(&s, dt_aggsnap_ent(&s, 0));
	assert_int_equal(w[0], 10);
	assert_int_equal(w[1], 0 + 20 + 60 + 120);
	assert_int_equal(dt_aggval_avg(w, 1), 20);
	dt_aggsnap_free(&s);
	fk_close(f);
}

/* With the seen word, a CPU that never saw a value does not count, even beside a real 0. */
static void test_merge_min_max_seen(void **state)
{
	struct fake *f = fk_open(3);
	struct fk_agg *mn = fk_new(f, "mn", AGG_MIN), *mx = fk_new(f, "mx", AGG_MAX);
	struct dt_aggsnap s;

	assert_int_equal(mn->nwords, 2);
	fk_apply(f, mn, NULL, 0, 5, 1);
	fk_apply(f, mn, NULL, 1, 0, 1);
	fk_apply(f, mx, NULL, 0, -5, 1);
	fk_apply(f, mx, NULL, 2, -7, 1);
	snap(f, mn, &s);
	assert_int_equal(dt_aggent_val(&s, dt_aggsnap_ent(&s, 0))[0], 0);
	dt_aggsnap_free(&s);
	snap(f, mx, &s);
	assert_int_equal(dt_aggent_val(&s, dt_aggsnap_ent(&s, 0))[0], -5);
	dt_aggsnap_free(&s);
	fk_close(f);
}

/* A single-word min()/max(): a 0 slot is a CPU that never fired, unless all are 0. */
static void test_merge_min_max_one_word(void **state)
{
	struct fake *f = fk_open(2);
	struct fk_agg *mn, *mx, *z;
	struct dt_aggsnap s;

	f->seen_word = false;
	mn = fk_new(f, "mn", AGG_MIN);
	mx = fk_new(f, "mx", AGG_MAX);
	z = fk_new(f, "z", AGG_MIN);
	assert_int_equal(mn->nwords, 1);
	fk_apply(f, mn, NULL, 1, 5, 1);		/* CPU 0's slot stays 0 */
	fk_apply(f, mx, NULL, 0, -5, 1);
	fk_apply(f, z, NULL, 0, 0, 1);
	snap(f, mn, &s);
	assert_int_equal(dt_aggent_val(&s, dt_aggsnap_ent(&s, 0))[0], 5);
	dt_aggsnap_free(&s);
	snap(f, mx, &s);
	assert_int_equal(dt_aggent_val(&s, dt_aggsnap_ent(&s, 0))[0], -5);
	dt_aggsnap_free(&s);
	snap(f, z, &s);
	assert_int_equal(dt_aggent_val(&s, dt_aggsnap_ent(&s, 0))[0], 0);
	dt_aggsnap_free(&s);
	fk_close(f);
}

/* stddev()'s sum of squares carries into the high word, within a CPU and across CPUs. */
static void test_merge_stddev_128(void **state)
{
	struct fake *f = fk_open(2);
	struct fk_agg *a = fk_new(f, "a", AGG_STDDEV), *b = fk_new(f, "b", AGG_STDDEV);
	struct dt_aggsnap s;

	for (int i = 0; i < 4; i++) {
		fk_apply(f, a, NULL, i % 2, 4000000000LL, 1);		/* 1.6e19 each */
		fk_apply(f, b, NULL, i % 2, i % 2 ? 5000000000LL : 4000000000LL, 1);
	}
	snap(f, a, &s);
	const int64_t *w = dt_aggent_val(&s, dt_aggsnap_ent(&s, 0));
	unsigned __int128 sq = ((unsigned __int128)(uint64_t)w[3] << 64) | (uint64_t)w[2];
	assert_true(sq == (unsigned __int128)4 * 4000000000ULL * 4000000000ULL);
	assert_int_equal(dt_aggval_stddev(w, 1), 0);
	dt_aggsnap_free(&s);
	snap(f, b, &s);
	assert_int_equal(dt_aggval_stddev(dt_aggent_val(&s, dt_aggsnap_ent(&s, 0)), 1), 500000000);
	dt_aggsnap_free(&s);
	fk_close(f);
}

/*
 * aggpercpu (aggs/tst.aggpercpu.sh): after each value, "\n    [CPU n]" and
 * that CPU's datum; a CPU that never fired shows 0, or min()/max()'s
 * sentinel 9223372036854775807 / -9223372036854775808.
 */
static void test_percpu_output(void **state)
{
	struct fake *f = fk_open(3);
	struct fk_agg *c = fk_new(f, "c", AGG_COUNT), *a = fk_new(f, "a", AGG_AVG);
	struct fk_agg *mn = fk_new(f, "mn", AGG_MIN), *mx = fk_new(f, "mx", AGG_MAX);

	f->dtp->core->opts.aggpercpu = true;
	for (int cpu = 0; cpu < 2; cpu++) {
		fk_apply(f, c, NULL, cpu, 0, 1);
		fk_apply(f, a, NULL, cpu, 10 * cpu + 3, 1);
		fk_apply(f, mn, NULL, cpu, 30 * cpu - 10, 1);
		fk_apply(f, mx, NULL, cpu, 40 * cpu - 15, 1);
	}
	char *out = fk_exit_print(f);
	assert_output("                2\n"
		      "    [CPU 0]                1\n"
		      "    [CPU 1]                1\n"
		      "    [CPU 2]                0\n"
		      "                8\n"
		      "    [CPU 0]                3\n"
		      "    [CPU 1]               13\n"
		      "    [CPU 2]                0\n"
		      "              -10\n"
		      "    [CPU 0]              -10\n"
		      "    [CPU 1]               20\n"
		      "    [CPU 2] 9223372036854775807\n"
		      "               25\n"
		      "    [CPU 0]              -15\n"
		      "    [CPU 1]               25\n"
		      "    [CPU 2] -9223372036854775808\n",
		      out);
	free(out);
	fk_close(f);
}

/* ---- symbol-like keys ------------------------------------------------------ */

static int fake_kaddr(void *ctx, uint64_t addr, struct dt_strbuf *out)
{
	if (addr < 0xffffffff81000000ULL)
		return -1;
	dt_sb_printf(out, "vmlinux`func_%llx+0x%llx", (unsigned long long)(addr & ~0xffULL),
		     (unsigned long long)(addr & 0xff));
	return 0;
}

static int fake_kmod(void *ctx, uint64_t addr, struct dt_strbuf *out)
{
	dt_sb_puts(out, "vmlinux");
	return 0;
}

static int fake_uaddr(void *ctx, uint64_t pid, uint64_t addr, struct dt_strbuf *out)
{
	dt_sb_printf(out, "libc.so.6`f%llu+0x%llx", (unsigned long long)pid,
		     (unsigned long long)(addr & 0xf));
	return 0;
}

/* dt_print_stack/dt_print_sym/dt_print_mod/dt_print_usym: frames, "  %-50s". */
static void test_symbol_keys(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *st = fk_new(f, "st", AGG_COUNT), *sy = fk_new(f, "sy", AGG_COUNT);
	struct fk_agg *md = fk_new(f, "md", AGG_COUNT), *us = fk_new(f, "us", AGG_COUNT);
	struct fk_agg *ust = fk_new(f, "ust", AGG_COUNT);
	struct fk_key k;

	fk_add_key(st, DT_AGGKEY_STACK, 4 * 8, 0, false);
	fk_add_key(sy, DT_AGGKEY_SYM, 8, 8, false);
	fk_add_key(md, DT_AGGKEY_MOD, 8, 8, false);
	fk_add_key(us, DT_AGGKEY_USYM, 16, 8, false);
	fk_add_key(ust, DT_AGGKEY_USTACK, 4 * 8, 0, false);
	memset(&k, 0, sizeof(k));
	uint64_t pcs[4] = { 0xffffffff81000123ULL, 0xffffffff81000200ULL, 0, 0 };
	memcpy(k.b, pcs, sizeof(pcs));
	fk_put(f, st, &k, 0);
	fk_put(f, sy, &k, 0);
	fk_put(f, md, &k, 0);
	uint64_t u[4] = { 4242, 0x400123, 0x400456, 0 };
	memcpy(k.b, u, sizeof(u));
	fk_put(f, us, &k, 0);
	fk_put(f, ust, &k, 0);

	/* unresolved: hex, as DTrace prints what it cannot look up */
	char *out = fk_exit_print(f);
	assert_output("\n"
		      "              0xffffffff81000123\n"
		      "              0xffffffff81000200\n"
		      "                1\n"
		      "  0xffffffff81000123                                                1\n"
		      "  0xffffffff81000123                                                1\n"
		      "  0x400123                                                          1\n"
		      "\n"
		      "              0x400123\n"
		      "              0x400456\n"
		      "                1\n",
		      out);
	free(out);

	struct dt_pf_syms syms = { .kaddr = fake_kaddr, .kmod = fake_kmod, .uaddr = fake_uaddr };
	assert_int_equal(dt_agg_set_syms(f->dtp->cons, &syms), 0);
	f->dtp->core->opts.stackindent = 4;
	out = fk_exit_print(f);
	/* sym() and usym() show the function without the offset */
	assert_output("\n"
		      "    vmlinux`func_ffffffff81000100+0x23\n"
		      "    vmlinux`func_ffffffff81000200+0x0\n"
		      "                1\n"
		      "  vmlinux`func_ffffffff81000100                                     1\n"
		      "  vmlinux                                                           1\n"
		      "  libc.so.6`f4242                                                   1\n"
		      "\n"
		      "    libc.so.6`f4242+0x3\n"
		      "    libc.so.6`f4242+0x6\n"
		      "                1\n",
		      out);
	free(out);

	/* printa("%k %a %A") hands the keys to the printf engine */
	struct dt_strbuf sb;
	dt_sb_init(&sb);
	fk_printa1(f, &sb, "%a:%@d\n", sy);
	fk_printa1(f, &sb, "%A:%@d\n", us);
	assert_output("vmlinux`func_ffffffff81000100+0x23:1\nlibc.so.6`f4242+0x3:1\n", sb.s);
	dt_sb_free(&sb);
	fk_close(f);
}

/* ---- errors and bookkeeping -------------------------------------------------- */

static int failing_read(void *ctx, const struct dt_aggdesc *ad, struct dt_aggsnap *s)
{
	return -EPERM;
}

static void test_errors(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *a = fk_new(f, "a", AGG_SUM);
	struct dt_strbuf sb;
	uint32_t bad = 99;

	dt_sb_init(&sb);
	assert_int_equal(dt_agg_clear(f->dtp->cons, bad), -EINVAL);
	assert_string_equal(dtrace_errmsg(f->dtp), "Invalid aggregation variable identifier");
	assert_int_equal(dt_agg_printa(f->dtp->cons, &sb, NULL, &bad, 1), -EINVAL);
	assert_int_equal(dt_agg_normalize(f->dtp->cons, bad, 2), -EINVAL);

	/* a value too small for the function is refused, not read past */
	struct fk_agg *q = fk_new(f, "q", AGG_QUANTIZE);
	q->ad.value_size = 8;
	assert_int_equal(dt_agg_printa(f->dtp->cons, &sb, NULL, &q->ad.id, 1), -EINVAL);

	struct dt_agg_source src = { .ctx = f, .read = failing_read, .reset = fk_reset,
				     .remove = fk_remove };
	assert_int_equal(dt_agg_set_source(f->dtp->cons, &src), 0);
	assert_int_equal(dt_agg_trunc(f->dtp->cons, a->ad.id, 1), -EPERM);
	assert_string_equal(dtrace_errmsg(f->dtp),
			    "failed to read aggregation @a: Operation not permitted");
	dt_sb_free(&sb);
	fk_close(f);
}

/* printa() of an empty aggregation does not mark it printed; a joined one marks all. */
static void test_printed_marks(void **state)
{
	struct fake *f = fk_open(1);
	struct fk_agg *a = fk_new(f, "a", AGG_SUM), *c;

	fk_new(f, "b", AGG_SUM);
	c = fk_new(f, "c", AGG_SUM);
	struct dt_strbuf sb;
	const uint32_t ab[] = { 0, 1 };

	dt_sb_init(&sb);
	fk_printa1(f, &sb, NULL, a);
	assert_output("\n", sb.s);
	fk_put(f, a, NULL, 1);
	fk_put(f, c, NULL, 3);
	fk_printa(f, &sb, "%@d %@d\n", ab, 2);
	assert_output("\n1 0\n", sb.s);
	char *out = fk_exit_print(f);
	assert_output("                3\n", out);
	free(out);
	dt_sb_free(&sb);
	fk_close(f);
}

/* ---- the BPF-map layer ---------------------------------------------------------- */

static int new_percpu_map(uint32_t key_size, uint32_t value_size, uint32_t max)
{
	return bpf_map_create(BPF_MAP_TYPE_PERCPU_HASH, "agg_test", key_size, value_size, max,
			      NULL);
}

/* Batched and one-by-one reads agree; reset and remove write through. */
static void test_map_layer(void **state)
{
	int ncpus = libbpf_num_possible_cpus();
	struct dt_aggdesc ad = { .name = "m", .func = AGG_SUM, .key_size = 8, .value_size = 8 };
	const uint32_t n = 3000;
	int fd = new_percpu_map(8, 8, 4096);

	if (fd < 0 && errno == EPERM)
		unit_skip("no privilege to create a per-CPU hash map (BPF needs root)");
	if (fd < 0)
		fail_msg("bpf_map_create: %s", strerror(errno));
	int64_t *vals = calloc((size_t)ncpus, 8);
	assert_non_null(vals);
	for (uint64_t k = 0; k < n; k++) {
		for (int c = 0; c < ncpus; c++)
			vals[c] = (int64_t)(k * 10 + (uint64_t)c);
		assert_int_equal(bpf_map_update_elem(fd, &k, vals, BPF_ANY), 0);
	}
	for (int batch = 1; batch >= 0; batch--) {
		struct dt_aggsnap s;
		dt_aggsnap_init(&s, &ad, true);
		assert_int_equal(dt_aggmap_read_fd(fd, &ad, &s, batch), 0);
		assert_int_equal(s.n, n);
		assert_int_equal(s.ncpus, ncpus);
		for (size_t i = 0; i < s.n; i++) {
			const uint8_t *e = dt_aggsnap_ent(&s, i);
			uint64_t k;
			memcpy(&k, e, 8);
			int64_t sum = 0;
			for (int c = 0; c < ncpus; c++) {
				assert_int_equal(dt_aggent_cpu(&s, e, c)[0], (int64_t)(k * 10) + c);
				sum += (int64_t)(k * 10) + c;
			}
			assert_int_equal(dt_aggent_val(&s, e)[0], sum);
		}
		dt_aggsnap_free(&s);
	}
	uint64_t k0 = 0, k1 = 1;
	const uint8_t *keys[2] = { (const uint8_t *)&k0, (const uint8_t *)&k1 };
	assert_int_equal(dt_aggmap_reset_fd(fd, &ad, keys, 1), 0);
	assert_int_equal(bpf_map_lookup_elem(fd, &k0, vals), 0);
	for (int c = 0; c < ncpus; c++)
		assert_int_equal(vals[c], 0);
	assert_int_equal(dt_aggmap_remove_fd(fd, &ad, keys + 1, 1), 0);
	assert_int_equal(bpf_map_lookup_elem(fd, &k1, vals), -ENOENT);
	/* a description that does not fit the map is refused */
	struct dt_aggdesc wrong = ad;
	wrong.key_size = 16;
	struct dt_aggsnap s;
	dt_aggsnap_init(&s, &wrong, false);
	assert_int_equal(dt_aggmap_read_fd(fd, &wrong, &s, true), -EINVAL);
	dt_aggsnap_free(&s);
	free(vals);
	close(fd);
}

/* A key with more values than one batch holds, and an empty map. */
static void test_map_layer_big_values(void **state)
{
	struct dt_aggdesc ad = { .name = "q", .func = AGG_QUANTIZE, .key_size = 256,
				 .value_size = 8 * DT_QUANT_NBUCKETS, .nbuckets = DT_QUANT_NBUCKETS };
	int ncpus = libbpf_num_possible_cpus();
	int fd = new_percpu_map(256, ad.value_size, 4096);

	if (fd < 0 && errno == EPERM)
		unit_skip("no privilege to create a per-CPU hash map (BPF needs root)");
	if (fd < 0)
		fail_msg("bpf_map_create: %s", strerror(errno));
	struct dt_aggsnap s;
	dt_aggsnap_init(&s, &ad, false);
	assert_int_equal(dt_aggmap_read_fd(fd, &ad, &s, true), 0);
	assert_int_equal(s.n, 0);
	dt_aggsnap_free(&s);

	size_t vsz = (size_t)ncpus * ad.value_size;
	int64_t *vals = calloc(1, vsz);
	char key[256];
	assert_non_null(vals);
	for (int i = 0; i < 1500; i++) {
		memset(key, 0, sizeof(key));
		snprintf(key, sizeof(key), "key%d", i);
		vals[DT_QUANTIZE_ZERO] = i;
		assert_int_equal(bpf_map_update_elem(fd, key, vals, BPF_ANY), 0);
	}
	dt_aggsnap_init(&s, &ad, false);
	assert_int_equal(dt_aggmap_read_fd(fd, &ad, &s, true), 0);
	assert_int_equal(s.n, 1500);
	int64_t total = 0;
	for (size_t i = 0; i < s.n; i++)
		total += dt_aggent_val(&s, dt_aggsnap_ent(&s, i))[DT_QUANTIZE_ZERO];
	assert_int_equal(total, 1499 * 1500 / 2);
	dt_aggsnap_free(&s);
	free(vals);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_sums),
		cmocka_unit_test(test_merge_min_max_seen),
		cmocka_unit_test(test_merge_min_max_one_word),
		cmocka_unit_test(test_merge_stddev_128),
		cmocka_unit_test(test_percpu_output),
		cmocka_unit_test(test_symbol_keys),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_printed_marks),
		cmocka_unit_test(test_map_layer),
		cmocka_unit_test(test_map_layer_big_values),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
