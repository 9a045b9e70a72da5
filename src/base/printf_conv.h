/* DTrace's table of printf conversions: how each checks and prints its argument. */
#ifndef DT_PRINTF_CONV_H
#define DT_PRINTF_CONV_H

#include "base/printf_format.h"

/* How a conversion checks its argument's type (DTrace's pfcheck_*). */
enum dt_pf_check_kind {
	PFCHK_ADDR,		/* pointer or integer */
	PFCHK_KADDR,		/* pointer, integer or _symaddr */
	PFCHK_UADDR,		/* _usymaddr, or pointer/integer with a target */
	PFCHK_STACK,
	PFCHK_TIME,		/* 64-bit integer */
	PFCHK_STR,		/* string or char [] */
	PFCHK_WSTR,		/* array of 32-bit integers */
	PFCHK_CSI,		/* integer of at most 4 bytes */
	PFCHK_FP,
	PFCHK_XINT,		/* any integer */
	PFCHK_DINT,		/* any integer; %u if unsigned */
	PFCHK_XSHORT,		/* [unsigned] short by name */
	PFCHK_XLONG,		/* [unsigned] long by name */
	PFCHK_XLONGLONG,	/* [unsigned] long long, or an [u]int64_t typedef */
	PFCHK_TYPE,		/* compatible with the named D type */
};

/* How a conversion prints its value (DTrace's pfprint_*). */
enum dt_pf_print_kind {
	PFPR_SINT,
	PFPR_UINT,
	PFPR_DINT,		/* SINT or UINT, decided by the argument's type */
	PFPR_FP,
	PFPR_ADDR,		/* %a: kernel symbol */
	PFPR_UADDR,		/* %A: user symbol */
	PFPR_STACK,		/* %k */
	PFPR_TIME,		/* %Y */
	PFPR_TIME822,		/* %T */
	PFPR_CSTR,		/* %s */
	PFPR_WSTR,		/* %ls, %ws */
	PFPR_ESTR,		/* %S */
	PFPR_ECHR,		/* %C */
	PFPR_PCT,		/* %% */
};

struct dt_pf_conv {
	const char *name;	/* "d", "llx", "%" */
	const char *ofmt;	/* the C conversion used to print */
	const char *proto;	/* what the argument should be, for messages */
	enum dt_pf_check_kind check;
	enum dt_pf_print_kind print;
	/* PFCHK_TYPE: the D type the argument must be compatible with. */
	enum dt_pf_argkind tkind;
	uint32_t tsize;
	bool tsigned;
};

/* The conversion named `name` ("d", "hx", "%"), or NULL. */
const struct dt_pf_conv *dt_pf_conv_lookup(const char *name);

/* Set an error: tag plus printf-style message. */
void dt_pf_seterr(struct dt_pf_error *err, const char *tag, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
