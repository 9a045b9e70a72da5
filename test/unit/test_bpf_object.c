/*
 * The BPF object back end end to end: a hand-built struct bo_object is
 * written as ELF, linked with the run-time library, opened, loaded, run
 * with BPF_PROG_TEST_RUN, and read back through .bss and the ring buffer.
 * Loading needs root (BPF); those tests skip otherwise.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include "unit_skip.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "base/insn.h"
#include "base/object.h"
#include "bpf/elf_writer.h"
#include "bpf/link.h"
#include "bpf/load.h"

#define RB_BYTES "data!!!!"

static const char *const source[] = {
	"BEGIN {",				/* 1 */
	"  x = strcmp(\"hello\", \"hellp\");",	/* 2 */
	"  result = sub(x);",			/* 3 */
	"  trace(\"data!!!!\");",		/* 4 */
	"  y = uninitialized;",			/* 5 */
	"}",					/* 6 */
};

/* An object under construction, owning its functions. */
struct test_obj {
	struct bo_object obj;
	struct bo_func funcs[5];
};

static void emit(struct bo_func *f, struct bpf_insn insn)
{
	assert_int_equal(dt_vec_push(&f->insns, insn), 0);
}

static void emit_ld64(struct bo_func *f, uint8_t dst, int32_t imm)
{
	emit(f, I_LD_IMM64_LO(dst, 0, (uint32_t)imm));
	emit(f, I_LD_IMM64_HI(0));
}

/* Relocate the next instruction emitted. */
static void reloc(struct bo_func *f, enum bo_reloc_kind kind, const char *target)
{
	struct bo_reloc r = { (uint32_t)f->insns.n, kind, target };

	assert_int_equal(dt_vec_push(&f->relocs, r), 0);
}

static void line(struct bo_func *f, uint32_t n)
{
	struct bo_line l = { (uint32_t)f->insns.n, n, 3 };

	assert_int_equal(dt_vec_push(&f->lines, l), 0);
}

static struct bo_func *add_func(struct test_obj *t, const char *name, const char *section)
{
	struct bo_func *f = &t->funcs[t->obj.funcs.n];

	f->name = name;
	f->section = section;
	f->nargs = 1;
	assert_int_equal(dt_vec_push(&t->obj.funcs, f), 0);
	return f;
}

static void init_obj(struct test_obj *t)
{
	memset(t, 0, sizeof(*t));
	t->obj.license = "GPL";
	t->obj.source_name = "/some/dir/test.d";
	t->obj.source_lines = source;
	t->obj.nsource_lines = ARRAY_SIZE(source);
}

static void free_obj(struct test_obj *t)
{
	for (size_t i = 0; i < t->obj.funcs.n; i++) {
		dt_vec_free(&t->funcs[i].insns);
		dt_vec_free(&t->funcs[i].relocs);
		dt_vec_free(&t->funcs[i].lines);
	}
	dt_vec_free(&t->obj.funcs);
	dt_vec_free(&t->obj.maps);
	dt_vec_free(&t->obj.externs);
	dt_vec_free(&t->obj.bss_vars);
	dt_vec_free(&t->obj.rodata);
}

/*
 * prog (raw_tp): result = sub(dt_rt_strcmp("hello", "hellp", 8)), then
 *   bpf_ringbuf_output(&rb, "data!!!!", 8, 0).
 * tp (tracepoint): sub(1), in a second program section.
 * prog2 (raw_tp): pad = sub(5).
 * sub (.text): return a0 + 100.
 */
