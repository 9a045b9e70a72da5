/*
 * The output formats over the aggregation walk, on a fake data source and
 * fake symbols: folded stacks (leading keys, root first, user before
 * kernel, offsets dropped, escaping, entries that fold into one line with
 * the aggregating function's rule), OpenMetrics text (names, types,
 * labels and their escaping, cumulative histogram buckets, series merged)
 * written whole to its file, and the pprof profile read back with zlib
 * and libprotobuf-c (sample types, samples, locations, mappings,
 * functions, labels).
 */
#include "agg_helpers.h"

#include <errno.h>
#include <unistd.h>
#include <zlib.h>

#include "base/options.h"
#include "consumer/folded.h"
#include "consumer/oformat.h"
#include "consumer/openmetrics.h"
#include "consumer/pprof.h"
#include "consumer/profile.pb-c.h"

/*
 * User addresses: 0x1000.. in a.out`hot, 0x2000.. a.out`main, 0x3000..
 * libc.so.6`start, 0x5000.. a function whose name holds ';' and a
 * newline; nothing is known above 0x8000.  Kernel: vmlinux`kfunc.
 */
static int fake_uaddr(void *ctx, uint64_t pid, uint64_t addr, struct dt_strbuf *out)
{
	static const char *const names[] = { NULL, "a.out`hot", "a.out`main", "libc.so.6`start",
					      NULL, "libx.so`we;ird\nname" };
	uint64_t page = addr >> 12;

	if (page >= 6 || names[page] == NULL)
		return -1;
	dt_sb_puts(out, names[page]);
	if (addr & 0xfff)
		dt_sb_printf(out, "+0x%llx", (unsigned long long)(addr & 0xfff));
	return 0;
}

static int fake_kaddr(void *ctx, uint64_t addr, struct dt_strbuf *out)
{
	if (addr < 0xffffffff81000000ULL)
		return -1;
	dt_sb_printf(out, "vmlinux`kfunc_%llx+0x%llx", (unsigned long long)(addr >> 8 & 0xf),
		     (unsigned long long)(addr & 0xff));
	return 0;
}

static int fake_mapping(void *ctx, bool user, uint64_t pid, uint64_t addr, struct dt_pf_mapping *m)
{
	if (!user)
		*m = (struct dt_pf_mapping){ "[kernel.kallsyms]", 0xffffffff81000000ULL,
					     0xffffffff82000000ULL, 0 };
	else if (addr >= 0x1000 && addr < 0x3000)
		*m = (struct dt_pf_mapping){ "/usr/bin/a.out", 0x1000, 0x3000, 0, true };
	else if (addr >= 0x3000 && addr < 0x5000)
		*m = (struct dt_pf_mapping){ "/lib/libc.so.6", 0x3000, 0x5000, 0x2000 };
	else
		return -1;
	return 0;
}

static const struct dt_pf_syms syms = {
	.kaddr = fake_kaddr, .uaddr = fake_uaddr, .mapping = fake_mapping,
};

static struct fake *open_fake(const char *oformat)
{
	struct fake *f = fk_open(2);

	assert_int_equal(dt_agg_set_syms(f->dtp->cons, &syms), 0);
	assert_int_equal(dt_option_set(f->dtp->core, "oformat", oformat), 0);
	return f;
}

/* A ustack() key of up to 6 frames (then 0), leaf first, for process 42. */
static void key_ustack(struct fk_agg *a)
{
	fk_add_key(a, DT_AGGKEY_USTACK, 8 + 7 * 8, 0, false);
}

static struct fk_key *kb_ustack(struct fk_key *kb, const struct fk_agg *a, int i,
				const uint64_t *pcs, size_t n)
{
	const struct dt_aggkey *k = &a->keys[i];
	uint64_t pid = 42;

	memset(kb->b + k->off, 0, k->size);
	memcpy(kb->b + k->off, &pid, 8);
	memcpy(kb->b + k->off + 8, pcs, n * 8);
	return kb;
}

/* A stack() key: frames, then the spare slot the consumer drops. */
static struct fk_key *kb_stack(struct fk_key *kb, const struct fk_agg *a, int i,
			       const uint64_t *pcs, size_t n)
{
	const struct dt_aggkey *k = &a->keys[i];

	memset(kb->b + k->off, 0, k->size);
	memcpy(kb->b + k->off, pcs, n * 8);
	return kb;
}

/* ---- folded --------------------------------------------------------------- */

