/* Parsing of stapsdt notes and their argument specifications (x86_64). */
#include "providers/stapsdt.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "providers/pt_regs.h"

#define NT_STAPSDT 3

static uint64_t get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

int dt_sdt_note_parse(const void *desc, size_t len, struct dt_sdt_note *n)
{
	const unsigned char *d = desc;
	const char *s[3];
	size_t off = 24;

	memset(n, 0, sizeof(*n));
	if (len < off + 3)
		return -EINVAL;
	for (int i = 0; i < 3; i++) {
		const char *start = (const char *)d + off;
		const char *nul = memchr(start, '\0', len - off);
		if (nul == NULL)
			return -EINVAL;
		s[i] = start;
		off += (size_t)(nul - start) + 1;
		if (i < 2 && off >= len)
			return -EINVAL;
	}
	if (s[0][0] == '\0' || s[1][0] == '\0')
		return -EINVAL;
	n->pc = get64(d);
	n->base = get64(d + 8);
	n->sema = get64(d + 16);
	n->provider = strdup(s[0]);
	n->name = strdup(s[1]);
	n->args = strdup(s[2]);
	if (n->provider == NULL || n->name == NULL || n->args == NULL) {
		dt_sdt_note_free(n);
		return -ENOMEM;
	}
	return 0;
}

void dt_sdt_note_free(struct dt_sdt_note *n)
{
	free(n->provider);
	free(n->name);
	free(n->args);
	memset(n, 0, sizeof(*n));
}

int dt_sdt_notes_walk(const void *data, size_t len,
		      int (*f)(const struct dt_sdt_note *n, void *arg), void *arg)
{
	const unsigned char *p = data;
	size_t off = 0;

	while (off + 12 <= len) {
		uint32_t namesz, descsz, type;
		memcpy(&namesz, p + off, 4);
		memcpy(&descsz, p + off + 4, 4);
		memcpy(&type, p + off + 8, 4);
		size_t name_off = off + 12;
		size_t desc_off = name_off + (((size_t)namesz + 3) & ~(size_t)3);
		size_t next = desc_off + (((size_t)descsz + 3) & ~(size_t)3);
		if (desc_off > len || next > len || desc_off + descsz > len)
			break;
		if (type == NT_STAPSDT && namesz == 8 && memcmp(p + name_off, "stapsdt", 8) == 0) {
			struct dt_sdt_note n;
			if (dt_sdt_note_parse(p + desc_off, descsz, &n) == 0) {
				int rc = f(&n, arg);
				dt_sdt_note_free(&n);
				if (rc != 0)
					return rc;
			}
		}
		off = next;
	}
	return 0;
}

/* ---- argument specifications ---- */

/* "%name" at *pp: the register's offset, or -1. */
static int parse_reg(const char **pp, int *width, int *shift)
{
	const char *p = *pp;
	char name[8];
	size_t n = 0;

	if (*p != '%')
		return -1;
	p++;
	while (isalnum((unsigned char)*p) && n < sizeof(name) - 1)
		name[n++] = *p++;
	name[n] = '\0';
	int off = dt_pt_reg_offset(name, width, shift);
	if (off >= 0)
		*pp = p;
	return off;
}

static bool parse_int(const char **pp, int64_t *v)
{
	const char *p = *pp;
	char *end;
	bool neg = false;

	if (*p == '-' || *p == '+') {
		neg = *p == '-';
		p++;
	}
	if (!isdigit((unsigned char)*p))
		return false;
	uint64_t u = strtoull(p, &end, 0);
	*v = neg ? -(int64_t)u : (int64_t)u;
	*pp = end;
	return true;
}

/* One operand (after "size@"); false if not understood. */
static bool parse_operand(const char *p, struct dt_sdt_arg *a)
{
	int width, shift;

	a->reg = a->index = -1;
	if (*p == '$') {
		p++;
		if (!parse_int(&p, &a->val) || *p != '\0')
			return false;
		a->kind = DT_SDT_ARG_CONST;
		return true;
	}
	if (*p == '%') {
		int off = parse_reg(&p, &width, &shift);
		if (off < 0 || *p != '\0')
			return false;
		a->kind = DT_SDT_ARG_REG;
		a->reg = (int16_t)off;
		a->shift = (uint8_t)shift;
		if (a->size == 0)
			a->size = (int8_t)width;
		return true;
	}
	/* Memory: [sym][+-disp](base[,index[,scale]]) */
	int64_t disp = 0;
	if (isalpha((unsigned char)*p) || *p == '_' || *p == '.') {
		size_t n = 0;
		while ((isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == '@') &&
		       n < sizeof(a->sym) - 1)
			a->sym[n++] = *p++;
		a->sym[n] = '\0';
		if (isalnum((unsigned char)*p) || *p == '_')
			return false;	/* name too long */
	}
	if (*p == '+' || *p == '-' || isdigit((unsigned char)*p)) {
		if (!parse_int(&p, &disp))
			return false;
	}
	a->val = disp;
	if (*p != '(') {
		/* An absolute address or a bare symbol. */
		if (*p != '\0')
			return false;
		a->kind = DT_SDT_ARG_MEM;
		return true;
	}
	p++;
	if (*p == '%') {
		int off = parse_reg(&p, &width, &shift);
		if (off < 0 || width != 8)
			return false;
		a->reg = (int16_t)off;
		a->rip = off == 128;
	}
	a->scale = 1;
	if (*p == ',') {
		p++;
		int off = parse_reg(&p, &width, &shift);
		if (off < 0 || width != 8)
			return false;
		a->index = (int16_t)off;
		if (*p == ',') {
			p++;
			int64_t sc;
			if (!parse_int(&p, &sc) || (sc != 1 && sc != 2 && sc != 4 && sc != 8))
				return false;
			a->scale = (uint8_t)sc;
		}
	}
	if (*p != ')' || p[1] != '\0')
		return false;
	/* %rip-relative operands only make sense with a symbol. */
	if (a->rip && a->sym[0] == '\0')
		return false;
	a->kind = DT_SDT_ARG_MEM;
	return true;
}

int dt_sdt_args_parse(const char *s, struct dt_sdt_arg *args, int max)
{
	int n = 0;

	while (*s != '\0' && n < max) {
		while (isspace((unsigned char)*s))
			s++;
		if (*s == '\0')
			break;
		const char *start = s;
		while (*s != '\0' && !isspace((unsigned char)*s))
			s++;
		char op[128];
		size_t len = (size_t)(s - start);
		struct dt_sdt_arg *a = &args[n++];
		memset(a, 0, sizeof(*a));
		a->reg = a->index = -1;
		if (len >= sizeof(op))
			continue;
		memcpy(op, start, len);
		op[len] = '\0';
		const char *p = op, *at = strchr(op, '@');
		if (at != NULL) {
			int64_t sz;
			const char *q = op;
			if (!parse_int(&q, &sz) || q != at ||
			    !(sz == 1 || sz == 2 || sz == 4 || sz == 8 || sz == -1 || sz == -2 ||
			      sz == -4 || sz == -8))
				continue;
			a->size = (int8_t)sz;
			p = at + 1;
		}
		if (!parse_operand(p, a)) {
			memset(a, 0, sizeof(*a));
			a->reg = a->index = -1;
			continue;
		}
		if (a->size == 0)
			a->size = 8;
	}
	return n;
}
