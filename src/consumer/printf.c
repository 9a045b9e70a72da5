/*
 * Run-time printf: print a checked format with the values of a record, as
 * DTrace's dt_printf_format() and pfprint_* functions do.  Each conversion
 * is turned back into a C format ("%-8lld") and handed to the C library, so
 * flags, widths and precisions behave exactly as C's printf.
 */
#include "base/printf_conv.h"
#include "consumer/printf.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

/* The C format of one conversion, and what the value printer needs. */
struct conv_out {
	const struct dt_pf_spec *spec;
	char cfmt[8];		/* C length + conversion: "lld", "s" */
	char fmt[64];		/* the whole C conversion: "%-8lld" */
	int dynwidth;		/* a '*' width as recorded, else 0 */
};

static uint64_t load_u(const void *p, size_t size)
{
	uint8_t b1;
	uint16_t b2;
	uint32_t b4;
	uint64_t b8 = 0;

	switch (size) {
	case 1: memcpy(&b1, p, 1); return b1;
	case 2: memcpy(&b2, p, 2); return b2;
	case 4: memcpy(&b4, p, 4); return b4;
	case 8: memcpy(&b8, p, 8); return b8;
	}
	return 0;
}

static int64_t load_s(const void *p, size_t size)
{
	uint64_t u = load_u(p, size);

	switch (size) {
	case 1: return (int8_t)u;
	case 2: return (int16_t)u;
	case 4: return (int32_t)u;
	}
	return (int64_t)u;
}

static bool int_size_ok(size_t size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

/* A '*' width or precision from the record (dt_printf_getint). */
static int get_dyn_int(const struct dt_pf_arg *a, int *v)
{
	if (a->data == NULL || !int_size_ok(a->size))
		return -EINVAL;
	*v = (int)load_s(a->data, a->size);
	return 0;
}

/*
 * The C length and conversion to print with: what dt_pf_check() settled, or
 * for an unchecked format what the record size suggests.  DTrace's %wc and
 * %ws are C's %lc and %ls.
 */
static void settle_cfmt(const struct dt_pf_spec *s, size_t size, char *buf)
{
	const struct dt_pf_conv *c = s->conv;

	if (s->checked) {
		memcpy(buf, s->cfmt, sizeof(s->cfmt));
	} else {
		buf[0] = '\0';
		if ((c->print == PFPR_SINT || c->print == PFPR_UINT ||
		     c->print == PFPR_DINT) && size == 8 && strchr("diouxX", c->ofmt[0]))
			strcpy(buf, "ll");
		else if (c->print == PFPR_FP && size == 16)
			strcpy(buf, "L");
		strcat(buf, c->ofmt);
	}
	if (buf[0] == 'w')
		buf[0] = 'l';
}

/* "%" flags width .prec conversion, in dt_printf_format()'s order. */
static void build_fmt(struct conv_out *co, int width, int prec)
{
	const unsigned fl = co->spec->flags;
	char *f = co->fmt;
	size_t room = sizeof(co->fmt);
	int n;

	*f++ = '%';
	if (fl & DT_PF_F_ALT)
		*f++ = '#';
	if (fl & DT_PF_F_ZPAD)
		*f++ = '0';
	if (width < 0 || (fl & DT_PF_F_LEFT))
		*f++ = '-';
	if (fl & DT_PF_F_SPOS)
		*f++ = '+';
	if (fl & DT_PF_F_GROUP)
		*f++ = '\'';
	if (fl & DT_PF_F_SPACE)
		*f++ = ' ';
	/* A left-aligned %k turns its width into the stack indent instead. */
	if (co->spec->conv->print == PFPR_STACK && (fl & DT_PF_F_LEFT))
		width = 0;
	room -= (size_t)(f - co->fmt);
	if (width != 0) {
		n = snprintf(f, room, "%d", width == INT_MIN ? INT_MAX : abs(width));
		f += n;
		room -= (size_t)n;
	}
	if (prec > 0) {
		n = snprintf(f, room, ".%d", prec);
		f += n;
		room -= (size_t)n;
	}
	size_t len = strlen(co->cfmt);
	if (len >= room)
		len = room - 1;
	memcpy(f, co->cfmt, len);
	f[len] = '\0';
}

/* Print one C-formatted value: the C library does the flags and widths. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"
static void put_s(struct dt_strbuf *out, const struct conv_out *co, const char *s)
{
	dt_sb_printf(out, co->fmt, s);	/* the conversions that get here print with %s */
}

