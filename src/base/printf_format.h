/*
 * DTrace's printf()/printa()/system()/freopen() format strings, shared by
 * the compiler and the consumer:
 *   1. dt_pf_parse()  (compile time) splits a format into literal text and
 *      conversions and reports malformed formats with DTrace's messages;
 *   2. dt_pf_check()  (compile time) checks each argument's type against its
 *      conversion and settles how the value will be printed;
 * and the consumer's dt_pf_format() (consumer/printf.h) prints the values
 * decoded from a record with the checked format.
 * Errors carry DTrace's tag ("D_SYNTAX", "D_PRINTF_ARG_TYPE", ...) and its
 * exact message (without the trailing newline) for the compiler to report.
 */
#ifndef DT_PRINTF_FORMAT_H
#define DT_PRINTF_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

/* ---- errors ------------------------------------------------------------ */

#define DT_PF_MSGLEN 1024

struct dt_pf_error {
	const char *tag;		/* static string: "D_SYNTAX", "D_PRINTF_ARG_TYPE"... */
	char msg[DT_PF_MSGLEN];		/* DTrace's message, no trailing newline */
};

/* ---- parsed formats ---------------------------------------------------- */

/* Conversion flags, as written in the format. */
enum {
	DT_PF_F_ALT = 1 << 0,		/* '#' */
	DT_PF_F_ZPAD = 1 << 1,		/* '0' */
	DT_PF_F_LEFT = 1 << 2,		/* '-' */
	DT_PF_F_SPOS = 1 << 3,		/* '+' */
	DT_PF_F_SPACE = 1 << 4,		/* ' ' */
	DT_PF_F_GROUP = 1 << 5,		/* '\'' thousands grouping */
	DT_PF_F_DYNWIDTH = 1 << 6,	/* '*' width: an int argument before the value */
	DT_PF_F_DYNPREC = 1 << 7,	/* '.*' precision: an int argument before the value */
	DT_PF_F_AGG = 1 << 8,		/* '@': printa's aggregation value */
	DT_PF_F_ADDRWIDTH = 1 << 9,	/* '?': width of a pointer (16) */
};

struct dt_pf_conv;			/* an entry of DTrace's conversion table */

/*
 * One piece of a format: the literal text before a conversion, then the
 * conversion.  The last piece may be literal text alone (conv == NULL).
 */
struct dt_pf_spec {
	size_t prefix_off, prefix_len;	/* literal text, within dt_pf_format.text */
	const struct dt_pf_conv *conv;	/* NULL: literal text only */
	char name[8];			/* DTrace's conversion name: "d", "llx", "%"... */
	unsigned flags;			/* DT_PF_F_* */
	int width;			/* 0: none ('?' sets 16) */
	int prec;			/* 0: none (DTrace never prints ".0") */
	/* Settled by dt_pf_check(): */
	bool checked;
	bool is_signed;			/* %d/%i of a signed argument */
	char cfmt[8];			/* C length + conversion used to print: "lld", "u", "s" */
};

struct dt_pf_format {
	char *text;			/* owned copy of the format string */
	struct dt_pf_spec *specs;
	size_t nspecs;
};

/* Parse `fmt`.  0, or -EINVAL with `err` set (tag D_SYNTAX), or -ENOMEM. */
int dt_pf_parse(const char *fmt, struct dt_pf_format **out, struct dt_pf_error *err);
void dt_pf_free(struct dt_pf_format *f);

/* Whether a spec is a real conversion that consumes a value (not %% or text). */
bool dt_pf_spec_takes_value(const struct dt_pf_spec *s);
/* Whether a format has a %A conversion (a user symbol; NULL: none). */
bool dt_pf_has_uaddr(const struct dt_pf_format *f);
/*
 * The number of record values a format consumes: for each conversion in
 * order, a '*' width (an int), a '.*' precision (an int), then the value;
 * %% takes nothing and a %@ value comes from the aggregation, not a record.
 */
size_t dt_pf_nargs(const struct dt_pf_format *f);

