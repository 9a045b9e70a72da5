/*
 * flowindent (flow.h), by DTrace's rules: a probe named "entry" or
 * "<something>-entry" prints "-> func" and indents what follows by two; one
 * named "return" or "<something>-return" takes the indent back and prints
 * "<- func" (syscall probes: "=>" and "<="); any other prints
 * "| func:name".  An entry record of the same probe as the record before
 * it but of another clause does not indent, and a return record followed
 * by one of the same probe but of another clause does not unindent, so
 * that a probe with several clauses moves the indent once: on its first
 * clause's record at an entry, on its last one's at a return (DTrace's
 * dt_flowindent).  A return record is therefore held until the next
 * record comes, or until the end of the pass over the buffer, where
 * DTrace too stops looking.  The indent is one for all CPUs, as in DTrace.
 */
#include "consumer/flow.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/abi.h"
#include "base/core.h"
#include "base/probe.h"
#include "base/rdesc.h"
#include "consumer/consume.h"
#include "consumer/consumer.h"

enum flow_kind { FLOW_NONE, FLOW_ENTRY, FLOW_RETURN };

struct dt_flow {
	int indent;
	bool have_last;
	uint32_t last_desc, last_prid;
	/* the return record waiting for the next one, and its description */
	void *held;
	const struct dt_rdesc *held_rd;
	/* the kind the held record prints with, while it prints */
	bool forced;
	enum flow_kind forced_kind;
};

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

	if (st != NULL && st->forced)
		kind = st->forced_kind;
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
	if (kind == FLOW_ENTRY && st->have_last && st->last_desc != h->desc &&
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

bool dt_flow_hold(struct dt_consumer *cs, const struct dt_rdesc *rd, const void *data)
{
	const struct dt_rec_hdr *h = data;
	struct dt_probe *prp = dt_probe_by_id(cs->reg, h->prid);
	struct dt_flow *st = state(cs);

	if (st == NULL || st->held != NULL || prp == NULL || !names(prp->desc[3], "return") ||
	    rd->size < sizeof(*h))
		return false;
	st->held = malloc(rd->size);
	if (st->held == NULL)
		return false;	/* out of memory: it prints now, unindenting */
	memcpy(st->held, data, rd->size);
	st->held_rd = rd;
	return true;
}

int dt_flow_release(struct dt_consumer *cs, const void *next)
{
	struct dt_flow *st = cs->flow;

	if (st == NULL || st->held == NULL)
		return 0;
	const struct dt_rec_hdr *h = st->held, *n = next;
	void *held = st->held;

	st->held = NULL;
	st->forced = true;
	st->forced_kind = n != NULL && n->prid == h->prid && n->desc != h->desc ? FLOW_NONE
										  : FLOW_RETURN;
	int rc = dt_emit_record_now(cs, st->held_rd, held);
	st->forced = false;
	free(held);
	return rc;
}

void dt_flow_free(struct dt_consumer *cs)
{
	if (cs->flow != NULL) {
		free(cs->flow->held);
		cs->flow->held = NULL;
	}
}
