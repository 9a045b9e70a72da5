/* Reading a tracepoint's format file: its fields' C types, offsets and sizes. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "base/probe.h"
#include "base/types.h"
#include "compiler/ast.h"
#include "providers/tp_format.h"
#include "providers/tracefs.h"

static void trim_copy(char *dst, size_t cap, const char *s, size_t n)
{
	while (n > 0 && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* "char comm[16]", "__data_loc char[] name", "const char * p": type, name, array length. */
static bool parse_decl(const char *d, struct dt_tp_field *f)
{
	static const char *const locs[] = { "__data_loc ", "__rel_loc " };
	int loc = -1;

	for (int i = 0; i < 2; i++) {
		size_t n = strlen(locs[i]);
		if (strncmp(d, locs[i], n) == 0) {
			loc = i;
			d += n;
			break;
		}
	}
	size_t len = strlen(d);
	while (len > 0 && isspace((unsigned char)d[len - 1]))
		len--;
	const char *end = d + len;
	/* An array suffix after the name ("comm[16]") or after the type ("char[]"). */
	const char *br = memchr(d, '[', len);
	const char *name_end = end;
	if (br != NULL && loc < 0) {
		f->nelems = (uint32_t)strtoul(br + 1, NULL, 0);
		name_end = br;
	}
	const char *name = name_end;
	while (name > d && (isalnum((unsigned char)name[-1]) || name[-1] == '_'))
		name--;
	if (name == name_end || name == d)
		return false;
	trim_copy(f->name, sizeof(f->name), name, (size_t)(name_end - name));
	const char *type_end = name;
	if (loc >= 0 && br != NULL && br < name)
		type_end = br;
	trim_copy(f->type, sizeof(f->type), d, (size_t)(type_end - d));
	if (loc == 0)
		f->data_loc = true;
	else if (loc == 1)	/* relative to the field itself: its raw 32-bit word */
		snprintf(f->type, sizeof(f->type), "uint32_t");
	return f->type[0] != '\0';
}

bool dt_tp_parse_field(const char *line, struct dt_tp_field *f)
{
	const char *fld = strstr(line, "field:");

	memset(f, 0, sizeof(*f));
	if (fld == NULL)
		return false;
	fld += 6;
	const char *semi = strchr(fld, ';');
	if (semi == NULL)
		return false;
	char decl[192];
	trim_copy(decl, sizeof(decl), fld, (size_t)(semi - fld));
	const char *o = strstr(semi, "offset:"), *s = strstr(semi, "size:"),
		   *g = strstr(semi, "signed:");
	unsigned off, size, sgn = 0;
	if (o == NULL || s == NULL || sscanf(o, "offset:%u", &off) != 1 ||
	    sscanf(s, "size:%u", &size) != 1 || off > UINT16_MAX || size > UINT16_MAX)
		return false;
	if (g != NULL && sscanf(g, "signed:%u", &sgn) != 1)
		sgn = 0;
	f->off = (uint16_t)off;
	f->size = (uint16_t)size;
	f->is_signed = sgn != 0;
	return parse_decl(decl, f);
}

int dt_tp_format(const char *group, const char *event, struct dt_tp_field *f, int max)
{
	const char *base = dt_tracefs();
	char path[512];
	int n = 0;

	if (base == NULL)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", base, group, event);
	FILE *fp = fopen(path, "re");
	if (fp == NULL)
		return -errno;
	char line[512];
	while (n < max && fgets(line, sizeof(line), fp) != NULL) {
		if (!dt_tp_parse_field(line, &f[n]))
			continue;
		if (strncmp(f[n].name, "common_", 7) == 0)
			continue;
		n++;
	}
	fclose(fp);
	return n;
}

/* The D type of a field's C type; an integer of its size if D does not know the type. */
struct dt_type *dt_tp_field_type(struct dt_registry *reg, const struct dt_tp_field *f)
{
	struct dt_typetab *tt = &reg->core->types;

	if (f->data_loc)
		return tt->t_charptr;
	char name[sizeof(f->type)];
	int ptrs = 0;
	snprintf(name, sizeof(name), "%s", f->type);
	for (size_t n = strlen(name); n > 0; n = strlen(name)) {
		if (name[n - 1] == '*')
			ptrs++;
		else if (name[n - 1] != ' ')
			break;
		name[n - 1] = '\0';
	}
	const char *base = name;
	unsigned quals = 0;
	if (strncmp(base, "const ", 6) == 0) {
		quals = DS_CONST;
		base += 6;
	}
	struct dt_type *t = dt_type_lookup(tt, base);
	uint32_t esz = f->nelems > 0 ? f->size / f->nelems : f->size;
	/* Syscall arguments are register-wide fields whatever their C type. */
	bool widened = t != NULL && ptrs == 0 && f->nelems == 0 && esz == 8 && t->size < 8 &&
		       dt_type_is_integer(t);
	if (t == NULL || (ptrs == 0 && t->size != esz && !widened)) {
		if (ptrs > 0)
			t = tt->t_void;
		else
			return dt_type_int(tt, f->size <= 8 ? f->size : 8, f->is_signed);
	}
	if (quals != 0)
		t = dt_type_qualified(tt, t, quals);
	while (ptrs-- > 0)
		t = dt_type_ptr(tt, t);
	if (f->nelems > 0)
		t = dt_type_array(tt, t, f->nelems);
	return t;
}

