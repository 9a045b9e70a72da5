/*
 * print(): a typed value as DTrace for Linux prints it.  The pointer,
 * then the object: one member per line, "(type)value", members that are
 * all zero left out, char arrays up to their NUL, nested structs, unions
 * and arrays indented one more column.  Members that start past the
 * printsize option are not printed: "..." says where they were.
 *
 * A struct's or union's closing bracket is written when the walk comes
 * back to a shallower member (or ends), so that a "..." at one depth sits
 * before the brackets still open below it, as DTrace prints them; an
 * array's is written at once.
 */
#include "consumer/print_type.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "base/core.h"
#include "base/rdesc.h"
#include "base/types.h"
#include "consumer/consumer.h"

#define INDENT 44
#define MAXDEPTH 32

struct walk {
	struct dt_consumer *cs;
	struct dt_strbuf *sb;
	const uint8_t *data;	/* the object */
	uint32_t size;		/* bytes of it in the record */
	uint64_t limit;		/* printsize */
	char open[MAXDEPTH];	/* '}' or ']' for each open level */
	int depth;		/* open levels */
	bool stopped;
};

static void indent(struct walk *w, int depth)
{
	for (int i = 0; i < INDENT + depth; i++)
		dt_sb_putc(w->sb, ' ');
}

/* Close the levels deeper than depth. */
static void close_to(struct walk *w, int depth)
{
	while (w->depth > depth) {
		w->depth--;
		indent(w, w->depth);
		dt_sb_putc(w->sb, w->open[w->depth]);
		dt_sb_puts(w->sb, w->depth > 0 ? ",\n" : "\n");
	}
}

static bool all_zero(const struct walk *w, uint64_t off, uint64_t len)
{
	for (uint64_t i = off; i < off + len && i < w->size; i++)
		if (w->data[i] != 0)
			return false;
	return true;
}

static uint64_t load(const struct walk *w, uint64_t off, uint32_t size)
{
	uint64_t v = 0;

	if (off + size > w->size || size > 8)
		return 0;
	/* Little-endian: the low bytes first. */
	for (uint32_t i = 0; i < size; i++)
		v |= (uint64_t)w->data[off + i] << (8 * i);
	return v;
}

static void type_name(struct walk *w, struct dt_type *t)
{
	struct dt_type *b = dt_type_base(t);

	/* Anonymous structs and unions are just "struct" / "union". */
	if ((b->kind == TK_STRUCT || b->kind == TK_UNION) && t == b &&
	    (b->name == NULL || b->name[0] == '\0')) {
		dt_sb_puts(w->sb, b->kind == TK_STRUCT ? "struct" : "union");
		return;
	}
	dt_sb_puts(w->sb, dt_type_str(&w->cs->core->types, t));
}

static void scalar(struct walk *w, struct dt_type *t, uint64_t v)
{
	struct dt_type *b = dt_type_base(t);
	uint32_t size = dt_type_size(b);

	dt_sb_putc(w->sb, '(');
	type_name(w, t);
	dt_sb_putc(w->sb, ')');
	if (b->kind == TK_PTR) {
		dt_sb_printf(w->sb, "0x%llx", (unsigned long long)v);
		return;
	}
	if (b->kind == TK_ENUM) {
		for (uint32_t i = 0; i < b->nenums; i++) {
			if ((uint64_t)b->enums[i].value == v) {
				dt_sb_puts(w->sb, b->enums[i].name);
				return;
			}
		}
	}
	if (b->is_char && size == 1 && !b->is_bool && b->name != NULL &&
	    strcmp(b->name, "char") == 0) {
		unsigned char c = (unsigned char)v;
		if (isprint(c) && c != '\'' && c != '\\')
			dt_sb_printf(w->sb, "'%c'", c);
		else
			dt_sb_printf(w->sb, "'\\%03o'", c);
		return;
	}
	if (b->is_signed && size < 8 && size > 0) {
		uint64_t sign = 1ULL << (8 * size - 1);
		v = (v ^ sign) - sign;
	}
	if (b->is_signed)
		dt_sb_printf(w->sb, "%lld", (long long)v);
	else
		dt_sb_printf(w->sb, "%llu", (unsigned long long)v);
}