static void build_good(struct test_obj *t)
{
	static const char rodata[16] = "hello\0\0\0hellp";
	struct bo_map rb = { "rb", BPF_MAP_TYPE_RINGBUF, 0, 0, 4096, 0 };
	/* Sized down before loading; BTF must take the original size. */
	struct bo_map h = { "h", BPF_MAP_TYPE_HASH, 8, 16, 1u << 31, BPF_F_NO_PREALLOC };
	struct bo_var pad = { "dt_test_pad", 0, 8 }, result = { "dt_test_result", 8, 8 };
	struct bo_extern strcmp_rt = { "dt_rt_strcmp", 3 };
	struct bo_func *f;

	init_obj(t);
	for (size_t i = 0; i < sizeof(rodata); i++)
		assert_int_equal(dt_vec_push(&t->obj.rodata, (uint8_t)rodata[i]), 0);
	assert_int_equal(dt_vec_push(&t->obj.maps, rb), 0);
	assert_int_equal(dt_vec_push(&t->obj.maps, h), 0);
	assert_int_equal(dt_vec_push(&t->obj.bss_vars, pad), 0);
	assert_int_equal(dt_vec_push(&t->obj.bss_vars, result), 0);
	assert_int_equal(dt_vec_push(&t->obj.externs, strcmp_rt), 0);
	t->obj.bss_size = 16;

	f = add_func(t, "prog", "raw_tp");
	/* The kernel takes one line record per instruction, none on the
	 * second half of an ld_imm64: the writer must drop these. */
	line(f, 6);
	line(f, 1);
	emit(f, I_MOV64_REG(BPF_R6, BPF_R1));
	line(f, 2);
	reloc(f, BO_RELOC_RODATA, NULL);
	emit_ld64(f, BPF_R1, 0);
	line(f, 2);
	f->lines.v[f->lines.n - 1].insn--;
	reloc(f, BO_RELOC_RODATA, NULL);
	emit_ld64(f, BPF_R2, 8);
	emit(f, I_MOV64_IMM(BPF_R3, 8));
	reloc(f, BO_RELOC_CALL, "dt_rt_strcmp");
	emit(f, I_CALL_PSEUDO());
	line(f, 3);
	emit(f, I_MOV64_REG(BPF_R1, BPF_R0));
	reloc(f, BO_RELOC_CALL, "sub");
	emit(f, I_CALL_PSEUDO());
	reloc(f, BO_RELOC_BSS, NULL);
	emit_ld64(f, BPF_R1, 8);
	emit(f, I_STX(BPF_DW, BPF_R1, BPF_R0, 0));
	line(f, 4);
	emit(f, I_ST(BPF_W, BPF_FP, -8, 0x61746164));	/* "data" */
	emit(f, I_ST(BPF_W, BPF_FP, -4, 0x21212121));	/* "!!!!" */
	reloc(f, BO_RELOC_MAP_FD, "rb");
	emit_ld64(f, BPF_R1, 0);
	emit(f, I_MOV64_REG(BPF_R2, BPF_FP));
	emit(f, I_ALU64_IMM(BPF_ADD, BPF_R2, -8));
	emit(f, I_MOV64_IMM(BPF_R3, 8));
	emit(f, I_MOV64_IMM(BPF_R4, 0));
	emit(f, I_CALL_HELPER(BPF_FUNC_ringbuf_output));
	emit(f, I_MOV64_IMM(BPF_R0, 0));
	emit(f, I_EXIT());

	f = add_func(t, "sub", NULL);
	line(f, 3);
	emit(f, I_MOV64_REG(BPF_R0, BPF_R1));
	emit(f, I_ALU64_IMM(BPF_ADD, BPF_R0, 100));
	emit(f, I_EXIT());

	f = add_func(t, "tp", "tracepoint");
	line(f, 6);
	emit(f, I_MOV64_IMM(BPF_R1, 1));
	reloc(f, BO_RELOC_CALL, "sub");
	emit(f, I_CALL_PSEUDO());
	emit(f, I_MOV64_IMM(BPF_R0, 0));
	emit(f, I_EXIT());

	f = add_func(t, "prog2", "raw_tp");
	/* no line info: the writer gives it one at instruction 0 */
	emit(f, I_MOV64_IMM(BPF_R1, 5));
	reloc(f, BO_RELOC_CALL, "sub");
	emit(f, I_CALL_PSEUDO());
	reloc(f, BO_RELOC_BSS, NULL);
	emit_ld64(f, BPF_R1, 0);
	emit(f, I_STX(BPF_DW, BPF_R1, BPF_R0, 0));
	emit(f, I_MOV64_IMM(BPF_R0, 0));
	emit(f, I_EXIT());
}