static char *folded(struct fake *f, struct fk_agg *a)
{
	struct dt_strbuf sb;

	dt_sb_init(&sb);
	assert_true(dt_folded_aggregation(f->dtp->cons, &sb, a->ad.id) >= 0);
	return sb.s != NULL ? dt_sb_take(&sb) : strdup("");
}

static void test_folded_lines(void **state)
{
	struct fake *f = open_fake("folded");
	struct fk_agg *a = fk_new(f, "a", AGG_COUNT);
	struct fk_key kb;
	static const uint64_t s1[] = { 0x1004, 0x2010, 0x3020 }, s2[] = { 0x1008, 0x2010, 0x3020 };
	static const uint64_t s3[] = { 0x9000, 0x2010 }, s4[] = { 0x5004, 0x1000 };

	fk_key_str(a, 16);
	key_ustack(a);
	for (int i = 0; i < 3; i++)
		fk_put(f, a, kb_ustack(kb_str(&kb, a, 0, "bash"), a, 1, s1, 3), 0);
	/* another offset in hot(): the same line, 3 + 2 */
	for (int i = 0; i < 2; i++)
		fk_put(f, a, kb_ustack(kb_str(&kb, a, 0, "bash"), a, 1, s2, 3), 0);
	fk_put(f, a, kb_ustack(kb_str(&kb, a, 0, "s;h\n"), a, 1, s1, 3), 0);
	fk_put(f, a, kb_ustack(kb_str(&kb, a, 0, "sh"), a, 1, s3, 2), 0);
	fk_put(f, a, kb_ustack(kb_str(&kb, a, 0, "sh"), a, 1, s3, 2), 0);
	fk_put(f, a, kb_ustack(kb_str(&kb, a, 0, "sh"), a, 1, s4, 2), 0);
	fk_put(f, a, kb_ustack(kb_str(&kb, a, 0, "sh"), a, 1, s4, 0), 0);
	char *out = folded(f, a);
	assert_string_equal(out,
			    "s\\x3bh\\n;libc.so.6`start;a.out`main;a.out`hot 1\n"
			    "sh 1\n"
			    "sh;a.out`hot;libx.so`we\\x3bird\\nname 1\n"
			    "sh;a.out`main;0x9000 2\n"
			    "bash;libc.so.6`start;a.out`main;a.out`hot 5\n");
	free(out);
	/* aggsortrev reverses; aggsortkey keeps the keys' order */
	f->dtp->core->opts.aggsortrev = true;
	out = folded(f, a);
	assert_true(strncmp(out, "bash;", 5) == 0);
	free(out);
	fk_close(f);
}

/* Merged lines fold as the function does: max() of the two, not their sum. */
static void test_folded_fold(void **state)
{
	struct fake *f = open_fake("folded");
	struct fk_agg *mx = fk_new(f, "mx", AGG_MAX), *av = fk_new(f, "av", AGG_AVG);
	struct fk_agg *q = fk_new(f, "q", AGG_QUANTIZE);
	static const uint64_t s1[] = { 0x1004 }, s2[] = { 0x1008 };
	struct fk_key kb;

	key_ustack(mx);
	key_ustack(av);
	key_ustack(q);
	fk_put(f, mx, kb_ustack(&kb, mx, 0, s1, 1), 7);
	fk_put(f, mx, kb_ustack(&kb, mx, 0, s2, 1), 9);
	fk_put(f, av, kb_ustack(&kb, av, 0, s1, 1), 10);
	fk_put(f, av, kb_ustack(&kb, av, 0, s2, 1), 20);
	fk_put(f, av, kb_ustack(&kb, av, 0, s2, 1), 30);
	fk_put(f, q, kb_ustack(&kb, q, 0, s1, 1), 3);
	fk_put(f, q, kb_ustack(&kb, q, 0, s2, 1), 1000);
	fk_put(f, q, kb_ustack(&kb, q, 0, s2, 1), -1);
	char *out = folded(f, mx);
	assert_string_equal(out, "a.out`hot 9\n");
	free(out);
	out = folded(f, av);
	assert_string_equal(out, "a.out`hot 20\n");
	free(out);
	/* a histogram's line: the number of values */
	out = folded(f, q);
	assert_string_equal(out, "a.out`hot 3\n");
	free(out);
	fk_close(f);
}

