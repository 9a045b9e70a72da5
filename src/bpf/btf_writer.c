/*
 * .BTF and .BTF.ext of a generated object, built with libbpf's btf API.
 *
 * Maps are encoded as libbpf parses BTF-defined maps (`__uint(type, N)` is
 * a member `int (*type)[N]`), .bss variables as byte arrays in a DATASEC,
 * every function as a FUNC whose prototype takes and returns u64, and every
 * run-time function called as an extern FUNC, as clang emits for
 * `extern __u64 f(__u64, ...) __attribute__((visibility("hidden")))`.
 */
#include "bpf/elf_layout.h"

#include <bpf/btf.h>
#include <errno.h>
#include <linux/btf.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/errmsg.h"

/* .BTF.ext header as libbpf and the kernel read it (offsets after it). */
struct ext_header {
	uint16_t magic;
	uint8_t version;
	uint8_t flags;
	uint32_t hdr_len;
	uint32_t func_info_off;
	uint32_t func_info_len;
	uint32_t line_info_off;
	uint32_t line_info_len;
	uint32_t core_relo_off;
	uint32_t core_relo_len;
};

#define FUNC_INFO_REC 8		/* insn_off (bytes), type_id */
#define LINE_INFO_REC 16	/* insn_off (bytes), file_name_off, line_off, line_col */
#define MAX_ARGS 5

struct bytes {
	uint8_t *v;
	size_t n, cap;
};

struct array_type {
	int elem;
	uint32_t nelems;
	int id;			/* the ARRAY, or the PTR to it for map attributes */
};

struct btf_ctx {
	const struct bo_object *obj;
	const struct bo_layout *lay;
	struct btf *btf;
	int u64, idx, u8;
	int proto[MAX_ARGS + 1];	/* prototypes of defined functions by nargs */
	int *func;			/* FUNC of each function */
	struct {
		struct array_type *v;
		size_t n, cap;
	} arrays, attr_ptrs;
	int err;			/* first libbpf error */
};

uint32_t bo_map_def_size(const struct bo_map *m)
{
	return 8 * (2 + (m->key_size != 0) + (m->value_size != 0) + (m->flags != 0));
}

/* Remember the first libbpf failure; pass IDs through. */
static int chk(struct btf_ctx *c, int id)
{
	if (id < 0 && c->err == 0)
		c->err = id;
	return id;
}

static int array_of(struct btf_ctx *c, int elem, uint32_t nelems)
{
	for (size_t i = 0; i < c->arrays.n; i++)
		if (c->arrays.v[i].elem == elem && c->arrays.v[i].nelems == nelems)
			return c->arrays.v[i].id;
	int id = chk(c, btf__add_array(c->btf, c->idx, elem, nelems));
	struct array_type a = { elem, nelems, id };
	if (id > 0 && dt_vec_push(&c->arrays, a) < 0)
		chk(c, -ENOMEM);
	return id;
}

/*
 * `T (*)[value]`: how BTF-defined maps spell an integer attribute (clang
 * uses int for T; a byte array keeps any u32 value under the kernel's
 * limit on array sizes).
 */
static int attr_type(struct btf_ctx *c, uint32_t value)
{
	for (size_t i = 0; i < c->attr_ptrs.n; i++)
		if (c->attr_ptrs.v[i].nelems == value)
			return c->attr_ptrs.v[i].id;
	int arr = array_of(c, c->u8, value);
	int id = arr > 0 ? chk(c, btf__add_ptr(c->btf, arr)) : arr;
	struct array_type a = { c->u8, value, id };
	if (id > 0 && dt_vec_push(&c->attr_ptrs, a) < 0)
		chk(c, -ENOMEM);
	return id;
}

/* Prototype `u64 (u64, ...)`; defined functions need named parameters. */
static int add_proto(struct btf_ctx *c, unsigned nargs, bool named)
{
	static const char *const names[MAX_ARGS] = { "a0", "a1", "a2", "a3", "a4" };
	int id = chk(c, btf__add_func_proto(c->btf, c->u64));

	for (unsigned i = 0; i < nargs && id > 0; i++)
		chk(c, btf__add_func_param(c->btf, named ? names[i] : NULL, c->u64));
	return id;
}

