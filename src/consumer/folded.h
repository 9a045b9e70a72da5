/*
 * -x oformat=folded: aggregations keyed by stacks as folded stacks, the
 * input of flamegraph.pl, inferno and speedscope.  One line per stack:
 * the other keys (execname ...) as leading frames, then the frames root
 * first (user stacks before kernel stacks, since user code calls into the
 * kernel), separated by ';', a space, the value.  Frames are named as
 * printa() names them, without the offset into the function; entries
 * that become the same line are one line, their values folded with the
 * aggregating function's rule.
 */
#ifndef DT_FOLDED_H
#define DT_FOLDED_H

#include <stddef.h>
#include <stdint.h>

struct dt_consumer;
struct dt_strbuf;

/* Append aggregation aggid's lines.  The number of lines, or a negative errno (error set). */
int dt_folded_aggregation(struct dt_consumer *cs, struct dt_strbuf *out, uint32_t aggid);

/*
 * A frame or key as folded text: ';' as \x3b, '\' as \\, newline, tab
 * and carriage return as \n, \t, \r, other control characters and bytes
 * that are not UTF-8 as \xHH, so that a line is always one stack.
 */
void dt_folded_escape(struct dt_strbuf *sb, const char *s, size_t n);

#endif
