/* The D type system: built-in types, derived types, lookup, naming. */
#include "base/types.h"

#include <bpf/btf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct dt_type *dt_type_new(struct dt_typetab *tt, enum dt_tkind kind, const char *name)
{
	struct dt_type *t = dt_arena_zalloc(&tt->arena, sizeof(*t));

	if (t == NULL)
		return NULL;
	t->kind = kind;
	t->name = name ? dt_arena_strdup(&tt->arena, name) : NULL;
	return t;
}

static struct dt_type *mkint(struct dt_typetab *tt, const char *name, uint32_t size,
			     bool is_signed, bool is_char)
{
	struct dt_type *t = dt_type_new(tt, TK_INT, name);

	if (t == NULL)
		return NULL;
	t->size = t->align = size;
	t->is_signed = is_signed;
	t->is_char = is_char;
	if (dt_htab_put(&tt->names, t->name, t) < 0)
		return NULL;
	return t;
}

static struct dt_type *mktypedef(struct dt_typetab *tt, const char *name, struct dt_type *base)
{
	struct dt_type *t = dt_type_new(tt, TK_TYPEDEF, name);

	if (t == NULL || base == NULL)
		return NULL;
	t->base = base;
	t->size = base->size;
	t->align = base->align;
	if (dt_htab_put(&tt->names, t->name, t) < 0)
		return NULL;
	return t;
}

/* Alternative spellings of the intrinsic integer types. */
static const struct {
	const char *alias, *name;
} int_aliases[] = {
	{ "signed", "int" }, { "unsigned", "unsigned int" }, { "signed int", "int" },
	{ "short int", "short" }, { "signed short", "short" }, { "signed short int", "short" },
	{ "unsigned short int", "unsigned short" }, { "long int", "long" },
	{ "signed long", "long" }, { "signed long int", "long" },
	{ "unsigned long int", "unsigned long" }, { "long long int", "long long" },
	{ "signed long long", "long long" }, { "signed long long int", "long long" },
	{ "unsigned long long int", "unsigned long long" },
};

/* D's standard typedefs (LP64), as DTrace defines them. */
static const struct {
	const char *base, *name;
} d_typedefs[] = {
	{ "signed char", "int8_t" }, { "short", "int16_t" }, { "int", "int32_t" },
	{ "long", "int64_t" }, { "long", "intptr_t" }, { "long", "ssize_t" },
	{ "unsigned char", "uint8_t" }, { "unsigned short", "uint16_t" },
	{ "unsigned int", "uint32_t" }, { "unsigned long", "uint64_t" },
	{ "unsigned char", "uchar_t" }, { "unsigned short", "ushort_t" },
	{ "unsigned int", "uint_t" }, { "unsigned long", "ulong_t" },
	{ "unsigned long long", "u_longlong_t" }, { "long", "ptrdiff_t" },
	{ "unsigned long", "uintptr_t" }, { "unsigned long", "size_t" }, { "int", "id_t" },
	{ "int", "pid_t" }, { "unsigned int", "uid_t" }, { "unsigned int", "gid_t" },
	{ "int", "processorid_t" }, { "int", "psetid_t" }, { "int", "zoneid_t" },
	{ "int", "projid_t" }, { "int", "taskid_t" }, { "long", "off_t" },
	{ "long", "time_t" }, { "unsigned int", "dev_t" }, { "unsigned long", "ino_t" },
	{ "int", "boolean_t" }, { "unsigned int", "mode_t" }, { "long", "hrtime_t" },
	{ "unsigned long", "caddr_t" /* pointer-sized */ },
};