static void add_funcs(struct btf_ctx *c)
{
	const struct bo_object *obj = c->obj;

	for (size_t i = 0; i < obj->funcs.n; i++) {
		const struct bo_func *f = obj->funcs.v[i];

		if (c->proto[f->nargs] == 0)
			c->proto[f->nargs] = add_proto(c, f->nargs, true);
		c->func[i] = chk(c, btf__add_func(c->btf, f->name,
						  f->section ? BTF_FUNC_GLOBAL : BTF_FUNC_STATIC,
						  c->proto[f->nargs]));
	}
	/* Each extern gets its own prototype: the linker fills in the
	 * parameter names of the definition it resolves to. */
	for (size_t i = 0; i < obj->externs.n; i++) {
		const struct bo_extern *x = &obj->externs.v[i];

		chk(c, btf__add_func(c->btf, x->name, BTF_FUNC_EXTERN,
				     add_proto(c, x->nargs, false)));
	}
}

static int add_map_def(struct btf_ctx *c, const struct bo_map *m)
{
	const struct {
		const char *name;
		uint32_t value;
		bool always;
	} attrs[] = {
		{ "type", m->type, true },
		{ "key_size", m->key_size, false },
		{ "value_size", m->value_size, false },
		{ "max_entries", m->max_entries, true },
		{ "map_flags", m->flags, false },
	};
	int types[ARRAY_SIZE(attrs)];
	uint32_t bit = 0;
	int st;

	/* Member types first: fields must directly follow their struct. */
	for (size_t i = 0; i < ARRAY_SIZE(attrs); i++)
		types[i] = attrs[i].always || attrs[i].value ? attr_type(c, attrs[i].value) : 0;
	st = chk(c, btf__add_struct(c->btf, NULL, bo_map_def_size(m)));
	for (size_t i = 0; i < ARRAY_SIZE(attrs) && st > 0; i++) {
		if (types[i] == 0)
			continue;
		chk(c, btf__add_field(c->btf, attrs[i].name, types[i], bit, 0));
		bit += 64;
	}
	return chk(c, btf__add_var(c->btf, m->name, BTF_VAR_GLOBAL_ALLOCATED, st));
}

static void add_maps(struct btf_ctx *c)
{
	const struct bo_object *obj = c->obj;
	size_t n = obj->maps.n;

	if (n == 0)
		return;
	int *vars = calloc(n, sizeof(*vars));
	if (vars == NULL) {
		chk(c, -ENOMEM);
		return;
	}
	for (size_t i = 0; i < n; i++)
		vars[i] = add_map_def(c, &obj->maps.v[i]);
	if (chk(c, btf__add_datasec(c->btf, ".maps", c->lay->maps_size)) > 0)
		for (size_t i = 0; i < n; i++)
			chk(c, btf__add_datasec_var_info(c->btf, vars[i], c->lay->map_off[i],
							 bo_map_def_size(&obj->maps.v[i])));
	free(vars);
}