/* User frames, then the kernel's they called into; other aggregations as text. */
static void test_folded_kernel_exit(void **state)
{
	struct fake *f = open_fake("folded");
	struct fk_agg *a = fk_new(f, "a", AGG_SUM), *t = fk_new(f, "t", AGG_COUNT);
	static const uint64_t k[] = { 0xffffffff81000310ULL, 0xffffffff81000420ULL };
	static const uint64_t u[] = { 0x1004, 0x2000 };
	struct fk_key kb;

	fk_add_key(a, DT_AGGKEY_STACK, 3 * 8, 0, false);
	key_ustack(a);
	fk_key_int(t, 4, true);
	fk_put(f, a, kb_ustack(kb_stack(&kb, a, 0, k, 2), a, 1, u, 2), 5);
	fk_put(f, t, kb_int(&kb, t, 0, -3), 0);
	char *out = fk_exit_print(f);
	assert_string_equal(out, "a.out`main;a.out`hot;vmlinux`kfunc_4;vmlinux`kfunc_3 5\n"
				 "\n"
				 "       -3                1\n");
	free(out);
	fk_close(f);
}

static void test_folded_escape(void **state)
{
	struct dt_strbuf sb;

	dt_sb_init(&sb);
	dt_folded_escape(&sb, "a;b\\c\td\re\x01\x7f caf\xc3\xa9 \xff\xc3", 20);
	assert_string_equal(sb.s, "a\\x3bb\\\\c\\td\\re\\x01\\x7f caf\xc3\xa9 \\xff\\xc3");
	dt_sb_free(&sb);
}

/* ---- OpenMetrics ------------------------------------------------------------ */

static char *tmpdir(void)
{
	char *d = strdup("/tmp/test_oformats.XXXXXX");

	assert_non_null(mkdtemp(d));
	return d;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "r");
	char *buf = NULL;
	size_t n = 0;

	assert_non_null(fp);
	FILE *mem = open_memstream(&buf, &n);
	int c;
	while ((c = fgetc(fp)) != EOF)
		fputc(c, mem);
	fclose(fp);
	fclose(mem);
	if (len != NULL)
		*len = n;
	return buf;
}

static void test_openmetrics(void **state)
{
	struct fake *f = open_fake("openmetrics");
	struct fk_agg *c = fk_new(f, "calls", AGG_COUNT), *s = fk_new(f, "bytes", AGG_SUM);
	struct fk_agg *l = fk_new(f, "lat", AGG_LQUANTIZE), *n = fk_new(f, "_", AGG_STDDEV);
	struct fk_agg *e = fk_new(f, "empty", AGG_MIN);
	struct fk_key kb;
	char *dir = tmpdir(), *path;

	fk_key_str(c, 16);
	fk_key_int(c, 4, true);
	c->keys[0].name = "execname";
	c->keys[1].name = "execname";	/* taken: by position */
	fk_put(f, c, kb_int(kb_str(&kb, c, 0, "a\"b\\c\nd"), c, 1, 7), 0);
	fk_put(f, c, kb_int(kb_str(&kb, c, 0, "x\xff"), c, 1, 7), 0);
	fk_put(f, c, kb_int(kb_str(&kb, c, 0, "x\xfe"), c, 1, 7), 0);	/* the same series */
	s->ad.arg_signed = true;
	fk_put(f, s, NULL, -5);
	fk_lquant(f, l, 0, 30, 10);
	fk_key_str(l, 8);
	l->keys[0].name = "le";		/* reserved in a histogram */
	fk_put(f, l, kb_str(&kb, l, 0, "r"), -1);
	fk_put(f, l, kb_str(&kb, l, 0, "r"), 15);
	fk_put(f, l, kb_str(&kb, l, 0, "r"), 29);
	fk_put(f, l, kb_str(&kb, l, 0, "r"), 100);
	fk_put(f, n, NULL, 2);
	fk_put(f, n, NULL, 6);
	(void)e;
	assert_true(asprintf(&path, "%s/d.prom", dir) > 0);
	assert_int_equal(dtrace_set_format_file(f->dtp, path), 0);
	char *out = fk_exit_print(f);
	assert_string_equal(out, "");		/* all of it went to the file */
	free(out);
	out = slurp(path, NULL);
	assert_string_equal(out,
		"# HELP calls_total DTrace aggregation @calls, count()\n"
		"# TYPE calls_total counter\n"
		"calls_total{execname=\"a\\\"b\\\\c\\nd\",key1=\"7\"} 1\n"
		"calls_total{execname=\"x\xef\xbf\xbd\",key1=\"7\"} 2\n"
		"# HELP bytes DTrace aggregation @bytes, sum()\n"
		"# TYPE bytes gauge\n"
		"bytes -5\n"
		"# HELP lat DTrace aggregation @lat, lquantize()\n"
		"# TYPE lat histogram\n"
		"lat_bucket{key0=\"r\",le=\"-1\"} 1\n"
		"lat_bucket{key0=\"r\",le=\"9\"} 1\n"
		"lat_bucket{key0=\"r\",le=\"19\"} 2\n"
		"lat_bucket{key0=\"r\",le=\"29\"} 3\n"
		"lat_bucket{key0=\"r\",le=\"+Inf\"} 4\n"
		"lat_count{key0=\"r\"} 4\n"
		"# HELP _ DTrace aggregation @, stddev()\n"
		"# TYPE _ gauge\n"
		"_ 2\n"
		"# HELP empty DTrace aggregation @empty, min()\n"
		"# TYPE empty gauge\n"
		"# EOF\n");
	free(out);
	/* nothing left beside it */
	char *ls;
	assert_true(asprintf(&ls, "test $(ls -A %s | wc -l) = 1", dir) > 0);
	assert_int_equal(system(ls), 0);
	free(ls);
	unlink(path);
	rmdir(dir);
	free(path);
	free(dir);
	fk_close(f);
}

