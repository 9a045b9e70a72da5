/*
 * The D type system: C's integer, pointer, array, struct/union/enum and
 * function types plus D's string.  Kernel types are imported on demand
 * from BTF (/sys/kernel/btf/vmlinux); D declarations add types of their
 * own.  Types live as long as the handle.
 */
#ifndef DT_TYPES_H
#define DT_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#include "base/htab.h"
#include "base/util.h"

struct btf;
struct dt_pcb;

/* Qualifiers of a type (bits that declaration specifiers share, compiler/ast.h). */
enum {
	DS_CONST = 0x20, DS_VOLATILE = 0x40, DS_RESTRICT = 0x80,
};

enum dt_tkind {
	TK_VOID,
	TK_INT,		/* also char, _Bool */
	TK_FLOAT,
	TK_PTR,
	TK_ARRAY,
	TK_STRUCT,
	TK_UNION,
	TK_ENUM,
	TK_FUNC,
	TK_STRING,	/* D's string: char[strsize], compared by value */
	TK_TYPEDEF,
	TK_FWD,		/* incomplete struct/union/enum (fwd_kind) */
};

struct dt_type;

struct dt_member {
	const char *name;	/* NULL for anonymous struct/union members */
	struct dt_type *type;
	uint32_t offset_bits;
	uint32_t bitsize;	/* 0 unless a bit-field */
};

struct dt_enumval {
	const char *name;
	int64_t value;
};

struct dt_type {
	enum dt_tkind kind;
	const char *name;	/* "int", tag of struct/union/enum, typedef name */
	uint32_t size;
	uint32_t align;
	unsigned quals;		/* DS_CONST | DS_VOLATILE | DS_RESTRICT */
	bool is_signed;		/* TK_INT, TK_ENUM */
	bool is_char;		/* char types: pointers/arrays of them are strings */
	bool is_bool;
	bool userland;		/* pointer into user space */
	int special;		/* DT_SPECIAL_*: stack, symbol address ... */
	struct dt_type *base;	/* PTR target, ARRAY element, TYPEDEF alias, FUNC result */
	uint32_t nelems;	/* ARRAY */
	struct dt_member *members;	/* STRUCT/UNION (loaded lazily from BTF) */
	uint32_t nmembers;
	struct dt_enumval *enums;	/* ENUM */
	uint32_t nenums;
	struct dt_type **params;	/* FUNC */
	uint32_t nparams;
	bool varargs;
	enum dt_tkind fwd_kind;	/* TK_FWD: TK_STRUCT, TK_UNION or TK_ENUM */
	const char *module;	/* "vmlinux" for kernel types, NULL for D/C types */
	/* Where a kernel type came from (members are imported on first use). */
	const struct btf *btf;
	uint32_t btf_id;
	bool members_loaded;
	/* Caches of derived types. */
	struct dt_type *ptr_to;
	struct dt_type *unqual;
};

/* D-internal types with their own printing rules. */
enum {
	DT_SPECIAL_NONE = 0,
	DT_SPECIAL_STACK,	/* stack(): kernel stack */
	DT_SPECIAL_USTACK,	/* ustack()/jstack() */
	DT_SPECIAL_SYMADDR,	/* func()/sym()/mod(): kernel address */
	DT_SPECIAL_USYMADDR,	/* ufunc()/usym()/umod()/uaddr(): user address */
	DT_SPECIAL_DYN,		/* <DYN>: untyped (args[] without types, dynamic expressions) */
};