static int cmp_var_offset(const void *a, const void *b)
{
	const struct bo_var *x = *(const struct bo_var *const *)a;
	const struct bo_var *y = *(const struct bo_var *const *)b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* .bss variables as byte arrays; the kernel wants them sorted by offset. */
static void add_bss(struct btf_ctx *c)
{
	const struct bo_object *obj = c->obj;
	size_t n = obj->bss_vars.n;

	if (obj->bss_size == 0)
		return;
	const struct bo_var **sorted = calloc(n + 1, sizeof(*sorted));
	int *vars = calloc(n + 1, sizeof(*vars));
	if (sorted == NULL || vars == NULL) {
		chk(c, -ENOMEM);
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		sorted[i] = &obj->bss_vars.v[i];
	qsort(sorted, n, sizeof(*sorted), cmp_var_offset);
	for (size_t i = 0; i < n; i++)
		vars[i] = chk(c, btf__add_var(c->btf, sorted[i]->name, BTF_VAR_GLOBAL_ALLOCATED,
					      array_of(c, c->u8, sorted[i]->size)));
	if (chk(c, btf__add_datasec(c->btf, ".bss", obj->bss_size)) > 0)
		for (size_t i = 0; i < n; i++)
			chk(c, btf__add_datasec_var_info(c->btf, vars[i], sorted[i]->offset,
							 sorted[i]->size));
out:
	free(sorted);
	free(vars);
}

static void put(struct bytes *b, const void *p, size_t n, struct btf_ctx *c)
{
	if (dt_vec_reserve(b, b->n + n) < 0) {
		chk(c, -ENOMEM);
		return;
	}
	memcpy(b->v + b->n, p, n);
	b->n += n;
}

static void put32(struct bytes *b, uint32_t v, struct btf_ctx *c)
{
	put(b, &v, sizeof(v), c);
}

static void func_info(struct btf_ctx *c, struct bytes *b)
{
	const struct bo_object *obj = c->obj;

	put32(b, FUNC_INFO_REC, c);
	for (size_t s = 0; s < c->lay->ncode; s++) {
		uint32_t n = 0;

		for (size_t i = 0; i < obj->funcs.n; i++)
			n += c->lay->func_code[i] == s;
		if (n == 0)
			continue;
		put32(b, (uint32_t)chk(c, btf__add_str(c->btf, c->lay->code_name[s])), c);
		put32(b, n, c);
		for (size_t i = 0; i < obj->funcs.n; i++) {
			if (c->lay->func_code[i] != s)
				continue;
			put32(b, c->lay->func_off[i], c);
			put32(b, (uint32_t)c->func[i], c);
		}
	}
}

static bool is_ld_imm64(const struct bpf_insn *insn)
{
	return insn->code == (BPF_LD | BPF_IMM | BPF_DW);
}

/*
 * A function's line records as the kernel accepts them: sorted, one per
 * instruction (the last pushed wins), none on the second half of an
 * ld_imm64, and one at instruction 0 (the kernel wants every subprogram
 * to start with line info once any has it, and the run-time has it).
 * Returns the count, or a negative errno.
 */
static int func_lines(const struct bo_func *f, struct bo_line **outp, char *err, size_t errlen)
{
	size_t n = f->lines.n, k = 0, m = 0;
	struct bo_line *l = malloc((n + 1) * sizeof(*l));

	if (l == NULL)
		return bo_errf(err, errlen, -ENOMEM, "out of memory");
	/* Insertion sort: stable, and line records come nearly sorted. */
	for (size_t i = 0; i < n; i++) {
		struct bo_line x = f->lines.v[i];
		size_t j = i;

		if (x.insn >= f->insns.n) {
			free(l);
			return bo_errf(err, errlen, -EINVAL,
				       "function '%s': line info for instruction %u of %zu",
				       f->name, x.insn, f->insns.n);
		}
		for (; j > 0 && l[j - 1].insn > x.insn; j--)
			l[j] = l[j - 1];
		l[j] = x;
	}
	for (size_t i = 0; i < n; i++) {
		if (k > 0 && l[k - 1].insn == l[i].insn)
			k--;
		l[k++] = l[i];
	}
	for (size_t i = 0, pos = 0; i < k; i++) {
		while (pos < l[i].insn)
			pos += is_ld_imm64(&f->insns.v[pos]) ? 2 : 1;
		if (pos == l[i].insn)
			l[m++] = l[i];
	}
	k = m;
	if (k == 0 || l[0].insn != 0) {
		memmove(l + 1, l, k * sizeof(*l));
		l[0].insn = 0;
		l[0].line = k > 0 ? l[1].line : 0;
		l[0].col = 0;
		k++;
	}
	*outp = l;
	return (int)k;
}

static const char *line_text(const struct bo_object *obj, uint32_t line)
{
	if (obj->source_lines == NULL || line == 0 || line > obj->nsource_lines ||
	    obj->source_lines[line - 1] == NULL)
		return "";
	return obj->source_lines[line - 1];
}

static int line_info(struct btf_ctx *c, struct bytes *b, char *err, size_t errlen)
{
	const struct bo_object *obj = c->obj;
	int file = chk(c, btf__add_str(c->btf, obj->source_name ? obj->source_name : ""));

	put32(b, LINE_INFO_REC, c);
	for (size_t s = 0; s < c->lay->ncode; s++) {
		size_t hdr = b->n;
		uint32_t n = 0;

		put32(b, (uint32_t)chk(c, btf__add_str(c->btf, c->lay->code_name[s])), c);
		put32(b, 0, c);		/* num_info, patched below */
		for (size_t i = 0; i < obj->funcs.n; i++) {
			struct bo_line *l = NULL;
			int k;

			if (c->lay->func_code[i] != s)
				continue;
			k = func_lines(obj->funcs.v[i], &l, err, errlen);
			if (k < 0)
				return k;
			for (int j = 0; j < k; j++) {
				uint32_t col = l[j].col > 0x3ff ? 0x3ff : l[j].col;

				put32(b, c->lay->func_off[i] + l[j].insn * 8, c);
				put32(b, (uint32_t)file, c);
				put32(b, (uint32_t)chk(c, btf__add_str(c->btf,
						line_text(obj, l[j].line))), c);
				put32(b, l[j].line << 10 | col, c);
			}
			n += (uint32_t)k;
			free(l);
		}
		if (c->err)
			break;
		if (n == 0)
			b->n = hdr;	/* libbpf rejects empty per-section blocks */
		else
			memcpy(b->v + hdr + 4, &n, sizeof(n));
	}
	return 0;
}

static int build_ext(struct btf_ctx *c, struct bytes *ext, char *err, size_t errlen)
{
	struct bytes fi = { 0 }, li = { 0 };
	struct ext_header h = {
		.magic = BTF_MAGIC,
		.version = 1,
		.hdr_len = sizeof(h),
	};
	int rc;

	/* Without functions there is no .BTF.ext: libbpf refuses an empty one. */
	if (c->obj->funcs.n == 0)
		return 0;
	func_info(c, &fi);
	rc = line_info(c, &li, err, errlen);
	if (rc == 0 && c->err == 0) {
		h.func_info_off = 0;
		h.func_info_len = (uint32_t)fi.n;
		h.line_info_off = (uint32_t)fi.n;
		h.line_info_len = (uint32_t)li.n;
		h.core_relo_off = (uint32_t)(fi.n + li.n);
		put(ext, &h, sizeof(h), c);
		put(ext, fi.v, fi.n, c);
		put(ext, li.v, li.n, c);
	}
	free(fi.v);
	free(li.v);
	return rc;
}

int bo_build_btf(const struct bo_object *obj, const struct bo_layout *lay,
		 void **btfp, size_t *btf_sizep, void **extp, size_t *ext_sizep,
		 char *err, size_t errlen)
{
	struct btf_ctx c = { .obj = obj, .lay = lay };
	struct bytes ext = { 0 };
	const void *raw;
	uint32_t raw_size;
	int rc = 0;

	*btfp = *extp = NULL;
	c.btf = btf__new_empty();
	c.func = calloc(obj->funcs.n + 1, sizeof(*c.func));
	if (c.btf == NULL || c.func == NULL) {
		rc = bo_errf(err, errlen, -ENOMEM, "out of memory building BTF");
		goto out;
	}
	c.u64 = chk(&c, btf__add_int(c.btf, "unsigned long long", 8, 0));
	c.idx = chk(&c, btf__add_int(c.btf, "__ARRAY_SIZE_TYPE__", 4, 0));
	c.u8 = chk(&c, btf__add_int(c.btf, "unsigned char", 1, 0));
	add_funcs(&c);
	add_maps(&c);
	add_bss(&c);
	rc = build_ext(&c, &ext, err, errlen);
	if (rc < 0)
		goto out;
	if (c.err < 0) {
		rc = bo_errf(err, errlen, c.err, "building BTF: %s", strerror(-c.err));
		goto out;
	}
	raw = btf__raw_data(c.btf, &raw_size);
	*btfp = raw ? malloc(raw_size) : NULL;
	if (*btfp == NULL) {
		rc = bo_errf(err, errlen, -ENOMEM, "out of memory building BTF");
		goto out;
	}
	memcpy(*btfp, raw, raw_size);
	*btf_sizep = raw_size;
	*extp = ext.v;
	*ext_sizep = ext.n;
	ext.v = NULL;
out:
	free(ext.v);
	free(c.func);
	free(c.arrays.v);
	free(c.attr_ptrs.v);
	btf__free(c.btf);
	return rc;
}