static void put_ll(struct dt_strbuf *out, const char *fmt, long long v) { dt_sb_printf(out, fmt, v); }
static void put_ull(struct dt_strbuf *out, const char *fmt, unsigned long long v) { dt_sb_printf(out, fmt, v); }
static void put_i(struct dt_strbuf *out, const char *fmt, int v) { dt_sb_printf(out, fmt, v); }
static void put_u(struct dt_strbuf *out, const char *fmt, unsigned v) { dt_sb_printf(out, fmt, v); }
static void put_wint(struct dt_strbuf *out, const char *fmt, wint_t v) { dt_sb_printf(out, fmt, v); }
static void put_d(struct dt_strbuf *out, const char *fmt, double v) { dt_sb_printf(out, fmt, v); }
static void put_ld(struct dt_strbuf *out, const char *fmt, long double v) { dt_sb_printf(out, fmt, v); }
static void put_ws(struct dt_strbuf *out, const char *fmt, const wchar_t *v) { dt_sb_printf(out, fmt, v); }
#pragma GCC diagnostic pop

static bool fmt_is_ll(const char *cfmt)
{
	return cfmt[0] == 'l' && cfmt[1] == 'l';
}

/*
 * A decimal conversion with no flags, width or precision ("%d", "%llu"):
 * the common case of printf-per-event scripts, written here rather than by
 * the C library's vsnprintf, which costs most of the consumer's time.
 */
static bool plain_decimal(const char *fmt)
{
	if (fmt[0] != '%')
		return false;
	fmt++;
	while (*fmt == 'l')
		fmt++;
	return (fmt[0] == 'd' || fmt[0] == 'i' || fmt[0] == 'u') && fmt[1] == '\0';
}

static void put_decimal(struct dt_strbuf *out, uint64_t mag, bool neg)
{
	char buf[24];
	size_t i = sizeof(buf);

	do {
		buf[--i] = (char)('0' + mag % 10);
		mag /= 10;
	} while (mag != 0);
	if (neg)
		buf[--i] = '-';
	dt_sb_putn(out, buf + i, sizeof(buf) - i);
}

/* pfprint_sint: sign-extend from the record size, divide by normal. */
static int print_sint(struct dt_strbuf *out, const struct conv_out *co,
		      const struct dt_pf_arg *a)
{
	if (!int_size_ok(a->size))
		return -EINVAL;
	int64_t v = load_s(a->data, a->size);
	int64_t n = a->normal ? (int64_t)a->normal : 1;

	if (a->size == 8) {
		if (n != 0 && !(v == INT64_MIN && n == -1))
			v /= n;
	} else if ((int32_t)n != 0) {
		v /= (int32_t)n;	/* |v| < 2^31: no overflow in 64 bits */
	}
	if (plain_decimal(co->fmt)) {
		/* As C's varargs read an int unless the conversion says long long. */
		if (!fmt_is_ll(co->cfmt))
			v = (int)v;
		put_decimal(out, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, v < 0);
	} else if (strcmp(co->cfmt, "lc") == 0)
		put_wint(out, co->fmt, (wint_t)(int)v);
	else if (fmt_is_ll(co->cfmt))
		put_ll(out, co->fmt, (long long)v);
	else
		put_i(out, co->fmt, (int)v);	/* as C's varargs read an int */
	return 0;
}

/* pfprint_uint: zero-extend from the record size, divide by normal. */
static int print_uint(struct dt_strbuf *out, const struct conv_out *co,
		      const struct dt_pf_arg *a)
{
	if (!int_size_ok(a->size))
		return -EINVAL;
	uint64_t v = load_u(a->data, a->size);
	uint64_t n = a->normal ? a->normal : 1;

	if (a->size == 8)
		v /= n;
	else if ((uint32_t)n != 0)
		v = (uint32_t)v / (uint32_t)n;
	if (plain_decimal(co->fmt) && co->fmt[strlen(co->fmt) - 1] == 'u')
		put_decimal(out, fmt_is_ll(co->cfmt) ? v : (unsigned)v, false);
	else if (fmt_is_ll(co->cfmt))
		put_ull(out, co->fmt, (unsigned long long)v);
	else
		put_u(out, co->fmt, (unsigned)v);
	return 0;
}

static int print_fp(struct dt_strbuf *out, const struct conv_out *co,
		    const struct dt_pf_arg *a)
{
	long double v;
	double n = a->normal ? (double)a->normal : 1.0;

	switch (a->size) {
	case sizeof(float): {
		float x;
		memcpy(&x, a->data, sizeof(x));
		v = x;
		break;
	}
	case sizeof(double): {
		double x;
		memcpy(&x, a->data, sizeof(x));
		v = x;
		break;
	}
	case sizeof(long double): {
		long double x;
		memcpy(&x, a->data, sizeof(x));
		v = x;
		break;
	}
	default:
		return -EINVAL;
	}
	if (co->cfmt[0] == 'L')
		put_ld(out, co->fmt, v / (long double)n);
	else
		put_d(out, co->fmt, (double)v / n);
	return 0;
}

