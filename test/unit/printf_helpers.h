/* Helpers for the printf engine's tests: typed values and one-call printing. */
#ifndef TEST_PRINTF_HELPERS_H
#define TEST_PRINTF_HELPERS_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "consumer/printf.h"

#define MAXV 8

/* A record's values with the types the compiler would give them. */
struct vals {
	uint8_t store[MAXV][64];
	struct dt_pf_arg a[MAXV];
	struct dt_pf_argtype t[MAXV];
	size_t n;
};

static inline struct dt_pf_argtype ty(enum dt_pf_argkind k, uint32_t size, bool sign,
				       const char *name)
{
	struct dt_pf_argtype t = { .kind = k, .size = size, .is_signed = sign, .name = name };
	return t;
}

static inline void push_raw(struct vals *v, struct dt_pf_argtype t, const void *data,
			    size_t size)
{
	assert_true(v->n < MAXV && size <= sizeof(v->store[0]));
	memcpy(v->store[v->n], data, size);
	v->a[v->n] = (struct dt_pf_arg){ .src = DT_PF_REC, .data = v->store[v->n], .size = size };
	v->t[v->n] = t;
	v->n++;
}

/* An integer of `size` bytes (its low bytes, as the record holds it). */
static inline void push_int(struct vals *v, uint32_t size, bool sign, const char *name,
			    int64_t x)
{
	push_raw(v, ty(DT_PFA_INT, size, sign, name), &x, size);
}

static inline void push_str(struct vals *v, const char *s)
{
	char buf[64] = "";

	strncpy(buf, s, sizeof(buf) - 1);
	push_raw(v, ty(DT_PFA_STRING, 64, false, "string"), buf, sizeof(buf));
}

static inline void push_double(struct vals *v, double d)
{
	push_raw(v, ty(DT_PFA_FLOAT, 8, true, "double"), &d, sizeof(d));
}

static inline void push_float(struct vals *v, float f)
{
	push_raw(v, ty(DT_PFA_FLOAT, 4, true, "float"), &f, sizeof(f));
}

static inline void push_ldouble(struct vals *v, long double d)
{
	uint8_t b[16] = { 0 };

	memcpy(b, &d, sizeof(d) < 16 ? sizeof(d) : 16);
	push_raw(v, ty(DT_PFA_FLOAT, 16, true, "long double"), b, 16);
}

/* Parse, check as printf() does, print; the output (caller frees). */
static inline char *pf_ctx(const char *fmt, struct vals *v, const struct dt_pf_ctx *ctx)
{
	struct dt_pf_check_opts o = { .func = "printf", .first_argno = 1, .exact_len = true };
	struct dt_pf_format *f;
	struct dt_pf_error err;
	struct dt_strbuf sb;

	if (dt_pf_parse(fmt, &f, &err) != 0)
		fail_msg("parse \"%s\": %s", fmt, err.msg);
	if (dt_pf_check(f, &o, v->t, v->n, &err) != 0)
		fail_msg("check \"%s\": %s", fmt, err.msg);
	dt_sb_init(&sb);
	int rc = dt_pf_format(&sb, f, v->a, v->n, ctx);
	if (rc != (int)v->n)
		fail_msg("format \"%s\": %d", fmt, rc);
	dt_pf_free(f);
	return dt_sb_take(&sb);
}

static inline char *pf(const char *fmt, struct vals *v)
{
	return pf_ctx(fmt, v, NULL);
}

#define assert_pf(expect, fmt, v) do {			\
	char *out_ = pf((fmt), (v));			\
	assert_string_equal(out_, (expect));		\
	free(out_);					\
} while (0)

#endif