/* A program reading a register nobody wrote, on source line 5. */
static void build_bad(struct test_obj *t)
{
	struct bo_func *f;

	init_obj(t);
	f = add_func(t, "bad", "raw_tp");
	line(f, 1);
	emit(f, I_MOV64_IMM(BPF_R0, 0));
	line(f, 5);
	emit(f, I_MOV64_REG(BPF_R0, BPF_R2));
	line(f, 6);
	emit(f, I_EXIT());
}

/* A program passing a non-pointer to a run-time function (line 2). */
static void build_bad_call(struct test_obj *t)
{
	struct bo_extern strcmp_rt = { "dt_rt_strcmp", 3 };
	struct bo_func *f;

	init_obj(t);
	assert_int_equal(dt_vec_push(&t->obj.externs, strcmp_rt), 0);
	f = add_func(t, "bad_call", "raw_tp");
	line(f, 1);
	emit(f, I_MOV64_IMM(BPF_R1, 0));
	emit(f, I_MOV64_IMM(BPF_R2, 0));
	line(f, 2);
	emit(f, I_MOV64_IMM(BPF_R3, 8));
	reloc(f, BO_RELOC_CALL, "dt_rt_strcmp");
	emit(f, I_CALL_PSEUDO());
	line(f, 6);
	emit(f, I_EXIT());
}

/* Write and link; returns the linked bytes (caller frees). */
static void *write_and_link(const struct bo_object *obj, size_t *sizep)
{
	char err[512] = "";
	void *elf, *linked;
	size_t size;

	if (bo_write_elf(obj, &elf, &size, err, sizeof(err)) < 0)
		fail_msg("bo_write_elf: %s", err);
	assert_true(size > 64);
	if (bo_link(elf, size, &linked, sizep, err, sizeof(err)) < 0) {
		free(elf);
		fail_msg("bo_link: %s", err);
	}
	free(elf);
	return linked;
}

static struct bpf_object *open_obj(const struct bo_object *obj)
{
	char err[512] = "";
	struct bpf_object *bobj;
	size_t size;
	void *linked = write_and_link(obj, &size);
	int rc = bo_open(linked, size, &bobj, err, sizeof(err));

	free(linked);	/* the opened object must not need the bytes */
	if (rc < 0)
		fail_msg("bo_open: %s", err);
	return bobj;
}

static void test_open(void **state)
{
	struct test_obj t;
	struct bpf_object *obj;
	struct bpf_program *prog;
	struct bpf_map *map;
	size_t size = 0;
	int n = 0;

	(void)state;
	build_good(&t);
	obj = open_obj(&t.obj);
	bpf_object__for_each_program(prog, obj) {
		assert_int_equal(bpf_program__type(prog),
				 strcmp(bpf_program__name(prog), "tp") == 0 ?
				 BPF_PROG_TYPE_TRACEPOINT : BPF_PROG_TYPE_RAW_TRACEPOINT);
		n++;
	}
	assert_int_equal(n, 3);
	assert_non_null(bpf_object__find_program_by_name(obj, "prog"));
	assert_non_null(bpf_object__find_program_by_name(obj, "prog2"));
	assert_null(bpf_object__find_program_by_name(obj, "sub"));
	assert_int_equal(bpf_map__type(bpf_object__find_map_by_name(obj, "rb")),
			 BPF_MAP_TYPE_RINGBUF);
	map = bpf_object__find_map_by_name(obj, "h");
	assert_non_null(map);
	assert_int_equal(bpf_map__type(map), BPF_MAP_TYPE_HASH);
	assert_int_equal(bpf_map__key_size(map), 8);
	assert_int_equal(bpf_map__value_size(map), 16);
	assert_int_equal(bpf_map__max_entries(map), 1u << 31);
	assert_int_equal(bpf_map__map_flags(map), BPF_F_NO_PREALLOC);
	/* Before loading: the initial (zero) image, at our offset. */
	assert_non_null(bo_bss_var(obj, "dt_test_pad", &size));
	assert_int_equal(size, 8);
	assert_ptr_equal((char *)bo_bss_var(obj, "dt_test_result", NULL),
			 (char *)bo_bss_var(obj, "dt_test_pad", NULL) + 8);
	assert_null(bo_bss_var(obj, "nonexistent", NULL));
	bo_close(obj);
	free_obj(&t);
}