int dt_typetab_init(struct dt_typetab *tt)
{
	memset(tt, 0, sizeof(*tt));
	tt->t_void = dt_type_new(tt, TK_VOID, "void");
	if (tt->t_void == NULL || dt_htab_put(&tt->names, "void", tt->t_void) < 0)
		return -ENOMEM;
	tt->t_char = mkint(tt, "char", 1, true, true);
	tt->t_schar = mkint(tt, "signed char", 1, true, true);
	tt->t_uchar = mkint(tt, "unsigned char", 1, false, true);
	tt->t_short = mkint(tt, "short", 2, true, false);
	tt->t_ushort = mkint(tt, "unsigned short", 2, false, false);
	tt->t_int = mkint(tt, "int", 4, true, false);
	tt->t_uint = mkint(tt, "unsigned int", 4, false, false);
	tt->t_long = mkint(tt, "long", 8, true, false);
	tt->t_ulong = mkint(tt, "unsigned long", 8, false, false);
	tt->t_llong = mkint(tt, "long long", 8, true, false);
	tt->t_ullong = mkint(tt, "unsigned long long", 8, false, false);
	tt->t_bool = mkint(tt, "_Bool", 1, false, false);
	if (tt->t_bool == NULL)
		return -ENOMEM;
	tt->t_bool->is_bool = true;
	tt->t_float = dt_type_new(tt, TK_FLOAT, "float");
	tt->t_double = dt_type_new(tt, TK_FLOAT, "double");
	if (tt->t_float == NULL || tt->t_double == NULL)
		return -ENOMEM;
	tt->t_float->size = tt->t_float->align = 4;
	tt->t_double->size = tt->t_double->align = 8;
	dt_htab_put(&tt->names, "float", tt->t_float);
	dt_htab_put(&tt->names, "double", tt->t_double);
	/* DTrace's LP64 intrinsic: 128 bits (gcc's x86-64 long double, aligned as its size). */
	struct dt_type *ld = dt_type_new(tt, TK_FLOAT, "long double");
	if (ld == NULL || dt_htab_put(&tt->names, "long double", ld) < 0)
		return -ENOMEM;
	ld->size = ld->align = 16;
	tt->t_string = dt_type_new(tt, TK_STRING, "string");
	if (tt->t_string == NULL || dt_htab_put(&tt->names, "string", tt->t_string) < 0)
		return -ENOMEM;
	tt->t_string->size = 256;
	tt->t_string->align = 1;
	for (size_t i = 0; i < ARRAY_SIZE(int_aliases); i++) {
		struct dt_type *t = dt_htab_get(&tt->names, int_aliases[i].name);
		if (t == NULL || dt_htab_put(&tt->names, int_aliases[i].alias, t) < 0)
			return -ENOMEM;
	}
	for (size_t i = 0; i < ARRAY_SIZE(d_typedefs); i++) {
		struct dt_type *b = dt_htab_get(&tt->names, d_typedefs[i].base);
		if (mktypedef(tt, d_typedefs[i].name, b) == NULL)
			return -ENOMEM;
	}
	static const struct {
		const char *name;
		int special;
	} specials[] = {
		{ "stack", DT_SPECIAL_STACK }, { "stack", DT_SPECIAL_USTACK },	/* DTrace names both "stack" */
		{ "_symaddr", DT_SPECIAL_SYMADDR }, { "_usymaddr", DT_SPECIAL_USYMADDR },
		{ "<DYN>", DT_SPECIAL_DYN },
	};
	struct dt_type **slots[] = { &tt->t_stack, &tt->t_ustack, &tt->t_symaddr,
				     &tt->t_usymaddr, &tt->t_dyn };
	for (size_t i = 0; i < ARRAY_SIZE(specials); i++) {
		struct dt_type *t = dt_type_new(tt, TK_INT, specials[i].name);
		if (t == NULL)
			return -ENOMEM;
		t->size = t->align = 8;
		t->special = specials[i].special;
		*slots[i] = t;
	}
	tt->t_voidptr = dt_type_ptr(tt, tt->t_void);
	tt->t_charptr = dt_type_ptr(tt, tt->t_char);
	tt->t_int64 = dt_htab_get(&tt->names, "int64_t");
	tt->t_uint64 = dt_htab_get(&tt->names, "uint64_t");
	tt->t_int32 = dt_htab_get(&tt->names, "int32_t");
	tt->t_uint32 = dt_htab_get(&tt->names, "uint32_t");
	tt->t_uintptr = dt_htab_get(&tt->names, "uintptr_t");
	tt->t_size = dt_htab_get(&tt->names, "size_t");
	tt->t_pid = dt_htab_get(&tt->names, "pid_t");
	tt->t_uid = dt_htab_get(&tt->names, "uid_t");
	tt->t_gid = dt_htab_get(&tt->names, "gid_t");
	tt->t_id = dt_htab_get(&tt->names, "id_t");
	if (tt->t_voidptr == NULL || tt->t_charptr == NULL)
		return -ENOMEM;
	return 0;
}

void dt_typetab_fini(struct dt_typetab *tt)
{
	dt_htab_free(&tt->names);
	dt_htab_free(&tt->kernel_names);
	dt_htab_free(&tt->kernel_missing);
	btf__free(tt->vmlinux);
	free(tt->btf_cache);
	dt_arena_free(&tt->arena);
}