/* DTrace's text for an address nobody could resolve. */
static void put_hex_addr(struct dt_strbuf *sb, uint64_t addr)
{
	dt_sb_printf(sb, "0x%llx", (unsigned long long)addr);
}

static void resolve(struct dt_strbuf *sb, const struct dt_pf_syms *syms, bool user, bool mod,
		    uint64_t pid, uint64_t addr)
{
	int rc = -1;

	if (syms != NULL) {
		if (user && mod && syms->umod != NULL)
			rc = syms->umod(syms->ctx, pid, addr, sb);
		else if (user && !mod && syms->uaddr != NULL)
			rc = syms->uaddr(syms->ctx, pid, addr, sb);
		else if (!user && mod && syms->kmod != NULL)
			rc = syms->kmod(syms->ctx, addr, sb);
		else if (!user && !mod && syms->kaddr != NULL)
			rc = syms->kaddr(syms->ctx, addr, sb);
	}
	if (rc != 0) {
		dt_sb_reset(sb);
		put_hex_addr(sb, addr);
	}
}

/* %a, and any string conversion of a mod() value (pfprint_addr, pfprint_mod). */
static int print_addr(struct dt_strbuf *out, const struct conv_out *co,
		      const struct dt_pf_arg *a, const struct dt_pf_ctx *ctx)
{
	struct dt_strbuf sym;
	uint64_t pid = 0, addr;
	bool user = false, mod = false;

	if (a->src == DT_PF_UMOD) {
		if (a->size != 16)
			return -EINVAL;
		pid = load_u(a->data, 8);
		addr = load_u((const char *)a->data + 8, 8);
		user = mod = true;
	} else {
		if (a->size != 4 && a->size != 8)
			return -EINVAL;
		addr = load_u(a->data, a->size);
		mod = a->src == DT_PF_KMOD;
	}
	dt_sb_init(&sym);
	resolve(&sym, ctx->syms, user, mod, pid, addr);
	put_s(out, co, sym.s != NULL ? sym.s : "");
	bool oom = sym.oom;
	dt_sb_free(&sym);
	return oom ? -ENOMEM : 0;
}

/* %A: 4 or 8 bytes of address, or a (tgid, pc) pair from usym() & co. */
static int print_uaddr(struct dt_strbuf *out, const struct conv_out *co,
		       const struct dt_pf_arg *a, const struct dt_pf_ctx *ctx)
{
	struct dt_strbuf sym;
	uint64_t pid = 0, addr;
	const char *p = a->data;

	switch (a->size) {
	case 4:
	case 8:
		addr = load_u(p, a->size);
		break;
	case 16:
		pid = load_u(p, 8);
		addr = load_u(p + 8, 8);
		break;
	case 24:
		pid = load_u(p + 8, 8);
		addr = load_u(p + 16, 8);
		break;
	default:
		return -EINVAL;
	}
	dt_sb_init(&sym);
	resolve(&sym, ctx->syms, true, a->src == DT_PF_UMOD, pid, addr);
	put_s(out, co, sym.s != NULL ? sym.s : "");
	bool oom = sym.oom;
	dt_sb_free(&sym);
	return oom ? -ENOMEM : 0;
}

/* The frames of a stack, each formatted with `co` (dt_print_stack/ustack). */
static void put_frames(struct dt_strbuf *out, const struct dt_pf_syms *syms,
		       const struct conv_out *co, bool user, uint64_t pid,
		       const void *pcs, size_t npcs, int indent)
{
	struct dt_strbuf sym;

	dt_sb_putc(out, '\n');
	dt_sb_init(&sym);
	for (size_t i = 0; i < npcs; i++) {
		uint64_t pc = load_u((const char *)pcs + i * 8, 8);

		if (pc == 0)
			break;
		dt_sb_printf(out, "%*s", indent, "");
		dt_sb_reset(&sym);
		resolve(&sym, syms, user, false, pid, pc);
		if (co != NULL)
			put_s(out, co, sym.s != NULL ? sym.s : "");
		else
			dt_sb_puts(out, sym.s != NULL ? sym.s : "");
		dt_sb_putc(out, '\n');
	}
	dt_sb_free(&sym);
}