static void expect_write_error(const struct bo_object *obj, const char *needle)
{
	char err[512] = "";
	void *elf = NULL;
	size_t size;

	assert_true(bo_write_elf(obj, &elf, &size, err, sizeof(err)) < 0);
	assert_null(elf);
	if (strstr(err, needle) == NULL)
		fail_msg("error '%s' lacks '%s'", err, needle);
}

static void test_write_errors(void **state)
{
	struct test_obj t;
	struct bo_var overlap = { "dt_test_overlap", 12, 8 };

	(void)state;
	build_good(&t);
	t.obj.externs.n = 0;
	expect_write_error(&t.obj, "calls 'dt_rt_strcmp'");
	t.obj.externs.n = 1;
	assert_int_equal(dt_vec_push(&t.obj.bss_vars, overlap), 0);
	expect_write_error(&t.obj, "overlap");
	t.obj.bss_vars.n--;
	t.funcs[0].relocs.v[0].insn = 0;	/* a RODATA relocation on a mov */
	expect_write_error(&t.obj, "does not fit opcode");
	free_obj(&t);
}

static void test_link_unknown_runtime_function(void **state)
{
	struct test_obj t;
	char err[512] = "";
	void *elf, *linked = NULL;
	size_t size, lsize;

	(void)state;
	build_good(&t);
	t.obj.externs.v[0].name = "dt_rt_no_such_function";
	t.funcs[0].relocs.v[2].target = "dt_rt_no_such_function";
	assert_int_equal(bo_write_elf(&t.obj, &elf, &size, err, sizeof(err)), 0);
	assert_true(bo_link(elf, size, &linked, &lsize, err, sizeof(err)) < 0);
	assert_null(linked);
	assert_non_null(strstr(err, "dt_rt_no_such_function"));
	free(elf);
	free_obj(&t);
}

/* Open file descriptors of this process: nothing may stay open. */
static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	assert_non_null(d);
	while (readdir(d) != NULL)
		n++;
	closedir(d);
	return n;
}

struct rb_seen {
	char data[64];
	size_t size;
	int records;
};

static int rb_record(void *ctx, void *data, size_t size)
{
	struct rb_seen *seen = ctx;

	seen->records++;
	seen->size = size;
	memcpy(seen->data, data, size < sizeof(seen->data) ? size : sizeof(seen->data));
	return 0;
}

static void run(struct bpf_object *obj, const char *name, __u32 nfuncs)
{
	struct bpf_program *prog = bpf_object__find_program_by_name(obj, name);
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	int fd;

	assert_non_null(prog);
	fd = bpf_program__fd(prog);
	assert_true(fd >= 0);
	assert_int_equal(bpf_prog_test_run_opts(fd, &opts), 0);
	assert_int_equal(opts.retval, 0);
	/* The kernel got func and line info for every function. */
	memset(&info, 0, sizeof(info));
	assert_int_equal(bpf_obj_get_info_by_fd(fd, &info, &len), 0);
	assert_int_equal(info.nr_func_info, nfuncs);
	assert_true(info.nr_line_info >= nfuncs);
}