struct btf *dt_kernel_btf(struct dt_typetab *tt)
{
	if (!tt->vmlinux_tried) {
		tt->vmlinux_tried = true;
		struct btf *b = btf__load_vmlinux_btf();
		if (b != NULL) {
			tt->vmlinux = b;
			tt->btf_cache_n = btf__type_cnt(b);
			tt->btf_cache = calloc(tt->btf_cache_n, sizeof(*tt->btf_cache));
			if (tt->btf_cache == NULL) {
				btf__free(b);
				tt->vmlinux = NULL;
			}
		}
	}
	return tt->vmlinux;
}

struct dt_type *dt_type_ptr(struct dt_typetab *tt, struct dt_type *base)
{
	if (base->ptr_to != NULL)
		return base->ptr_to;
	struct dt_type *t = dt_type_new(tt, TK_PTR, NULL);
	if (t == NULL)
		return NULL;
	t->base = base;
	t->size = t->align = 8;
	t->userland = base->userland;
	base->ptr_to = t;
	return t;
}

struct dt_type *dt_type_array(struct dt_typetab *tt, struct dt_type *elem, uint32_t n)
{
	struct dt_type *t = dt_type_new(tt, TK_ARRAY, NULL);

	if (t == NULL)
		return NULL;
	t->base = elem;
	t->nelems = n;
	t->size = dt_type_size(elem) * n;
	t->align = dt_type_base(elem)->align ? dt_type_base(elem)->align : 1;
	return t;
}

struct dt_type *dt_type_qualified(struct dt_typetab *tt, struct dt_type *t, unsigned quals)
{
	if ((t->quals | quals) == t->quals)
		return t;
	struct dt_type *q = dt_arena_alloc(&tt->arena, sizeof(*q));
	if (q == NULL)
		return NULL;
	*q = *t;
	q->quals |= quals;
	q->ptr_to = NULL;
	q->unqual = t->unqual ? t->unqual : t;
	return q;
}

struct dt_type *dt_type_int(struct dt_typetab *tt, uint32_t size, bool is_signed)
{
	switch (size) {
	case 1:
		return is_signed ? tt->t_schar : tt->t_uchar;
	case 2:
		return is_signed ? tt->t_short : tt->t_ushort;
	case 4:
		return is_signed ? tt->t_int : tt->t_uint;
	default:
		return is_signed ? tt->t_long : tt->t_ulong;
	}
}

struct dt_type *dt_type_base(struct dt_type *t)
{
	while (t != NULL && t->kind == TK_TYPEDEF)
		t = t->base;
	return t;
}

/*
 * Arrays of arrays (typedefs of typedefs) can be any number deep: walked,
 * not recursed; an array's size was known when it was made unless its
 * element's type was incomplete then.
 */
uint32_t dt_type_size(struct dt_type *t)
{
	uint32_t mult = 1;

	for (;;) {
		t = dt_type_base(t);
		if (t == NULL)
			return 0;
		if (t->kind != TK_ARRAY || t->size != 0)
			return mult * t->size;
		mult *= t->nelems;
		t = t->base;
	}
}

bool dt_type_is_integer(struct dt_type *t)
{
	t = dt_type_base(t);
	return t != NULL && (t->kind == TK_INT || t->kind == TK_ENUM);
}

bool dt_type_is_pointer(struct dt_type *t)
{
	t = dt_type_base(t);
	return t != NULL && t->kind == TK_PTR;
}

bool dt_type_is_string(struct dt_type *t)
{
	t = dt_type_base(t);
	return t != NULL && t->kind == TK_STRING;
}

bool dt_type_is_void(struct dt_type *t)
{
	t = dt_type_base(t);
	return t != NULL && t->kind == TK_VOID;
}

bool dt_type_is_arith(struct dt_type *t)
{
	return dt_type_is_integer(t);
}

bool dt_type_is_scalar(struct dt_type *t)
{
	return dt_type_is_integer(t) || dt_type_is_pointer(t);
}

bool dt_type_is_sou(struct dt_type *t)
{
	t = dt_type_base(t);
	return t != NULL && (t->kind == TK_STRUCT || t->kind == TK_UNION);
}

bool dt_type_is_array(struct dt_type *t)
{
	t = dt_type_base(t);
	return t != NULL && t->kind == TK_ARRAY;
}

