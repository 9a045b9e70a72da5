/*
 * Parsing DTrace format strings: the conversion table and the splitter.
 * Follows the grammar of dt_printf_create(): flags, width, precision and
 * length modifiers in any order, then a conversion looked up by its full
 * name ("lld", "hx"), so that C's %hhd, %zd, %jd are unknown as in DTrace.
 */
#include "base/printf_conv.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char proto_xint[] = "char, short, int, long, or long long";
static const char proto_csi[] = "char, short, or int";
static const char proto_fp[] = "float, double, or long double";
static const char proto_addr[] = "pointer or integer";
static const char proto_uaddr[] =
	"pointer or integer (with -p/-c) or _usymaddr (without -p/-c)";
static const char proto_cstr[] = "char [] or string (or use stringof)";
static const char proto_wstr[] = "wchar_t []";

#define CONV(n, o, p, c, pr) { n, o, p, PFCHK_##c, PFPR_##pr, DT_PFA_OTHER, 0, false }
#define TYPED(n, o, p, pr, k, sz, sg) { n, o, p, PFCHK_TYPE, PFPR_##pr, k, sz, sg }

/* DTrace's printf conversions (libdtrace/dt_printf.c, _dtrace_conversions). */
static const struct dt_pf_conv conversions[] = {
	CONV("a", "s", proto_addr, KADDR, ADDR),
	CONV("A", "s", proto_uaddr, UADDR, UADDR),
	CONV("c", "c", proto_csi, CSI, SINT),
	CONV("C", "s", proto_csi, CSI, ECHR),
	CONV("d", "d", proto_xint, DINT, DINT),
	CONV("e", "e", proto_fp, FP, FP),
	CONV("E", "E", proto_fp, FP, FP),
	CONV("f", "f", proto_fp, FP, FP),
	CONV("g", "g", proto_fp, FP, FP),
	CONV("G", "G", proto_fp, FP, FP),
	TYPED("hd", "d", "short", SINT, DT_PFA_INT, 2, true),
	TYPED("hi", "i", "short", SINT, DT_PFA_INT, 2, true),
	TYPED("ho", "o", "unsigned short", UINT, DT_PFA_INT, 2, false),
	TYPED("hu", "u", "unsigned short", UINT, DT_PFA_INT, 2, false),
	CONV("hx", "x", "short", XSHORT, UINT),
	CONV("hX", "X", "short", XSHORT, UINT),
	CONV("i", "i", proto_xint, DINT, DINT),
	CONV("k", "s", "stack", STACK, STACK),
	TYPED("lc", "lc", "int", SINT, DT_PFA_INT, 4, true),
	TYPED("ld", "d", "long", SINT, DT_PFA_INT, 8, true),
	TYPED("li", "i", "long", SINT, DT_PFA_INT, 8, true),
	TYPED("lo", "o", "unsigned long", UINT, DT_PFA_INT, 8, false),
	TYPED("lu", "u", "unsigned long", UINT, DT_PFA_INT, 8, false),
	CONV("ls", "ls", proto_wstr, WSTR, WSTR),
	CONV("lx", "x", "long", XLONG, UINT),
	CONV("lX", "X", "long", XLONG, UINT),
	TYPED("lld", "d", "long long", SINT, DT_PFA_INT, 8, true),
	TYPED("lli", "i", "long long", SINT, DT_PFA_INT, 8, true),
	TYPED("llo", "o", "unsigned long long", UINT, DT_PFA_INT, 8, false),
	TYPED("llu", "u", "unsigned long long", UINT, DT_PFA_INT, 8, false),
	CONV("llx", "x", "long long", XLONGLONG, UINT),
	CONV("llX", "X", "long long", XLONGLONG, UINT),
	TYPED("Le", "e", "long double", FP, DT_PFA_FLOAT, 16, true),
	TYPED("LE", "E", "long double", FP, DT_PFA_FLOAT, 16, true),
	TYPED("Lf", "f", "long double", FP, DT_PFA_FLOAT, 16, true),
	TYPED("Lg", "g", "long double", FP, DT_PFA_FLOAT, 16, true),
	TYPED("LG", "G", "long double", FP, DT_PFA_FLOAT, 16, true),
	CONV("o", "o", proto_xint, XINT, UINT),
	CONV("p", "x", proto_addr, ADDR, UINT),
	CONV("s", "s", proto_cstr, STR, CSTR),
	CONV("S", "s", proto_cstr, STR, ESTR),
	CONV("T", "s", "int64_t", TIME, TIME822),
	CONV("u", "u", proto_xint, XINT, UINT),
	TYPED("wc", "wc", "int", SINT, DT_PFA_INT, 4, true),
	CONV("ws", "ws", proto_wstr, WSTR, WSTR),
	CONV("x", "x", proto_xint, XINT, UINT),
	CONV("X", "X", proto_xint, XINT, UINT),
	CONV("Y", "s", "int64_t", TIME, TIME),
	TYPED("%", "%", "void", PCT, DT_PFA_VOID, 0, false),
};