/* What a value argument is for: a '*' width and a '.*' precision are ints. */
enum dt_pf_argrole {
	DT_PF_ROLE_NONE = -1,		/* beyond what the format takes */
	DT_PF_ROLE_WIDTH,
	DT_PF_ROLE_PREC,
	DT_PF_ROLE_VALUE,
};
/* The role of value argument `i` (0: the first after the format) and its spec. */
enum dt_pf_argrole dt_pf_arg_role(const struct dt_pf_format *f, size_t i,
				  const struct dt_pf_spec **spec);

/* ---- compile-time type checking ---------------------------------------- */

/*
 * What the compiler knows of an argument's type.  Typedefs are resolved in
 * `kind` and the sizes; `name` is the type as DTrace prints it in messages.
 */
enum dt_pf_argkind {
	DT_PFA_INT,		/* integer types, char, _Bool */
	DT_PFA_ENUM,
	DT_PFA_FLOAT,		/* float, double, long double */
	DT_PFA_POINTER,
	DT_PFA_ARRAY,
	DT_PFA_STRING,		/* D's string */
	DT_PFA_VOID,
	DT_PFA_STRUCT,		/* struct or union */
	DT_PFA_FUNC,
	DT_PFA_SYMADDR,		/* _symaddr: sym(), func(), mod() (an integer) */
	DT_PFA_USYMADDR,	/* _usymaddr: usym(), ufunc(), umod(), uaddr() (an integer) */
	DT_PFA_STACK,		/* stack(), ustack(), jstack() */
	DT_PFA_AGG,		/* an aggregation @a: "aggregation" */
	DT_PFA_OTHER,
};

struct dt_pf_argtype {
	enum dt_pf_argkind kind;
	uint32_t size;			/* sizeof the (resolved) type */
	bool is_signed;			/* INT, ENUM */
	bool is_char;			/* INT: a char type (char, signed char, unsigned char) */
	/*
	 * %s takes a D string or an array of signed 1-byte chars (DTrace's
	 * IS_CHAR: set elem_is_char and elem_signed for plain char, even where
	 * BTF leaves char's signedness out; not for unsigned char / uint8_t).
	 */
	/* ARRAY: its element type; POINTER: the type pointed to (resolved). */
	enum dt_pf_argkind elem_kind;
	uint32_t elem_size;
	bool elem_signed, elem_is_char;
	const char *name;		/* for messages: "int", "string", "char [16]", "void" */
	const char *base_name;		/* typedefs and qualifiers stripped; NULL: same as name */
	const char *const *typedefs;	/* the typedef names on the way to base_name, outermost first */
	size_t ntypedefs;
};

struct dt_pf_check_opts {
	const char *func;	/* the action, for messages: "printf", "printa", "system" ... */
	int first_argno;	/* the number of the argument before the first value (1: the format) */
	bool exact_len;		/* extra arguments are an error (printf-like actions, not printa) */
	bool aggregation;	/* printa(): %@ is allowed */
	bool agg_is_count;	/* printa() of count(): %@ is uint64_t, else int64_t */
	bool have_target;	/* -p/-c given: %A accepts any pointer or integer */
};

/*
 * Check the argument types against the conversions (DTrace's
 * dt_printf_validate) and settle each spec's cfmt/is_signed.  `args` are the
 * value arguments after the format (for printa, the aggregation's keys).
 * 0, or -EINVAL with `err` set.
 */
int dt_pf_check(struct dt_pf_format *f, const struct dt_pf_check_opts *opts,
		const struct dt_pf_argtype *args, size_t nargs, struct dt_pf_error *err);

/*
 * printa() with several aggregations: their keys must agree (D_PRINTA_AGGKEY,
 * D_PRINTA_AGGPROTO).  Names are without the '@'.
 */
int dt_pf_check_printa_keys(const char *lname, const struct dt_pf_argtype *lkeys, size_t nl,
			    const char *rname, const struct dt_pf_argtype *rkeys, size_t nr,
			    struct dt_pf_error *err);

/*
 * "<func>( ) argument #<argno> is incompatible with prototype:\n\tprototype:
 * <proto>\n\t argument: <type>": D_PRINTF_ARG_FMT (proto "string constant"),
 * D_PRINTA_AGGARG (proto "aggregation"), D_PROTO_ARG ...
 */
void dt_pf_error_proto(struct dt_pf_error *err, const char *tag, const char *func,
		       int argno, const char *proto, const char *argtype);

#endif