bool dt_type_is_signed(struct dt_type *t)
{
	t = dt_type_base(t);
	return t != NULL && (t->kind == TK_INT || t->kind == TK_ENUM) && t->is_signed;
}

bool dt_type_is_charptr(struct dt_type *t)
{
	t = dt_type_base(t);
	if (t == NULL || (t->kind != TK_PTR && t->kind != TK_ARRAY))
		return false;
	struct dt_type *b = dt_type_base(t->base);
	return b != NULL && b->kind == TK_INT && b->is_char;
}

/* Pointers to pointers (typedefs of typedefs) can be any number deep: walked, not recursed. */
bool dt_type_equal(struct dt_type *a, struct dt_type *b)
{
again:
	a = dt_type_base(a);
	b = dt_type_base(b);
	if (a == b)
		return true;
	if (a == NULL || b == NULL || a->kind != b->kind)
		return false;
	if (a->unqual != NULL)
		a = a->unqual;
	if (b->unqual != NULL)
		b = b->unqual;
	if (a == b)
		return true;
	switch (a->kind) {
	case TK_INT:
		return a->size == b->size && a->is_signed == b->is_signed &&
		       a->is_char == b->is_char && a->is_bool == b->is_bool;
	case TK_PTR:
		a = a->base, b = b->base;
		goto again;
	case TK_ARRAY:
		if (a->nelems != b->nelems)
			return false;
		a = a->base, b = b->base;
		goto again;
	case TK_STRUCT:
	case TK_UNION:
	case TK_ENUM:
	case TK_FWD:
		return a->name != NULL && b->name != NULL && strcmp(a->name, b->name) == 0 &&
		       a->btf == b->btf && a->btf_id == b->btf_id;
	case TK_STRING:
	case TK_VOID:
		return true;
	default:
		return false;
	}
}

/* C declarator spelling: prefix (base type) and suffix (arrays, functions). */
static void type_name_rec(struct dt_type *t, struct dt_strbuf *sb, const char *inner)
{
	char buf[64];

	if (t == NULL) {
		dt_sb_puts(sb, "<unknown>");
		return;
	}
	switch (t->kind) {
	case TK_PTR: {
		struct dt_strbuf in;
		dt_sb_init(&in);
		struct dt_type *b = t->base;
		bool paren = b && (b->kind == TK_ARRAY || b->kind == TK_FUNC);
		dt_sb_puts(&in, paren ? "(*" : "*");
		dt_sb_puts(&in, inner);
		if (paren)
			dt_sb_putc(&in, ')');
		type_name_rec(b, sb, in.s ? in.s : "*");
		dt_sb_free(&in);
		return;
	}
	case TK_ARRAY: {
		struct dt_strbuf in;
		dt_sb_init(&in);
		dt_sb_puts(&in, inner);
		snprintf(buf, sizeof(buf), "[%u]", t->nelems);
		dt_sb_puts(&in, buf);
		type_name_rec(t->base, sb, in.s);
		dt_sb_free(&in);
		return;
	}
	case TK_FUNC: {
		struct dt_strbuf in;
		dt_sb_init(&in);
		dt_sb_puts(&in, inner);
		dt_sb_putc(&in, '(');
		for (uint32_t i = 0; i < t->nparams; i++) {
			if (i)
				dt_sb_puts(&in, ", ");
			type_name_rec(t->params[i], &in, "");
		}
		if (t->varargs)
			dt_sb_puts(&in, t->nparams ? ", ..." : "...");
		dt_sb_putc(&in, ')');
		type_name_rec(t->base, sb, in.s);
		dt_sb_free(&in);
		return;
	}
	default:
		break;
	}
	if (t->quals & DS_CONST)
		dt_sb_puts(sb, "const ");
	if (t->quals & DS_VOLATILE)
		dt_sb_puts(sb, "volatile ");
	switch (t->kind) {
	case TK_STRUCT:
		dt_sb_printf(sb, "struct %s", t->name ? t->name : "<anon>");
		break;
	case TK_UNION:
		dt_sb_printf(sb, "union %s", t->name ? t->name : "<anon>");
		break;
	case TK_ENUM:
		dt_sb_printf(sb, "enum %s", t->name ? t->name : "<anon>");
		break;
	case TK_FWD:
		dt_sb_printf(sb, "%s %s", t->fwd_kind == TK_UNION ? "union" :
			     t->fwd_kind == TK_ENUM ? "enum" : "struct", t->name ? t->name : "<anon>");
		break;
	default:
		dt_sb_puts(sb, t->name ? t->name : "<anon>");
		break;
	}
	if (inner[0] != '\0') {
		if (inner[0] != '[' && inner[0] != '(')
			dt_sb_putc(sb, ' ');
		else
			dt_sb_putc(sb, ' ');
		dt_sb_puts(sb, inner);
	}
}

