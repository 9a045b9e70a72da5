/*
 * The printf engine of the consumer: dt_pf_format() prints the values of a
 * record with a format the compiler parsed and checked
 * (base/printf_format.h), and trace()'s default output.
 */
#ifndef DT_CONSUMER_PRINTF_H
#define DT_CONSUMER_PRINTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/printf_format.h"
#include "base/util.h"

/* ---- run-time formatting ------------------------------------------------ */

/*
 * Symbol lookup for %a, %A, %k and mod()/umod() values.  Each writes
 * DTrace's text for the address ("mod`func+0x1c", "mod`func", "mod`0x..."
 * or, for the module callbacks, "mod") and returns 0, or returns -1 when it
 * knows nothing; then the engine prints "0x<hex>".  pid 0 means "no process
 * recorded" (DTrace then uses $target).  Any callback may be NULL.
 */
/* Where an address is mapped from (pprof's mappings). */
struct dt_pf_mapping {
	const char *file;	/* the file's path; a kernel module as "[name]" */
	uint64_t start, limit;	/* the mapping's addresses [start, limit) */
	uint64_t offset;	/* the file offset mapped at start */
	bool exe;		/* the file is the program the process runs */
};

struct dt_pf_syms {
	void *ctx;
	int (*kaddr)(void *ctx, uint64_t addr, struct dt_strbuf *out);
	int (*kmod)(void *ctx, uint64_t addr, struct dt_strbuf *out);
	int (*uaddr)(void *ctx, uint64_t pid, uint64_t addr, struct dt_strbuf *out);
	int (*umod)(void *ctx, uint64_t pid, uint64_t addr, struct dt_strbuf *out);
	/* Optional: where the function holding a process address starts (usym()); true if known. */
	bool (*ustart)(void *ctx, uint64_t pid, uint64_t addr, uint64_t *start);
	/* Optional: the mapping holding a kernel (user false) or process address; 0 if known. */
	int (*mapping)(void *ctx, bool user, uint64_t pid, uint64_t addr, struct dt_pf_mapping *m);
};

/* What a recorded value is, where the record's action matters. */
enum dt_pf_argsrc {
	DT_PF_REC,		/* plain bytes from the record */
	DT_PF_KSTACK,		/* stack(): `size / 8` u64 pcs, 0-terminated if short */
	DT_PF_USTACK,		/* ustack(): u64 tgid, then u64 pcs */
	DT_PF_KMOD,		/* mod(): u64 address, printed as its module */
	DT_PF_UMOD,		/* umod(): u64 tgid, u64 address */
	DT_PF_TEXT,		/* printa %@ of quantize & co: `text` printed as is */
};

struct dt_pf_arg {
	enum dt_pf_argsrc src;
	const void *data;	/* the value's bytes in the record */
	size_t size;		/* integers 1/2/4/8, floats 4/8/16, strings strsize(+1) */
	const char *text;	/* DT_PF_TEXT */
	uint64_t normal;	/* printa %@ of integers: normalize() divisor; 0 = 1 */
};

struct dt_pf_ctx {
	const struct dt_pf_syms *syms;	/* NULL: addresses print in hex */
	/* printa(): the %@ values, one per aggregation, in argument order. */
	const struct dt_pf_arg *aggvals;
	size_t naggvals;
};

/*
 * Print a checked format with the values of one record (for printa, one
 * aggregation entry: the keys in `args`, the values in ctx->aggvals).
 * Returns the number of args consumed, or -EINVAL when the values do not
 * fit the format (DTrace's EDT_DMISMATCH), -ENOMEM.
 */
int dt_pf_format(struct dt_strbuf *out, const struct dt_pf_format *f,
		 const struct dt_pf_arg *args, size_t nargs, const struct dt_pf_ctx *ctx);

/* DTrace's %S escaping (strchr2esc): up to and including the first NUL. */
void dt_pf_escape(struct dt_strbuf *out, const char *s, size_t n);

/* %Y of a walltimestamp (ns since the epoch, local time): "2026 Nov 30 07:24:27". */
void dt_pf_time_y(struct dt_strbuf *out, uint64_t ns);

/* ---- trace() and friends (dt_consume.c's default output) --------------- */

/*
 * trace() of an integer of 1, 2, 4 or 8 bytes: quiet "%d"-style; otherwise
 * right-aligned after a space in 3/5/10/19 (signed) or 3/5/10/20 (unsigned)
 * columns.  Another size falls back to dt_format_rawbytes().
 */
void dt_format_trace_int(struct dt_strbuf *out, const void *data, size_t size,
			 bool is_signed, bool quiet);

/* trace() of a string: quiet as is, otherwise "  %-33s".  Stops at NUL or n. */
void dt_format_trace_string(struct dt_strbuf *out, const char *s, size_t n, bool quiet);

/*
 * Bytes that may be a string (dt_print_bytes): printable text, optionally
 * NUL-terminated with only NULs after, prints as a string ("  %-*s" with
 * `width`, or as is when quiet and NUL-terminated); anything else as a hex
 * dump.
 */
void dt_format_bytes(struct dt_strbuf *out, const void *data, size_t n, int width, bool quiet);
/* DTrace's rule for the above: the length of the string the bytes hold, or -1. */
long dt_bytes_string_len(const void *data, size_t n);
bool dt_bytes_are_string(const void *data, size_t n);

/* The hex dump of tracemem(), rawbytes and non-string trace() data. */
void dt_format_rawbytes(struct dt_strbuf *out, const void *data, size_t n);

/*
 * A stack as stack()/ustack() print it: a newline, then one line per frame
 * with `indent` spaces before it, stopping at a zero pc.  A user stack
 * (`user`) resolves its frames in process `pid`.
 */
void dt_format_stack(struct dt_strbuf *out, const struct dt_pf_syms *syms, bool user,
		     uint64_t pid, const uint64_t *pcs, size_t npcs, int indent);

#endif