/* A file format without its file: refused before tracing. */
static void test_file_needed(void **state)
{
	struct fake *f = open_fake("pprof");

	assert_int_equal(dt_oformat_check(f->dtp->cons), -EINVAL);
	assert_non_null(strstr(dtrace_errmsg(f->dtp), "oformat=pprof writes a file"));
	assert_int_equal(dtrace_set_format_file(f->dtp, "/nonexistent-dir/p.pb.gz"), 0);
	assert_int_equal(dt_oformat_check(f->dtp->cons), -ENOENT);
	assert_int_equal(dtrace_oformat(f->dtp), DTRACE_OFORMAT_PPROF);
	fk_close(f);
}

/* ---- pprof ------------------------------------------------------------------ */

static Perftools__Profiles__Profile *read_profile(const char *path)
{
	size_t n;
	char *gz = slurp(path, &n);
	z_stream z = { 0 };
	size_t cap = 1 << 20;
	uint8_t *raw = malloc(cap);

	assert_non_null(raw);
	assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
	z.next_in = (unsigned char *)gz;
	z.avail_in = (uInt)n;
	z.next_out = raw;
	z.avail_out = (uInt)cap;
	assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
	Perftools__Profiles__Profile *p =
		perftools__profiles__profile__unpack(NULL, z.total_out, raw);
	inflateEnd(&z);
	free(raw);
	free(gz);
	assert_non_null(p);
	return p;
}

static const char *fname(const Perftools__Profiles__Profile *p, uint64_t loc)
{
	const Perftools__Profiles__Location *l = p->location[loc - 1];

	assert_int_equal(l->id, loc);
	if (l->n_line == 0)
		return "?";
	const Perftools__Profiles__Function *fn = p->function[l->line[0]->function_id - 1];
	return p->string_table[fn->name];
}