void dt_type_name(struct dt_type *t, struct dt_strbuf *sb)
{
	type_name_rec(t, sb, "");
}

const char *dt_type_str(struct dt_typetab *tt, struct dt_type *t)
{
	struct dt_strbuf sb;

	dt_sb_init(&sb);
	dt_type_name(t, &sb);
	const char *s = dt_arena_strdup(&tt->arena, sb.s ? sb.s : "");
	dt_sb_free(&sb);
	return s;
}

int dt_type_define(struct dt_typetab *tt, const char *key, struct dt_type *t)
{
	const char *k = dt_arena_strdup(&tt->arena, key);

	return k ? dt_htab_put(&tt->names, k, t) : -ENOMEM;
}

/*
 * Split a scoped type name into module and name: "vmlinux`struct foo" and
 * "struct vmlinux`foo" are both the module vmlinux's "struct foo".
 */
static const char *strip_module(const char *name, char *mod, size_t modlen, char *buf,
				size_t buflen)
{
	const char *bt = strchr(name, '`');

	mod[0] = '\0';
	if (bt == NULL)
		return name;
	const char *ms = bt;
	while (ms > name && ms[-1] != ' ' && ms[-1] != '\t')
		ms--;
	size_t n = (size_t)(bt - ms);
	if (n >= modlen)
		n = modlen - 1;
	memcpy(mod, ms, n);
	mod[n] = '\0';
	snprintf(buf, buflen, "%.*s%s", (int)(ms - name), name, bt + 1);
	return buf;
}

static struct dt_type *kernel_lookup(struct dt_typetab *tt, const char *name)
{
	struct btf *btf = dt_kernel_btf(tt);
	int kind = BTF_KIND_TYPEDEF;
	const char *n = name;

	if (btf == NULL)
		return NULL;
	struct dt_type *cached = dt_htab_get(&tt->kernel_names, name);
	if (cached != NULL)
		return cached;
	/* Each lookup scans all of vmlinux's types: remember the misses too. */
	if (dt_htab_get(&tt->kernel_missing, name) != NULL)
		return NULL;
	if (strncmp(name, "struct ", 7) == 0) {
		kind = BTF_KIND_STRUCT;
		n = name + 7;
	} else if (strncmp(name, "union ", 6) == 0) {
		kind = BTF_KIND_UNION;
		n = name + 6;
	} else if (strncmp(name, "enum ", 5) == 0) {
		kind = BTF_KIND_ENUM;
		n = name + 5;
	}
	while (*n == ' ')
		n++;
	int id = btf__find_by_name_kind(btf, n, kind);
	if (id <= 0 && kind == BTF_KIND_ENUM)
		id = btf__find_by_name_kind(btf, n, BTF_KIND_ENUM64);
	if (id <= 0 && kind == BTF_KIND_TYPEDEF)
		id = btf__find_by_name_kind(btf, n, BTF_KIND_INT);
	if (id <= 0) {
		const char *k = dt_arena_strdup(&tt->arena, name);
		if (k != NULL)
			dt_htab_put(&tt->kernel_missing, k, tt);
		return NULL;
	}
	struct dt_type *t = dt_type_from_btf(tt, btf, (uint32_t)id);
	if (t != NULL) {
		const char *k = dt_arena_strdup(&tt->arena, name);
		if (k != NULL)
			dt_htab_put(&tt->kernel_names, k, t);
	}
	return t;
}

/* Normalize blanks: "unsigned   long" -> "unsigned long". */
static void squeeze(const char *in, char *out, size_t outlen)
{
	size_t o = 0;
	bool space = false;

	for (; *in && o + 1 < outlen; in++) {
		if (*in == ' ' || *in == '\t') {
			space = o > 0;
			continue;
		}
		if (space && o + 1 < outlen)
			out[o++] = ' ';
		space = false;
		out[o++] = *in;
	}
	out[o] = '\0';
}

