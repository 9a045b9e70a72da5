/*
 * Identifiers: D's built-in variables, actions, subroutines and
 * aggregating functions (static tables with C-like prototypes, as DTrace
 * defines them), and the user's variables, inlines and aggregations.
 */
#ifndef DT_IDENT_H
#define DT_IDENT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/aggdesc.h"
#include "base/attr.h"

struct dt_type;
struct dt_node;
struct dt_pcb;
struct dt_compiler;

enum dt_idkind {
	IDK_BVAR,	/* built-in variable: code is enum dt_bvar */
	IDK_ACTION,	/* action: code is enum dt_act */
	IDK_SUBR,	/* subroutine: code is enum dt_subr */
	IDK_AGGFUNC,	/* aggregating function: code is enum dt_aggfunc */
	IDK_GLOBAL,	/* user global scalar */
	IDK_ARRAY,	/* user global associative array */
	IDK_TLS,	/* self->name */
	IDK_LOCAL,	/* this->name */
	IDK_INLINE,	/* inline name = expr */
	IDK_AGG,	/* @name */
	IDK_ENUM,	/* enumerator constant: value */
	IDK_XLARG,	/* a translator's input, inside its member definitions */
	IDK_EXTERN,	/* extern declaration: a symbol's type (kept apart from variables) */
};

/* The last uregs[] index, R_TRAPNO (dlib/arch/x86_64/regs.d). */
#define UREGS_LAST 25

enum dt_bvar {
	BV_ARG0, BV_ARG1, BV_ARG2, BV_ARG3, BV_ARG4, BV_ARG5, BV_ARG6, BV_ARG7, BV_ARG8,
	BV_ARG9, BV_ARGS, BV_CALLER, BV_CURCPU, BV_CURTHREAD, BV_EPID, BV_ERRNO,
	BV_EXECNAME, BV_GID, BV_ID, BV_IPL, BV_PID, BV_PPID, BV_PROBEFUNC, BV_PROBEMOD,
	BV_PROBENAME, BV_PROBEPROV, BV_STACKDEPTH, BV_TID, BV_TIMESTAMP, BV_UCALLER,
	BV_UID, BV_UREGS, BV_USTACKDEPTH, BV_VTIMESTAMP, BV_WALLTIMESTAMP, BV_EXECARGS,
	BV_CPU,
};

enum dt_act {
	ACT_TRACE, ACT_PRINTF, ACT_PRINTA, ACT_PRINT, ACT_EXIT, ACT_TRACEMEM, ACT_STACK,
	ACT_USTACK, ACT_JSTACK, ACT_CLEAR, ACT_TRUNC, ACT_NORMALIZE, ACT_DENORMALIZE,
	ACT_SETOPT, ACT_SPECULATE, ACT_COMMIT, ACT_DISCARD, ACT_SYSTEM, ACT_RAISE,
	ACT_STOP, ACT_PANIC, ACT_BREAKPOINT, ACT_CHILL, ACT_FREOPEN, ACT_FTRUNCATE,
	ACT_SYM, ACT_FUNC, ACT_MOD, ACT_USYM, ACT_UFUNC, ACT_UMOD, ACT_UADDR, ACT_PCAP,
};

enum dt_subr {
	SUB_ALLOCA, SUB_BASENAME, SUB_BCOPY, SUB_CLEANPATH, SUB_COPYIN, SUB_COPYINSTR,
	SUB_COPYINTO, SUB_COPYOUT, SUB_COPYOUTSTR, SUB_D_PATH, SUB_DIRNAME, SUB_GETMAJOR,
	SUB_GETMINOR, SUB_HTONL, SUB_HTONLL, SUB_HTONS, SUB_INDEX, SUB_INET_NTOA,
	SUB_INET_NTOA6, SUB_INET_NTOP, SUB_LINK_NTOP, SUB_LLTOSTR, SUB_MUTEX_OWNED,
	SUB_MUTEX_OWNER, SUB_MUTEX_TYPE_ADAPTIVE, SUB_MUTEX_TYPE_SPIN, SUB_NTOHL,
	SUB_NTOHLL, SUB_NTOHS, SUB_PROGENYOF, SUB_RAND, SUB_RINDEX, SUB_RW_ISWRITER,
	SUB_RW_READ_HELD, SUB_RW_WRITE_HELD, SUB_SPECULATION, SUB_STRCHR, SUB_STRJOIN,
	SUB_STRLEN, SUB_STRRCHR, SUB_STRSTR, SUB_STRTOK, SUB_SUBSTR, SUB_TOLOWER,
	SUB_TOUPPER, SUB_GETF, SUB_DDI_PATHNAME, SUB_MSGSIZE, SUB_MSGDSIZE,
	SUB_PATH_OF,		/* the D library's own (fileinfo_t's paths) */
};

