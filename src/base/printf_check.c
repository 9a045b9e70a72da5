/*
 * Compile-time checking of printf-like arguments against their conversions,
 * with DTrace's rules and messages (dt_printf_validate, dt_printa_validate
 * and the pfcheck_* functions of libdtrace/dt_printf.c).
 */
#include "base/printf_conv.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *tname(const struct dt_pf_argtype *t)
{
	return t->name != NULL ? t->name : "";
}

static const char *bname(const struct dt_pf_argtype *t)
{
	return t->base_name != NULL ? t->base_name : tname(t);
}

/* _symaddr and _usymaddr are integer typedefs in DTrace. */
static bool is_integer(const struct dt_pf_argtype *t)
{
	return t->kind == DT_PFA_INT || t->kind == DT_PFA_ENUM ||
	       t->kind == DT_PFA_SYMADDR || t->kind == DT_PFA_USYMADDR;
}

/* D treats arrays as pointers; a D string is not one. */
static bool is_pointer(const struct dt_pf_argtype *t)
{
	return t->kind == DT_PFA_POINTER || t->kind == DT_PFA_ARRAY;
}

/* DTrace's IS_CHAR(): a signed, 8-bit char encoding. */
static bool is_char_array(const struct dt_pf_argtype *t)
{
	return t->kind == DT_PFA_ARRAY && t->elem_kind == DT_PFA_INT &&
	       t->elem_size == 1 && t->elem_is_char && t->elem_signed;
}

static bool name_in(const char *n, const char *const *names)
{
	for (; *names != NULL; names++)
		if (strcmp(n, *names) == 0)
			return true;
	return false;
}

/* D's spellings, plus GCC's as BTF has them. */
static const char *const shorts[] = {
	"short", "signed short", "unsigned short", "short int", "signed short int",
	"short unsigned int", "unsigned short int", NULL
};
static const char *const longs[] = {
	"long", "signed long", "unsigned long", "long int", "signed long int",
	"long unsigned int", "unsigned long int", NULL
};
static const char *const longlongs[] = {
	"long long", "signed long long", "unsigned long long", "long long int",
	"signed long long int", "long long unsigned int", "unsigned long long int", NULL
};

/* %llx also takes [u]int64_t and typedefs of them, whatever they alias. */
static bool check_xlonglong(const struct dt_pf_argtype *t)
{
	static const char *const int64s[] = { "int64_t", "uint64_t", NULL };

	if (name_in(bname(t), longlongs))
		return true;
	for (size_t i = 0; i < t->ntypedefs; i++)
		if (t->typedefs[i] != NULL && name_in(t->typedefs[i], int64s))
			return true;
	return false;
}

/* ctf_type_compat() with one of the D types named in the conversion table. */
static bool check_type(const struct dt_pf_conv *c, const struct dt_pf_argtype *t)
{
	if (c->tkind == DT_PFA_FLOAT)
		return t->kind == DT_PFA_FLOAT && t->size == c->tsize;
	if (t->kind == DT_PFA_ENUM)
		return t->size == c->tsize;
	if (t->kind == DT_PFA_SYMADDR || t->kind == DT_PFA_USYMADDR)
		return c->tsize == 8 && !c->tsigned;
	return t->kind == DT_PFA_INT && !t->is_char && t->size == c->tsize &&
	       t->is_signed == c->tsigned;
}