struct dt_type *dt_type_lookup(struct dt_typetab *tt, const char *name)
{
	char mod[64], norm[256], unscoped[256];
	const char *n = strip_module(name, mod, sizeof(mod), unscoped, sizeof(unscoped));

	squeeze(n, norm, sizeof(norm));
	if (mod[0] == '\0' || strcmp(mod, "D") == 0 || strcmp(mod, "C") == 0) {
		struct dt_type *t = dt_htab_get(&tt->names, norm);
		if (t != NULL || mod[0] != '\0')
			return t;
	}
	if (mod[0] != '\0' && strcmp(mod, "vmlinux") != 0 && strcmp(mod, "genunix") != 0 &&
	    strcmp(mod, "unix") != 0)
		return NULL;
	return kernel_lookup(tt, norm);
}

bool dt_type_kernel_has(struct dt_typetab *tt, const char *name)
{
	return kernel_lookup(tt, name) != NULL;
}

/* ---- BTF import ---- */

static struct dt_type *import(struct dt_typetab *tt, const struct btf *btf, uint32_t id,
			      int depth);

static struct dt_type *import_func(struct dt_typetab *tt, const struct btf *btf,
				   const struct btf_type *bt, int depth)
{
	struct dt_type *t = dt_type_new(tt, TK_FUNC, NULL);
	if (t == NULL)
		return NULL;
	t->base = import(tt, btf, bt->type, depth + 1);
	uint16_t n = btf_vlen(bt);
	const struct btf_param *p = btf_params(bt);
	t->params = dt_arena_zalloc(&tt->arena, (n + 1) * sizeof(*t->params));
	for (uint16_t i = 0; i < n && t->params; i++) {
		if (p[i].type == 0 && i == n - 1) {
			t->varargs = true;
			break;
		}
		t->params[t->nparams++] = import(tt, btf, p[i].type, depth + 1);
	}
	return t;
}

static struct dt_type *import(struct dt_typetab *tt, const struct btf *btf, uint32_t id,
			      int depth)
{
	if (id == 0)
		return tt->t_void;
	if (btf == tt->vmlinux && id < tt->btf_cache_n && tt->btf_cache[id] != NULL)
		return tt->btf_cache[id];
	if (depth > 64)
		return tt->t_void;

	const struct btf_type *bt = btf__type_by_id(btf, id);
	if (bt == NULL)
		return NULL;
	const char *name = btf__name_by_offset(btf, bt->name_off);
	if (name != NULL && name[0] == '\0')
		name = NULL;
	struct dt_type *t = NULL;

	switch (btf_kind(bt)) {
	case BTF_KIND_INT: {
		uint8_t enc = btf_int_encoding(bt);
		t = dt_type_new(tt, TK_INT, name);
		if (t == NULL)
			return NULL;
		t->size = t->align = bt->size;
		t->is_signed = (enc & BTF_INT_SIGNED) != 0;
		t->is_char = (enc & BTF_INT_CHAR) != 0 || (name && strstr(name, "char"));
		t->is_bool = (enc & BTF_INT_BOOL) != 0;
		break;
	}
	case BTF_KIND_FLOAT:
		t = dt_type_new(tt, TK_FLOAT, name);
		if (t)
			t->size = t->align = bt->size;
		break;
	case BTF_KIND_PTR: {
		struct dt_type *base = import(tt, btf, bt->type, depth + 1);
		return base ? dt_type_ptr(tt, base) : NULL;
	}
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = btf_array(bt);
		struct dt_type *elem = import(tt, btf, a->type, depth + 1);
		t = elem ? dt_type_array(tt, elem, a->nelems) : NULL;
		break;
	}
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		t = dt_type_new(tt, btf_is_struct(bt) ? TK_STRUCT : TK_UNION, name);
		if (t) {
			t->size = bt->size;
			t->align = 8;
			t->btf = btf;
			t->btf_id = id;
		}
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64: {
		t = dt_type_new(tt, TK_ENUM, name);
		if (t == NULL)
			return NULL;
		t->size = t->align = bt->size;
		t->is_signed = !btf_kflag(bt) ? true : false;
		uint16_t n = btf_vlen(bt);
		t->enums = dt_arena_zalloc(&tt->arena, (n + 1) * sizeof(*t->enums));
		if (t->enums == NULL)
			return NULL;
		for (uint16_t i = 0; i < n; i++) {
			if (btf_is_enum(bt)) {
				const struct btf_enum *e = btf_enum(bt) + i;
				t->enums[i].name = btf__name_by_offset(btf, e->name_off);
				t->enums[i].value = e->val;
			} else {
				const struct btf_enum64 *e = btf_enum64(bt) + i;
				t->enums[i].name = btf__name_by_offset(btf, e->name_off);
				t->enums[i].value = (int64_t)btf_enum64_value(e);
			}
		}
		t->nenums = n;
		break;
	}
	case BTF_KIND_FWD:
		t = dt_type_new(tt, TK_FWD, name);
		if (t != NULL)
			t->fwd_kind = btf_kflag(bt) ? TK_UNION : TK_STRUCT;
		break;
	case BTF_KIND_TYPEDEF: {
		t = dt_type_new(tt, TK_TYPEDEF, name);
		if (t == NULL)
			return NULL;
		/* Cache before recursing: typedefs can refer to themselves via pointers. */
		if (btf == tt->vmlinux && id < tt->btf_cache_n)
			tt->btf_cache[id] = t;
		t->base = import(tt, btf, bt->type, depth + 1);
		if (t->base == NULL)
			return NULL;
		t->size = dt_type_size(t->base);
		t->align = dt_type_base(t->base) ? dt_type_base(t->base)->align : 1;
		t->module = "vmlinux";
		return t;
	}
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT: {
		struct dt_type *base = import(tt, btf, bt->type, depth + 1);
		unsigned q = btf_is_const(bt) ? DS_CONST : btf_is_volatile(bt) ? DS_VOLATILE
										  : DS_RESTRICT;
		return base ? dt_type_qualified(tt, base, q) : NULL;
	}
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_DECL_TAG:
		return import(tt, btf, bt->type, depth + 1);
	case BTF_KIND_FUNC_PROTO:
		t = import_func(tt, btf, bt, depth);
		break;
	case BTF_KIND_FUNC:
		return import(tt, btf, bt->type, depth + 1);
	default:
		return tt->t_void;
	}
	if (t == NULL)
		return NULL;
	t->module = "vmlinux";
	if (btf == tt->vmlinux && id < tt->btf_cache_n)
		tt->btf_cache[id] = t;
	return t;
}