static void test_pprof(void **state)
{
	struct fake *f = open_fake("pprof");
	struct fk_agg *c = fk_new(f, "cpu", AGG_COUNT), *t = fk_new(f, "oncpu", AGG_SUM);
	struct fk_agg *m = fk_new(f, "most", AGG_MAX), *x = fk_new(f, "x", AGG_COUNT);
	static const uint64_t s1[] = { 0x1004, 0x2010, 0x3020 }, s2[] = { 0x3008, 0x9000 };
	static const uint64_t k[] = { 0xffffffff81000310ULL };
	struct fk_key kb;
	char *dir = tmpdir(), *path;

	fk_key_int(c, 4, true);
	c->keys[0].name = "pid";
	key_ustack(c);
	fk_put(f, c, kb_ustack(kb_int(&kb, c, 0, 42), c, 1, s1, 3), 0);
	fk_put(f, c, kb_ustack(kb_int(&kb, c, 0, 42), c, 1, s1, 3), 0);
	fk_put(f, c, kb_ustack(kb_int(&kb, c, 0, 42), c, 1, s2, 2), 0);
	fk_add_key(t, DT_AGGKEY_STACK, 2 * 8, 0, false);
	key_ustack(t);
	t->ad.value_ns = true;
	fk_put(f, t, kb_ustack(kb_stack(&kb, t, 0, k, 1), t, 1, s1, 3), 1500);
	key_ustack(m);
	fk_put(f, m, kb_ustack(&kb, m, 0, s1, 3), 5);
	fk_key_str(x, 8);
	fk_put(f, x, kb_str(&kb, x, 0, "text"), 0);
	assert_true(asprintf(&path, "%s/p.pb.gz", dir) > 0);
	assert_int_equal(dtrace_set_format_file(f->dtp, path), 0);
	char *out = fk_exit_print(f);
	/* max() does not add up: text, as the other aggregation */
	assert_string_equal(out, "\n"
				 "\n"
				 "              a.out`hot+0x4\n"
				 "              a.out`main+0x10\n"
				 "              libc.so.6`start+0x20\n"
				 "                5\n"
				 "  text                                                              1\n");
	free(out);
	Perftools__Profiles__Profile *p = read_profile(path);
	const char *const *st = (const char *const *)p->string_table;
	assert_string_equal(st[0], "");
	assert_int_equal(p->n_sample_type, 2);
	assert_string_equal(st[p->sample_type[0]->type], "cpu");
	assert_string_equal(st[p->sample_type[0]->unit], "count");
	assert_string_equal(st[p->sample_type[1]->type], "oncpu");
	assert_string_equal(st[p->sample_type[1]->unit], "nanoseconds");
	assert_int_equal(p->default_sample_type, p->sample_type[0]->type);
	assert_int_equal(p->n_sample, 3);
	/* printa() order: by value, the smaller first */
	const Perftools__Profiles__Sample *s = p->sample[0];
	assert_int_equal(s->n_value, 2);
	assert_int_equal(s->value[0], 1);
	assert_int_equal(s->value[1], 0);
	assert_int_equal(s->n_location_id, 2);
	assert_string_equal(fname(p, s->location_id[0]), "start");
	assert_int_equal(p->location[s->location_id[0] - 1]->address, 0x3008);
	/* libc came first, but the program is the main binary, pprof's first mapping */
	assert_string_equal(st[p->mapping[0]->filename], "/usr/bin/a.out");
	assert_int_equal(p->mapping[0]->id, 1);
	assert_int_equal(p->mapping[p->location[s->location_id[0] - 1]->mapping_id - 1]->filename,
			 p->mapping[1]->filename);
	assert_string_equal(fname(p, s->location_id[1]), "?");
	assert_int_equal(p->location[s->location_id[1] - 1]->mapping_id, 0);
	assert_int_equal(s->n_label, 1);
	assert_string_equal(st[s->label[0]->key], "pid");
	assert_int_equal(s->label[0]->num, 42);
	s = p->sample[1];
	assert_int_equal(s->value[0], 2);
	assert_int_equal(s->n_location_id, 3);
	assert_string_equal(fname(p, s->location_id[0]), "hot");
	assert_string_equal(fname(p, s->location_id[1]), "main");
	assert_string_equal(fname(p, s->location_id[2]), "start");
	const Perftools__Profiles__Location *l = p->location[s->location_id[2] - 1];
	assert_int_equal(l->address, 0x3020);
	const Perftools__Profiles__Mapping *mp = p->mapping[l->mapping_id - 1];
	assert_string_equal(st[mp->filename], "/lib/libc.so.6");
	assert_int_equal(mp->memory_start, 0x3000);
	assert_int_equal(mp->memory_limit, 0x5000);
	assert_int_equal(mp->file_offset, 0x2000);
	assert_true(mp->has_functions);
	/* kernel frames first, then the user frames that called into the kernel */
	s = p->sample[2];
	assert_int_equal(s->value[0], 0);
	assert_int_equal(s->value[1], 1500);
	assert_int_equal(s->n_location_id, 4);
	assert_string_equal(fname(p, s->location_id[0]), "kfunc_3");
	assert_string_equal(st[p->mapping[p->location[s->location_id[0] - 1]->mapping_id - 1]->filename],
			    "[kernel.kallsyms]");
	assert_string_equal(fname(p, s->location_id[1]), "hot");
	assert_int_equal(s->location_id[1], p->sample[1]->location_id[0]);	/* one location */
	assert_int_equal(p->n_function, 4);
	for (size_t i = 0; i < p->n_location; i++) {
		const Perftools__Profiles__Location *loc = p->location[i];
		if (loc->mapping_id != 0)
			assert_true(loc->address >= p->mapping[loc->mapping_id - 1]->memory_start &&
				    loc->address < p->mapping[loc->mapping_id - 1]->memory_limit);
	}
	perftools__profiles__profile__free_unpacked(p, NULL);
	unlink(path);
	rmdir(dir);
	free(path);
	free(dir);
	fk_close(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_folded_lines),
		cmocka_unit_test(test_folded_fold),
		cmocka_unit_test(test_folded_kernel_exit),
		cmocka_unit_test(test_folded_escape),
		cmocka_unit_test(test_openmetrics),
		cmocka_unit_test(test_file_needed),
		cmocka_unit_test(test_pprof),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