const struct dt_pf_conv *dt_pf_conv_lookup(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(conversions); i++)
		if (strcmp(conversions[i].name, name) == 0)
			return &conversions[i];
	return NULL;
}

void dt_pf_seterr(struct dt_pf_error *err, const char *tag, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return;
	err->tag = tag;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

void dt_pf_free(struct dt_pf_format *f)
{
	if (f == NULL)
		return;
	free(f->specs);
	free(f->text);
	free(f);
}

static struct dt_pf_spec *add_spec(struct dt_pf_format *f, size_t *cap)
{
	if (f->nspecs == *cap) {
		size_t ncap = *cap ? *cap * 2 : 4;
		struct dt_pf_spec *s = realloc(f->specs, ncap * sizeof(*s));

		if (s == NULL)
			return NULL;
		f->specs = s;
		*cap = ncap;
	}
	struct dt_pf_spec *s = &f->specs[f->nspecs++];
	memset(s, 0, sizeof(*s));
	return s;
}

/*
 * Parse the conversion starting after the '%' at text[*pos]; on return *pos
 * is the index of the conversion character.  `n` is the conversion's number.
 */
static int parse_conv(const char *text, size_t *pos, struct dt_pf_spec *s, size_t n,
		      struct dt_pf_error *err)
{
	char name[8];
	size_t namelen = 0;
	int digits = 0, dot = 0;
	size_t p = *pos;

	for (;;) {
		char c = text[++p];

		switch (c) {
		case '0': case '1': case '2': case '3': case '4':
		case '5': case '6': case '7': case '8': case '9': {
			/* A leading '0' is the zero-padding flag, not a width. */
			if (dot == 0 && digits == 0 && c == '0') {
				s->flags |= DT_PF_F_ZPAD;
				s->flags &= ~DT_PF_F_LEFT;
				continue;
			}
			long v = 0;
			while (text[p] >= '0' && text[p] <= '9') {
				if (v <= (INT_MAX - 9) / 10)	/* saturate, never overflow */
					v = v * 10 + (text[p] - '0');
				p++;
			}
			p--;
			if (dot)
				s->prec = (int)v;
			else
				s->width = (int)v;
			digits++;
			continue;
		}
		case '#':
			s->flags |= DT_PF_F_ALT;
			continue;
		case '*': {
			unsigned bit = dot ? DT_PF_F_DYNPREC : DT_PF_F_DYNWIDTH;

			if (s->flags & bit) {
				dt_pf_seterr(err, "D_SYNTAX", "format conversion #%zu has more "
					     "than one '*' specified for the output %s", n,
					     dot ? "precision" : "width");
				return -EINVAL;
			}
			s->flags |= bit;
			continue;
		}
		case '+':
			s->flags |= DT_PF_F_SPOS;
			continue;
		case '-':
			s->flags |= DT_PF_F_LEFT;
			s->flags &= ~DT_PF_F_ZPAD;
			continue;
		case '.':
			if (dot++ != 0) {
				dt_pf_seterr(err, "D_SYNTAX", "format conversion #%zu has more "
					     "than one '.' specified", n);
				return -EINVAL;
			}
			digits = 0;
			continue;
		case '?':
			s->flags |= DT_PF_F_ADDRWIDTH;
			s->width = 16;	/* LP64 */
			continue;
		case '@':
			s->flags |= DT_PF_F_AGG;
			continue;
		case '\'':
			s->flags |= DT_PF_F_GROUP;
			continue;
		case ' ':
			s->flags |= DT_PF_F_SPACE;
			continue;
		case '$':
			dt_pf_seterr(err, "D_SYNTAX", "format conversion #%zu uses unsupported "
				     "positional format (%%n$)", n);
			return -EINVAL;
		case '%':
			if (text[p - 1] != '%') {
				dt_pf_seterr(err, "D_SYNTAX", "format conversion #%zu cannot be "
					     "combined with other format flags: %%%%", n);
				return -EINVAL;
			}
			name[namelen++] = c;
			break;
		case '\0':
			dt_pf_seterr(err, "D_SYNTAX", "format conversion #%zu name expected "
				     "before end of format string", n);
			return -EINVAL;
		case 'h': case 'l': case 'L': case 'w':
			/* Length modifiers become part of the name, as in DTrace. */
			if (namelen < sizeof(name) - 2)
				name[namelen++] = c;
			continue;
		default:
			name[namelen++] = c;
			break;
		}
		break;
	}
	name[namelen] = '\0';
	memcpy(s->name, name, namelen + 1);
	s->conv = dt_pf_conv_lookup(name);
	if (s->conv == NULL) {
		dt_pf_seterr(err, "D_SYNTAX", "format conversion #%zu is undefined: %%%s", n, name);
		return -EINVAL;
	}
	*pos = p;
	return 0;
}

int dt_pf_parse(const char *fmt, struct dt_pf_format **out, struct dt_pf_error *err)
{
	struct dt_pf_format *f = calloc(1, sizeof(*f));
	size_t cap = 0, q = 0;
	int rc = -ENOMEM;

	*out = NULL;
	if (f == NULL || (f->text = strdup(fmt)) == NULL)
		goto fail;

	for (;;) {
		const char *pct = strchr(f->text + q, '%');

		if (pct == NULL)
			break;
		size_t p = (size_t)(pct - f->text);
		struct dt_pf_spec *s = add_spec(f, &cap);

		if (s == NULL)
			goto fail;
		s->prefix_off = q;
		s->prefix_len = p - q;
		rc = parse_conv(f->text, &p, s, f->nspecs, err);
		if (rc < 0)
			goto fail;
		q = p + 1;
	}
	/* Trailing text, or the empty format's single empty piece. */
	if (f->text[q] != '\0' || f->text[0] == '\0') {
		struct dt_pf_spec *s = add_spec(f, &cap);

		if (s == NULL) {
			rc = -ENOMEM;
			goto fail;
		}
		s->prefix_off = q;
		s->prefix_len = strlen(f->text + q);
	}
	*out = f;
	return 0;
fail:
	if (rc == -ENOMEM)
		dt_pf_seterr(err, NULL, "Memory allocation failure");
	dt_pf_free(f);
	return rc;
}

bool dt_pf_spec_takes_value(const struct dt_pf_spec *s)
{
	return s->conv != NULL && s->conv->print != PFPR_PCT;
}

bool dt_pf_has_uaddr(const struct dt_pf_format *f)
{
	for (size_t i = 0; f != NULL && i < f->nspecs; i++)
		if (f->specs[i].conv != NULL && f->specs[i].conv->print == PFPR_UADDR)
			return true;
	return false;
}

size_t dt_pf_nargs(const struct dt_pf_format *f)
{
	size_t n = 0;

	for (size_t i = 0; i < f->nspecs; i++) {
		const struct dt_pf_spec *s = &f->specs[i];

		if (!dt_pf_spec_takes_value(s))
			continue;
		n += !!(s->flags & DT_PF_F_DYNWIDTH) + !!(s->flags & DT_PF_F_DYNPREC);
		n += !(s->flags & DT_PF_F_AGG);
	}
	return n;
}

enum dt_pf_argrole dt_pf_arg_role(const struct dt_pf_format *f, size_t i,
				  const struct dt_pf_spec **spec)
{
	for (size_t k = 0; k < f->nspecs; k++) {
		const struct dt_pf_spec *s = &f->specs[k];
		enum dt_pf_argrole roles[3];
		size_t n = 0;

		if (!dt_pf_spec_takes_value(s))
			continue;
		if (s->flags & DT_PF_F_DYNWIDTH)
			roles[n++] = DT_PF_ROLE_WIDTH;
		if (s->flags & DT_PF_F_DYNPREC)
			roles[n++] = DT_PF_ROLE_PREC;
		if (!(s->flags & DT_PF_F_AGG))
			roles[n++] = DT_PF_ROLE_VALUE;
		if (i < n) {
			if (spec != NULL)
				*spec = s;
			return roles[i];
		}
		i -= n;
	}
	if (spec != NULL)
		*spec = NULL;
	return DT_PF_ROLE_NONE;
}