/* The handle's type tables. */
struct dt_typetab {
	struct dt_arena arena;
	struct dt_htab names;		/* "int", "uint64_t", "struct foo", "enum e" ... */
	struct dt_htab kernel_names;	/* cache of kernel types by the same keys */
	struct dt_htab kernel_missing;	/* names known not to be kernel types */
	struct btf *vmlinux;		/* loaded on first need */
	bool vmlinux_tried;
	struct dt_type **btf_cache;	/* by vmlinux BTF id */
	uint32_t btf_cache_n;
	/* Common types */
	struct dt_type *t_void, *t_char, *t_schar, *t_uchar, *t_short, *t_ushort, *t_int,
		*t_uint, *t_long, *t_ulong, *t_llong, *t_ullong, *t_bool, *t_string,
		*t_voidptr, *t_charptr, *t_float, *t_double;
	struct dt_type *t_stack, *t_ustack, *t_symaddr, *t_usymaddr, *t_dyn;
	/* D's typedefs that name kernel-independent types. */
	struct dt_type *t_int64, *t_uint64, *t_uintptr, *t_size, *t_pid, *t_uid, *t_gid,
		*t_id, *t_uint32, *t_int32;
};

int dt_typetab_init(struct dt_typetab *tt);
void dt_typetab_fini(struct dt_typetab *tt);

/* The kernel's BTF, loaded on first call; NULL if unavailable. */
struct btf *dt_kernel_btf(struct dt_typetab *tt);

/*
 * Look up a type by its D name: "int", "unsigned long", "uint64_t",
 * "struct foo", "enum bar", a typedef, with an optional module scope
 * ("vmlinux`struct task_struct").  D types first, then kernel types.
 */
struct dt_type *dt_type_lookup(struct dt_typetab *tt, const char *name);

/* Register a named type (typedef, struct/union/enum tag as "struct x"). */
int dt_type_define(struct dt_typetab *tt, const char *key, struct dt_type *t);

/* Whether the kernel (BTF) has a type named `name`. */
bool dt_type_kernel_has(struct dt_typetab *tt, const char *name);

struct dt_type *dt_type_new(struct dt_typetab *tt, enum dt_tkind kind, const char *name);
struct dt_type *dt_type_ptr(struct dt_typetab *tt, struct dt_type *base);
struct dt_type *dt_type_array(struct dt_typetab *tt, struct dt_type *elem, uint32_t n);
struct dt_type *dt_type_qualified(struct dt_typetab *tt, struct dt_type *t, unsigned quals);
struct dt_type *dt_type_int(struct dt_typetab *tt, uint32_t size, bool is_signed);

/* Import a kernel type by BTF id. */
struct dt_type *dt_type_from_btf(struct dt_typetab *tt, const struct btf *btf, uint32_t id);

/* Strip typedefs (and, for the result's identity, qualifiers). */
struct dt_type *dt_type_base(struct dt_type *t);

/* Struct/union members, imported from BTF if needed; NULL if none. */
const struct dt_member *dt_type_member(struct dt_typetab *tt, struct dt_type *t,
				       const char *name, uint32_t *offset_bits);
int dt_type_load_members(struct dt_typetab *tt, struct dt_type *t);

/* Classification (all look through typedefs). */
bool dt_type_is_integer(struct dt_type *t);	/* int, char, bool, enum */
bool dt_type_is_pointer(struct dt_type *t);
bool dt_type_is_string(struct dt_type *t);	/* D string */
bool dt_type_is_void(struct dt_type *t);
bool dt_type_is_arith(struct dt_type *t);	/* integer (D has no float arithmetic) */
bool dt_type_is_scalar(struct dt_type *t);	/* integer or pointer */
bool dt_type_is_sou(struct dt_type *t);		/* struct or union */
bool dt_type_is_array(struct dt_type *t);
bool dt_type_is_signed(struct dt_type *t);
/* Pointer to or array of char: usable as a string. */
bool dt_type_is_charptr(struct dt_type *t);
uint32_t dt_type_size(struct dt_type *t);

/* Same type after resolving typedefs (structural for int/ptr/array). */
bool dt_type_equal(struct dt_type *a, struct dt_type *b);

/* C-like spelling: "int", "char *", "struct foo", "int [4]". */
void dt_type_name(struct dt_type *t, struct dt_strbuf *sb);
const char *dt_type_str(struct dt_typetab *tt, struct dt_type *t);

#endif
