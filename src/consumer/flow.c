/*
 * flowindent (flow.h), by DTrace's rules: a probe named "entry" or
 * "<something>-entry" prints "-> func" and indents what follows by two; one
 * named "return" or "<something>-return" takes the indent back and prints
 * "<- func" (syscall probes: "=>" and "<="); any other prints
 * "| func:name".  A record of the same probe as the one before it but of
 * another clause neither indents nor unindents, so that a probe with two
 * clauses moves the indent once.  (DTrace looks at the next record for a
 * return and unindents on its last clause; we read records as a stream and
 * unindent on the first.)  The indent is one for all CPUs, as in DTrace.
 */
#include "consumer/flow.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/abi.h"
#include "base/core.h"
#include "base/probe.h"
#include "consumer/consumer.h"

struct dt_flow {
	int indent;
	bool have_last;
	uint32_t last_desc, last_prid;
};

enum flow_kind { FLOW_NONE, FLOW_ENTRY, FLOW_RETURN };

/* name is `word` or ends with "-word". */
static bool names(const char *name, const char *word)
{
	size_t n = strlen(name), w = strlen(word);

	return n >= w && strcmp(name + n - w, word) == 0 && (n == w || name[n - w - 1] == '-');
}

static struct dt_flow *state(struct dt_consumer *cs)
{
	if (cs->flow == NULL)
		cs->flow = dt_arena_zalloc(&cs->core->arena, sizeof(*cs->flow));
	return cs->flow;
}

void dt_flow_column(struct dt_consumer *cs, struct dt_strbuf *sb, const struct dt_rec_hdr *h)
{
	struct dt_probe *prp = dt_probe_by_id(cs->reg, h->prid);
	const char *prov = prp ? prp->desc[0] : "", *func = prp ? prp->desc[2] : "";
	const char *name = prp ? prp->desc[3] : "";
	struct dt_flow none = { 0 }, *st = state(cs);
	enum flow_kind kind = names(name, "entry") ? FLOW_ENTRY
			      : names(name, "return") ? FLOW_RETURN : FLOW_NONE;
	bool sys = strcmp(prov, "syscall") == 0;
	char col[600];

	if (st == NULL)
		st = &none;	/* out of memory: no indent */
	if (!cs->printed_header) {
		if (cs->testing)
			dt_sb_printf(sb, "%-41s\n", "FUNCTION");
		else
			dt_sb_printf(sb, "%3s %-41s\n", "CPU", "FUNCTION");
		cs->printed_header = true;
	}
	if (kind != FLOW_NONE && st->have_last && st->last_desc != h->desc &&
	    st->last_prid == h->prid)
		kind = FLOW_NONE;
	if (kind == FLOW_RETURN && st->indent > 0)
		st->indent -= 2;
	int ind = st->indent < 400 ? st->indent : 400;
	if (kind == FLOW_NONE)
		snprintf(col, sizeof(col), "%*s| %s:%s", ind, "", func, name);
	else
		snprintf(col, sizeof(col), "%*s%s%s", ind, "",
			 kind == FLOW_ENTRY ? (sys ? " => " : " -> ") : (sys ? " <= " : " <- "), func);
	if (cs->testing)
		dt_sb_printf(sb, "%-41s ", col);
	else
		dt_sb_printf(sb, "%3u %-41s ", h->cpu, col);
	if (kind == FLOW_ENTRY)
		st->indent += 2;
	st->have_last = true;
	st->last_desc = h->desc;
	st->last_prid = h->prid;
}