/* Identifier flags. */
#define IDF_DECLARED 0x01	/* explicitly declared */
#define IDF_DEFINED  0x02	/* type known (declared or assigned) */
#define IDF_WRITTEN  0x04
#define IDF_READ     0x08
#define IDF_BUILTIN  0x10
#define IDF_ALLOCA   0x20	/* holds pointers into alloca()'d memory */

/* A parsed function prototype. */
struct dt_proto {
	struct dt_type *ret;
	int nparams;		/* fixed parameters */
	int nopt;		/* of which optional ([T]) at the end */
	bool varargs;		/* "..." */
	struct dt_type **params;	/* NULL entry: "@" (any type) */
};

struct dt_ident {
	const char *name;
	enum dt_idkind kind;
	int code;
	unsigned flags;
	struct dt_type *type;		/* variables: value type; functions: NULL */
	const char *protostr;		/* built-ins: type or prototype text */
	struct dt_proto *proto;		/* functions: parsed on first use */
	/* Associative arrays and thread-locals with keys. */
	struct dt_type **keys;
	int nkeys;
	/* Storage assigned by codegen. */
	uint32_t id;			/* variable/aggregation id */
	uint32_t offset;		/* .bss offset (globals), local area offset */
	uint32_t size;
	/* Inlines */
	struct dt_node *inline_expr;
	struct dt_ident **iparams;	/* inline arrays: the parameters (IDK_XLARG), nkeys of them */
	int64_t value;			/* IDK_ENUM */
	int line;
	uint32_t program;		/* the program that created it (dt_compiler.program) */
	/* Stability attributes, if an inline's value or a #pragma set them (sema_attr.c). */
	struct dt_attr attr;
	bool attr_set;
	/* Aggregations: the function and its signature from first use. */
	int aggfunc;
	struct dt_node *aggkeys_first;
	struct dt_aggdesc *agg;
};

/* Built-in identifier by name (variables, actions, subroutines, aggfuncs). */
struct dt_ident *dt_ident_builtin(struct dt_compiler *cc, const char *name);

/*
 * The built-in as a program sees it: none when the D version the program
 * asked for (-x version) predates it.  The D libraries see them all.
 */
struct dt_ident *dt_ident_builtin_visible(struct dt_pcb *pcb, const char *name);

/* Find a user identifier (variable/inline) by name, or a built-in. */
struct dt_ident *dt_ident_lookup_any(struct dt_compiler *cc, const char *name);

/* Parse a built-in's prototype or type on first use. */
struct dt_proto *dt_ident_proto(struct dt_pcb *pcb, struct dt_ident *id);
struct dt_type *dt_ident_vartype(struct dt_pcb *pcb, struct dt_ident *id);

/* User identifiers: global namespace, thread-locals, clause-locals, aggregations. */
struct dt_ident *dt_ident_user(struct dt_compiler *cc, enum dt_idkind kind, const char *name);
struct dt_ident *dt_ident_user_add(struct dt_compiler *cc, enum dt_idkind kind,
				   const char *name, int line);

void dt_idents_fini(struct dt_compiler *cc);

/* DTrace's name of an identifier's kind, for messages ("scalar", "associative array" ...). */
const char *dt_ident_kind_name(const struct dt_ident *id);

#endif