void dt_format_stack(struct dt_strbuf *out, const struct dt_pf_syms *syms, bool user,
		     uint64_t pid, const uint64_t *pcs, size_t npcs, int indent)
{
	if (user && npcs == 0)
		return;
	put_frames(out, syms, NULL, user, pid, pcs, npcs, indent);
}

/* %k: the indent is the width when left-aligned, else none (pfprint_stack). */
static int print_stack(struct dt_strbuf *out, const struct conv_out *co,
		       const struct dt_pf_arg *a, const struct dt_pf_ctx *ctx)
{
	const struct dt_pf_spec *s = co->spec;
	int indent = 0;

	if (co->dynwidth < 0)
		indent = co->dynwidth == INT_MIN ? INT_MAX : -co->dynwidth;
	else if (s->flags & DT_PF_F_LEFT)
		indent = co->dynwidth ? co->dynwidth : s->width;

	if (a->src == DT_PF_USTACK) {
		if (a->size < 8 || a->size % 8 != 0)
			return -EINVAL;
		size_t depth = a->size / 8 - 1;
		if (depth == 0)
			return 0;
		put_frames(out, ctx->syms, co, true, load_u(a->data, 8),
			   (const char *)a->data + 8, depth, indent);
		return 0;
	}
	if (a->size % 8 != 0)
		return -EINVAL;
	put_frames(out, ctx->syms, co, false, 0, a->data, a->size / 8, indent);
	return 0;
}