static bool check_arg(const struct dt_pf_conv *c, struct dt_pf_spec *s,
		      const struct dt_pf_argtype *t, const struct dt_pf_check_opts *o)
{
	switch (c->check) {
	case PFCHK_ADDR:
		return is_pointer(t) || is_integer(t);
	case PFCHK_KADDR:
		return is_pointer(t) || is_integer(t) || t->kind == DT_PFA_SYMADDR;
	case PFCHK_UADDR:
		if (t->kind == DT_PFA_USYMADDR)
			return true;
		return o->have_target && (is_pointer(t) || is_integer(t));
	case PFCHK_STACK:
		return t->kind == DT_PFA_STACK;
	case PFCHK_TIME:
		return is_integer(t) && t->size == 8;
	case PFCHK_STR:
		return t->kind == DT_PFA_STRING || is_char_array(t);
	case PFCHK_WSTR:
		return t->kind == DT_PFA_ARRAY && t->elem_kind == DT_PFA_INT && t->elem_size == 4;
	case PFCHK_CSI:
		return is_integer(t) && t->size <= 4;
	case PFCHK_FP:
		return t->kind == DT_PFA_FLOAT;
	case PFCHK_XINT:
		return is_integer(t);
	case PFCHK_DINT:
		/* %d of an unsigned value prints as %u. */
		s->is_signed = (t->kind == DT_PFA_INT || t->kind == DT_PFA_ENUM) && t->is_signed;
		if (!s->is_signed)
			s->cfmt[strlen(s->cfmt) - 1] = 'u';
		return is_integer(t);
	case PFCHK_XSHORT:
		return name_in(bname(t), shorts);
	case PFCHK_XLONG:
		return name_in(bname(t), longs);
	case PFCHK_XLONGLONG:
		return check_xlonglong(t);
	case PFCHK_TYPE:
		return check_type(c, t);
	}
	return false;
}

/* The C length prefix and conversion used to print, before any %d -> %u. */
static void settle_cfmt(struct dt_pf_spec *s, const struct dt_pf_argtype *t)
{
	const struct dt_pf_conv *c = s->conv;

	s->cfmt[0] = '\0';
	if (c->print == PFPR_SINT || c->print == PFPR_UINT || c->print == PFPR_DINT) {
		if (t->size == 8)
			strcpy(s->cfmt, "ll");
	} else if (c->print == PFPR_FP) {
		if (t->size == 16)
			strcpy(s->cfmt, "L");
	}
	strcat(s->cfmt, c->ofmt);
}

int dt_pf_check(struct dt_pf_format *f, const struct dt_pf_check_opts *o,
		const struct dt_pf_argtype *args, size_t nargs, struct dt_pf_error *err)
{
	const char *func = o->func;
	const int foff = o->first_argno;
	const struct dt_pf_argtype aggtype = {
		.kind = DT_PFA_INT, .size = 8, .is_signed = !o->agg_is_count,
		.name = o->agg_is_count ? "uint64_t" : "int64_t",
	};
	size_t j = 0;

	/* freopen("") is allowed: it restores the original output. */
	if (f->text[0] == '\0' && strcmp(func, "freopen") != 0) {
		dt_pf_seterr(err, "D_PRINTF_FMT_EMPTY", "%s( ) format string is empty", func);
		return -EINVAL;
	}

	for (size_t i = 0; i < f->nspecs; i++) {
		struct dt_pf_spec *s = &f->specs[i];
		const struct dt_pf_conv *c = s->conv;
		const struct dt_pf_argtype *v;
		char vname[64];

		if (c == NULL)
			continue;
		s->is_signed = false;
		if (c->print == PFPR_PCT) {
			strcpy(s->cfmt, "%");
			s->checked = true;
			continue;
		}

		/* A '*' width comes first, then a '.*' precision: both ints. */
		for (int d = 0; d < 2; d++) {
			unsigned bit = d == 0 ? DT_PF_F_DYNWIDTH : DT_PF_F_DYNPREC;
			const char *dyn = d == 0 ? "*" : ".*";

			if (!(s->flags & bit))
				continue;
			if (j >= nargs) {
				dt_pf_seterr(err, "D_PRINTF_DYN_PROTO", "%s( ) prototype mismatch: "
					     "conversion #%zu (%%%s) is missing a corresponding "
					     "\"%s\" argument", func, i + 1, c->name, dyn);
				return -EINVAL;
			}
			if (!is_integer(&args[j])) {
				dt_pf_seterr(err, "D_PRINTF_DYN_TYPE", "%s( ) argument #%zu is "
					     "incompatible with conversion #%zu prototype:\n"
					     "\tconversion: %% %s %s\n\t prototype: int\n"
					     "\t  argument: %s", func, j + foff + 1, i + 1, dyn,
					     c->name, tname(&args[j]));
				return -EINVAL;
			}
			j++;
		}

		if (s->flags & DT_PF_F_AGG) {
			if (!o->aggregation) {
				dt_pf_seterr(err, "D_PRINTF_AGG_CONV", "%%@ conversion requires an "
					     "aggregation and is not for use with %s( )", func);
				return -EINVAL;
			}
			strcpy(vname, "aggregating action");
			v = &aggtype;
		} else if (j >= nargs) {
			dt_pf_seterr(err, "D_PRINTF_ARG_PROTO", "%s( ) prototype mismatch: "
				     "conversion #%zu (%%%s) is missing a corresponding value "
				     "argument", func, i + 1, c->name);
			return -EINVAL;
		} else {
			snprintf(vname, sizeof(vname), "argument #%zu", j + foff + 1);
			v = &args[j++];
		}

		settle_cfmt(s, v);
		if (!check_arg(c, s, v, o)) {
			dt_pf_seterr(err, "D_PRINTF_ARG_TYPE", "%s( ) %s is incompatible with "
				     "conversion #%zu prototype:\n\tconversion: %%%s\n"
				     "\t prototype: %s\n\t  argument: %s", func, vname, i + 1,
				     c->name, c->proto, tname(v));
			return -EINVAL;
		}
		s->checked = true;
	}

	if (o->exact_len && j < nargs) {
		dt_pf_seterr(err, "D_PRINTF_ARG_EXTRA", "%s( ) prototype mismatch: only %zu "
			     "arguments required by this format string", func, j);
		return -EINVAL;
	}
	return 0;
}