struct dt_type *dt_type_from_btf(struct dt_typetab *tt, const struct btf *btf, uint32_t id)
{
	return import(tt, btf, id, 0);
}

int dt_type_load_members(struct dt_typetab *tt, struct dt_type *t)
{
	t = dt_type_base(t);
	if (t->members_loaded || t->btf == NULL)
		return 0;
	const struct btf_type *bt = btf__type_by_id(t->btf, t->btf_id);
	uint16_t n = btf_vlen(bt);
	const struct btf_member *m = btf_members(bt);
	t->members = dt_arena_zalloc(&tt->arena, (n + 1) * sizeof(*t->members));
	if (t->members == NULL)
		return -ENOMEM;
	for (uint16_t i = 0; i < n; i++) {
		const char *mn = btf__name_by_offset(t->btf, m[i].name_off);
		t->members[i].name = mn && mn[0] ? mn : NULL;
		t->members[i].type = import(tt, t->btf, m[i].type, 0);
		t->members[i].offset_bits = btf_member_bit_offset(bt, i);
		t->members[i].bitsize = btf_member_bitfield_size(bt, i);
		if (t->members[i].type == NULL)
			return -ENOMEM;
	}
	t->nmembers = n;
	t->members_loaded = true;
	return 0;
}

const struct dt_member *dt_type_member(struct dt_typetab *tt, struct dt_type *t,
				       const char *name, uint32_t *offset_bits)
{
	t = dt_type_base(t);
	if (t == NULL || (t->kind != TK_STRUCT && t->kind != TK_UNION))
		return NULL;
	if (dt_type_load_members(tt, t) < 0)
		return NULL;
	for (uint32_t i = 0; i < t->nmembers; i++) {
		const struct dt_member *m = &t->members[i];
		if (m->name != NULL) {
			if (strcmp(m->name, name) == 0) {
				*offset_bits = m->offset_bits;
				return m;
			}
			continue;
		}
		/* Anonymous struct/union: search inside. */
		uint32_t inner;
		const struct dt_member *im = dt_type_member(tt, m->type, name, &inner);
		if (im != NULL) {
			*offset_bits = m->offset_bits + inner;
			return im;
		}
	}
	return NULL;
}