static void value(struct walk *w, struct dt_type *t, uint64_t off, uint32_t bitoff,
		  uint32_t bits, int depth);

/* The members of a struct or union at off, one level below depth. */
static void members(struct walk *w, struct dt_type *st, uint64_t off, int depth)
{
	dt_type_load_members(&w->cs->core->types, st);
	for (uint32_t i = 0; i < st->nmembers && !w->stopped; i++) {
		const struct dt_member *m = &st->members[i];
		uint64_t moff = off + m->offset_bits / 8;
		uint32_t msize = m->bitsize ? (m->bitsize + m->offset_bits % 8 + 7) / 8
					    : dt_type_size(m->type);
		if (moff >= w->limit) {
			/* Before the brackets still open: they close after it. */
			indent(w, depth + 1);
			dt_sb_puts(w->sb, "...\n");
			w->stopped = true;
			return;
		}
		if (all_zero(w, moff, msize))
			continue;
		close_to(w, depth + 1);
		indent(w, depth + 1);
		if (m->name != NULL)
			dt_sb_printf(w->sb, ".%s = ", m->name);
		value(w, m->type, moff, m->bitsize ? m->offset_bits % 8 : 0, m->bitsize, depth + 1);
	}
}

/* One value at off (bit-fields: bits from bitoff), on the current line. */
static void value(struct walk *w, struct dt_type *t, uint64_t off, uint32_t bitoff,
		  uint32_t bits, int depth)
{
	struct dt_type *b = dt_type_base(t);

	if ((b->kind == TK_STRUCT || b->kind == TK_UNION) && w->depth < MAXDEPTH) {
		dt_sb_putc(w->sb, '(');
		type_name(w, t);
		dt_sb_puts(w->sb, ") {\n");
		w->open[w->depth++] = '}';
		members(w, b, off, depth);
		return;
	}
	if (b->kind == TK_ARRAY && w->depth < MAXDEPTH) {
		struct dt_type *e = b->base;
		uint32_t esize = dt_type_size(e);
		bool chars = dt_type_base(e)->is_char && esize == 1;
		dt_sb_putc(w->sb, '(');
		type_name(w, t);
		dt_sb_puts(w->sb, ") [\n");
		w->open[w->depth++] = ']';
		int level = w->depth;
		for (uint32_t i = 0; i < b->nelems && esize > 0; i++) {
			uint64_t eoff = off + (uint64_t)i * esize;
			if (chars && load(w, eoff, 1) == 0)
				break;
			if (all_zero(w, eoff, esize))
				continue;
			close_to(w, level);
			indent(w, depth + 1);
			value(w, e, eoff, 0, 0, depth + 1);
		}
		/* An array is closed at once (a struct when the walk moves on). */
		close_to(w, level - 1);
		return;
	}
	uint64_t v;
	if (bits != 0) {
		v = load(w, off, (bits + bitoff + 7) / 8) >> bitoff;
		if (bits < 64)
			v &= (1ULL << bits) - 1;
	} else {
		v = load(w, off, dt_type_size(b));
	}
	scalar(w, t, v);
	dt_sb_puts(w->sb, depth > 0 ? ",\n" : "\n");
}

void dt_print_typed(struct dt_consumer *cs, struct dt_strbuf *sb, const struct dt_ritem *it,
		    const void *rec)
{
	const uint8_t *p = (const uint8_t *)rec + it->off;
	uint64_t addr;
	struct walk w = {
		.cs = cs, .sb = sb, .data = p + 8, .size = it->size,
		.limit = cs->core->opts.printsize > 0 ? (uint64_t)cs->core->opts.printsize : UINT64_MAX,
	};

	memcpy(&addr, p, sizeof(addr));
	dt_sb_printf(sb, "0x%llx = *\n", (unsigned long long)addr);
	indent(&w, 0);
	value(&w, it->type, 0, 0, 0, 0);
	close_to(&w, 0);
}