/* D strings, char arrays and char pointers all compare as strings. */
static bool is_strcompat(const struct dt_pf_argtype *t)
{
	return t->kind == DT_PFA_STRING || is_char_array(t) ||
	       (t->kind == DT_PFA_POINTER && t->elem_kind == DT_PFA_INT && t->elem_is_char);
}

/* dt_node_is_argcompat(), on what the descriptor knows. */
static bool keys_compatible(const struct dt_pf_argtype *l, const struct dt_pf_argtype *r)
{
	if (is_integer(l) && is_integer(r))
		return true;
	if (is_strcompat(l) && is_strcompat(r))
		return true;
	if (l->kind == DT_PFA_STACK || r->kind == DT_PFA_STACK)
		return l->kind == r->kind;
	if (is_pointer(l) && is_pointer(r)) {
		/* void * goes with any pointer; otherwise the same type. */
		if (strcmp(bname(l), "void *") == 0 || strcmp(bname(r), "void *") == 0)
			return true;
	}
	return l->kind == r->kind && strcmp(bname(l), bname(r)) == 0;
}

int dt_pf_check_printa_keys(const char *lname, const struct dt_pf_argtype *lkeys, size_t nl,
			    const char *rname, const struct dt_pf_argtype *rkeys, size_t nr,
			    struct dt_pf_error *err)
{
	if (nl != nr) {
		dt_pf_seterr(err, "D_PRINTA_AGGKEY", "printa( ): @%s and @%s do not have "
			     "matching key signatures: @%s has %zu key%s, @%s has %zu key%s",
			     lname, rname, lname, nl, nl == 1 ? "" : "s", rname, nr,
			     nr == 1 ? "" : "s");
		return -EINVAL;
	}
	for (size_t i = 0; i < nl; i++) {
		if (keys_compatible(&lkeys[i], &rkeys[i]))
			continue;
		dt_pf_seterr(err, "D_PRINTA_AGGPROTO", "printa( ): @%s[ ] key #%zu is "
			     "incompatible with @%s:\n%9s key #%zu: %s\n%9s key #%zu: %s",
			     rname, i + 1, lname, lname, i + 1, tname(&lkeys[i]), rname, i + 1,
			     tname(&rkeys[i]));
		return -EINVAL;
	}
	return 0;
}

void dt_pf_error_proto(struct dt_pf_error *err, const char *tag, const char *func,
		       int argno, const char *proto, const char *argtype)
{
	dt_pf_seterr(err, tag, "%s( ) argument #%d is incompatible with prototype:\n"
		     "\tprototype: %s\n\t argument: %s", func, argno, proto, argtype);
}