static void test_load_and_run(void **state)
{
	struct test_obj t;
	struct bpf_object *obj;
	struct bpf_map *rb;
	struct ring_buffer *ring;
	struct rb_seen seen = { 0 };
	char err[512] = "";
	uint64_t *result, *pad;
	int fds = count_fds();

	(void)state;
	if (geteuid() != 0)
		unit_skip("loading BPF programs needs root");
	build_good(&t);
	obj = open_obj(&t.obj);
	rb = bpf_object__find_map_by_name(obj, "rb");
	assert_int_equal(bpf_map__set_max_entries(rb, 16384), 0);
	assert_int_equal(bpf_map__set_max_entries(bpf_object__find_map_by_name(obj, "h"), 64), 0);
	bool cut = true;
	if (bo_load(obj, "test.d", 256 * 1024, NULL, &cut, err, sizeof(err)) < 0)
		fail_msg("bo_load: %s", err);
	assert_false(cut);
	assert_int_equal(bpf_map__max_entries(rb), 16384);
	assert_true(btf__fd(bpf_object__btf(obj)) >= 0);

	result = bo_bss_var(obj, "dt_test_result", NULL);
	pad = bo_bss_var(obj, "dt_test_pad", NULL);
	assert_non_null(result);
	assert_non_null(pad);
	run(obj, "prog", 3);	/* prog, sub, dt_rt_strcmp */
	run(obj, "prog2", 2);	/* prog2, sub */
	assert_int_equal(*result, 99);	/* strcmp("hello", "hellp") = -1, + 100 */
	assert_int_equal(*pad, 105);

	ring = ring_buffer__new(bpf_map__fd(rb), rb_record, &seen, NULL);
	assert_non_null(ring);
	assert_int_equal(ring_buffer__consume(ring), 1);
	ring_buffer__free(ring);
	assert_int_equal(seen.records, 1);
	assert_int_equal(seen.size, 8);
	assert_memory_equal(seen.data, RB_BYTES, 8);

	bo_close(obj);
	free_obj(&t);
	assert_int_equal(count_fds(), fds);
}

static void expect_rejection_log(struct test_obj *t, size_t log_size, bool want_cut,
				 const char *prog, const char *pos, const char *reason)
{
	int fds = count_fds();
	struct bpf_object *obj = open_obj(&t->obj);
	struct bpf_program *failed = NULL;
	char err[512] = "";
	bool cut = !want_cut;

	assert_true(bo_load(obj, "test.d", log_size, &failed, &cut, err, sizeof(err)) < 0);
	assert_int_equal(cut, want_cut);
	if (want_cut) {		/* only that the caller should load again */
		assert_non_null(failed);
		bo_close(obj);
		free_obj(t);
		assert_int_equal(count_fds(), fds);
		return;
	}
	print_message("verifier error: %s\n", err);
	if (strstr(err, pos) != err || strstr(err, reason) == NULL)
		fail_msg("unexpected message: %s", err);
	assert_non_null(failed);
	assert_string_equal(bpf_program__name(failed), prog);
	bo_close(obj);
	free_obj(t);
	assert_int_equal(count_fds(), fds);
}

static void expect_rejection(struct test_obj *t, const char *prog, const char *pos,
			     const char *reason)
{
	expect_rejection_log(t, 256 * 1024, false, prog, pos, reason);
}

static void test_verifier_error(void **state)
{
	struct test_obj t;

	(void)state;
	if (geteuid() != 0)
		unit_skip("loading BPF programs needs root");
	build_bad(&t);
	expect_rejection(&t, "bad", "BPF verifier rejected the clause at test.d:5: ", "R2 !read_ok");
}

/* Failing inside a run-time function names the D line that called it. */
static void test_verifier_error_in_runtime(void **state)
{
	struct test_obj t;

	(void)state;
	if (geteuid() != 0)
		unit_skip("loading BPF programs needs root");
	build_bad_call(&t);
	expect_rejection(&t, "bad_call", "BPF verifier rejected the clause at test.d:2: ",
			 "invalid mem access");
}

/* A log larger than its buffer is reported as cut: the caller retries. */
static void test_verifier_log_cut(void **state)
{
	struct test_obj t;

	(void)state;
	if (geteuid() != 0)
		unit_skip("loading BPF programs needs root");
	build_bad(&t);
	expect_rejection_log(&t, 128, true, "bad", NULL, NULL);
}

/* libbpf's own messages only with BO_TEST_LIBBPF_DEBUG set; the
 * callbacks hold no state (libbpf's print hook is process-wide). */
static int libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static int libbpf_stderr(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	return vfprintf(stderr, fmt, ap);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open),
		cmocka_unit_test(test_write_errors),
		cmocka_unit_test(test_link_unknown_runtime_function),
		cmocka_unit_test(test_load_and_run),
		cmocka_unit_test(test_verifier_error),
		cmocka_unit_test(test_verifier_error_in_runtime),
		cmocka_unit_test(test_verifier_log_cut),
	};

	libbpf_set_print(getenv("BO_TEST_LIBBPF_DEBUG") ? libbpf_stderr : libbpf_quiet);
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