void dt_pf_time_y(struct dt_strbuf *out, uint64_t ns)
{
	static const char months[12][4] = {
		"Jan", "Feb", "Mar", "Apr", "May", "Jun",
		"Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
	};
	time_t sec = (time_t)((int64_t)ns / 1000000000);
	struct tm tm;

	if (localtime_r(&sec, &tm) == NULL) {
		dt_sb_puts(out, "?");
		return;
	}
	/* ctime()'s fields with the year first, as mdb's /Y prints them. */
	dt_sb_printf(out, "%d %s %2d %02d:%02d:%02d", tm.tm_year + 1900, months[tm.tm_mon % 12],
		     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

static int print_time(struct dt_strbuf *out, const struct conv_out *co,
		      const struct dt_pf_arg *a, bool rfc822)
{
	struct dt_strbuf t;

	if (a->size != 8)
		return -EINVAL;
	uint64_t ns = load_u(a->data, 8);
	dt_sb_init(&t);
	if (rfc822) {
		/* DTrace's RFC 822 layout, %G (ISO year) and all. */
		time_t sec = (time_t)((int64_t)ns / 1000000000);
		struct tm tm;
		char buf[64] = "";

		if (localtime_r(&sec, &tm) != NULL)
			strftime(buf, sizeof(buf), "%a, %d %b %G %T %Z", &tm);
		dt_sb_puts(&t, buf);
	} else {
		dt_pf_time_y(&t, ns);
	}
	put_s(out, co, t.s != NULL ? t.s : "");
	bool oom = t.oom;
	dt_sb_free(&t);
	return oom ? -ENOMEM : 0;
}

/* %s: the record's bytes up to the first NUL (pfprint_cstr). */
static int print_cstr(struct dt_strbuf *out, const struct conv_out *co,
		      const struct dt_pf_arg *a)
{
	char *s = malloc(a->size + 1);

	if (s == NULL)
		return -ENOMEM;
	if (a->size > 0)
		memcpy(s, a->data, a->size);
	s[a->size] = '\0';
	put_s(out, co, s);
	free(s);
	return 0;
}

/* %ls, %ws: an array of 32-bit characters. */
static int print_wstr(struct dt_strbuf *out, const struct conv_out *co,
		      const struct dt_pf_arg *a)
{
	size_t n = a->size / sizeof(wchar_t);
	wchar_t *ws = calloc(n + 1, sizeof(wchar_t));

	if (ws == NULL)
		return -ENOMEM;
	if (n > 0)
		memcpy(ws, a->data, n * sizeof(wchar_t));
	put_ws(out, co->fmt, ws);
	free(ws);
	return 0;
}

void dt_pf_escape(struct dt_strbuf *out, const char *s, size_t n)
{
	static const char esc_from[] = "\a\b\f\n\r\t\v\"\\";
	static const char esc_to[] = "abfnrtv\"\\";

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *e = c != '\0' ? strchr(esc_from, c) : NULL;

		if (c == '\0') {
			/* The NUL itself is shown, then nothing after it. */
			dt_sb_puts(out, "\\0");
			break;
		}
		if (e != NULL) {
			dt_sb_putc(out, '\\');
			dt_sb_putc(out, esc_to[e - esc_from]);
		} else if (c != ' ' && (c < '!' || c > '~')) {
			dt_sb_printf(out, "\\%c%c%c", '0' + ((c >> 6) & 3), '0' + ((c >> 3) & 7),
				     '0' + (c & 7));
		} else {
			dt_sb_putc(out, (char)c);
		}
	}
}

/* %S and %C: escaped text (pfprint_estr, pfprint_echr). */
static int print_estr(struct dt_strbuf *out, const struct conv_out *co,
		      const struct dt_pf_arg *a, bool one_char)
{
	struct dt_strbuf e;
	char c;

	dt_sb_init(&e);
	if (one_char) {
		if (a->size != 1 && a->size != 2 && a->size != 4)
			return -EINVAL;
		c = (char)load_s(a->data, a->size);
		dt_pf_escape(&e, &c, 1);
	} else {
		dt_pf_escape(&e, a->data, a->size);
	}
	put_s(out, co, e.s != NULL ? e.s : "");
	bool oom = e.oom;
	dt_sb_free(&e);
	return oom ? -ENOMEM : 0;
}

static int print_value(struct dt_strbuf *out, const struct conv_out *co,
		       const struct dt_pf_arg *a, const struct dt_pf_ctx *ctx)
{
	const struct dt_pf_spec *s = co->spec;

	if (a->src == DT_PF_TEXT) {
		/* A pre-rendered aggregation (quantize & co) ignores the format. */
		dt_sb_puts(out, a->text != NULL ? a->text : "");
		return 0;
	}
	if (a->data == NULL && a->size != 0)
		return -EINVAL;

	switch (s->conv->print) {
	case PFPR_SINT:
		return print_sint(out, co, a);
	case PFPR_UINT:
		return print_uint(out, co, a);
	case PFPR_DINT:
		/* An unchecked %d (no type known) prints signed. */
		if (!s->checked || s->is_signed)
			return print_sint(out, co, a);
		return print_uint(out, co, a);
	case PFPR_FP:
		return print_fp(out, co, a);
	case PFPR_ADDR:
		return print_addr(out, co, a, ctx);
	case PFPR_UADDR:
		return print_uaddr(out, co, a, ctx);
	case PFPR_STACK:
		return print_stack(out, co, a, ctx);
	case PFPR_TIME:
		return print_time(out, co, a, false);
	case PFPR_TIME822:
		return print_time(out, co, a, true);
	case PFPR_CSTR:
		return print_cstr(out, co, a);
	case PFPR_WSTR:
		return print_wstr(out, co, a);
	case PFPR_ESTR:
		return print_estr(out, co, a, false);
	case PFPR_ECHR:
		return print_estr(out, co, a, true);
	case PFPR_PCT:
		dt_sb_putc(out, '%');
		return 0;
	}
	return -EINVAL;
}

int dt_pf_format(struct dt_strbuf *out, const struct dt_pf_format *f,
		 const struct dt_pf_arg *args, size_t nargs, const struct dt_pf_ctx *ctx)
{
	static const struct dt_pf_ctx noctx;
	size_t ai = 0, curagg = 0;

	if (ctx == NULL)
		ctx = &noctx;
	for (size_t i = 0; i < f->nspecs; i++) {
		const struct dt_pf_spec *s = &f->specs[i];
		struct conv_out co = { .spec = s };
		const struct dt_pf_arg *v;
		int width = s->width, prec = s->prec, rc;

		dt_sb_putn(out, f->text + s->prefix_off, s->prefix_len);
		if (s->conv == NULL)
			continue;
		if (s->conv->print == PFPR_PCT) {
			dt_sb_putc(out, '%');
			continue;
		}
		if (s->flags & DT_PF_F_DYNWIDTH) {
			if (ai >= nargs || get_dyn_int(&args[ai++], &width) < 0)
				return -EINVAL;
			co.dynwidth = width;
		}
		if (s->flags & DT_PF_F_DYNPREC) {
			if (ai >= nargs || get_dyn_int(&args[ai++], &prec) < 0)
				return -EINVAL;
		}
		if (s->flags & DT_PF_F_AGG) {
			if (ctx->naggvals == 0)
				return -EINVAL;
			/* Extra %@ conversions repeat the last aggregation. */
			v = &ctx->aggvals[curagg];
			if (curagg < ctx->naggvals - 1)
				curagg++;
		} else {
			if (ai >= nargs)
				return -EINVAL;
			v = &args[ai++];
		}
		settle_cfmt(s, v->size, co.cfmt);
		build_fmt(&co, width, prec);
		rc = print_value(out, &co, v, ctx);
		if (rc < 0)
			return rc;
	}
	if (out->oom)
		return -ENOMEM;
	return (int)ai;
}
