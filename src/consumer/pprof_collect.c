/*
 * An aggregation's samples for pprof (pprof.h), from the rows of the
 * shared walk: each stack's frames resolved now, while the processes'
 * mappings are known.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/aggdesc.h"
#include "base/core.h"
#include "consumer/agg_impl.h"
#include "consumer/agg_keynames.h"
#include "consumer/agg_walk.h"
#include "consumer/consumer.h"
#include "consumer/pprof_impl.h"
#include "consumer/stack_frames.h"

void dt_pprof_agg_free(struct dt_pprof_agg *pa)
{
	if (pa == NULL)
		return;
	for (size_t i = 0; i < pa->frames.n; i++) {
		free(pa->frames.v[i].func);
		free(pa->frames.v[i].mod);
		free(pa->frames.v[i].file);
	}
	for (size_t i = 0; i < pa->labels.n; i++) {
		free(pa->labels.v[i].key);
		free(pa->labels.v[i].str);
	}
	dt_vec_free(&pa->frames);
	dt_vec_free(&pa->labels);
	dt_vec_free(&pa->samples);
	free(pa->type);
	free(pa->comment);
	free(pa);
}

struct collect {
	struct dt_pprof_agg *pa;
	const struct dt_pf_syms *syms;
	char **keynames;
	struct dt_strbuf tmp;
};

static int add_frame(struct collect *c, const struct dt_stack *st, uint64_t pc)
{
	struct dt_pprof_frame f = { .addr = pc, .user = st->user, .pid = st->pid };
	const char *mod, *func;
	struct dt_pf_mapping m;

	dt_sb_reset(&c->tmp);
	dt_frame_name(&c->tmp, c->syms, st->user, st->pid, pc);
	if (c->tmp.oom)
		return -ENOMEM;
	dt_frame_split(c->tmp.s, &mod, &func);
	if ((func != NULL && (f.func = strdup(func)) == NULL) ||
	    (mod != NULL && (f.mod = strdup(mod)) == NULL))
		goto nomem;
	if (c->syms != NULL && c->syms->mapping != NULL &&
	    c->syms->mapping(c->syms->ctx, st->user, st->pid, pc, &m) == 0 && m.file != NULL) {
		if ((f.file = strdup(m.file)) == NULL)
			goto nomem;
		f.start = m.start;
		f.limit = m.limit;
		f.offset = m.offset;
		f.exe = m.exe;
	}
	if (dt_vec_push(&c->pa->frames, f) == 0)
		return 0;
nomem:
	free(f.func);
	free(f.mod);
	free(f.file);
	return -ENOMEM;
}

/* Each stack of the kind asked for (user or kernel), leaf first. */
static int add_stacks(struct collect *c, const struct dt_aggrow *r, bool user)
{
	const struct dt_aggdesc *ad = r->ad;
	int rc = 0;

	for (int k = 0; k < ad->nkeys && rc == 0; k++) {
		struct dt_stack st;
		if (!dt_stack_of_key(&ad->keys[k], r->key + ad->keys[k].off, &st) || st.user != user)
			continue;
		for (size_t i = 0; i < st.n && rc == 0; i++)
			rc = add_frame(c, &st, dt_stack_pc(&st, i));
	}
	return rc;
}

static int add_label(struct collect *c, int k, const struct dt_aggrow *r)
{
	const struct dt_aggkey *key = &r->ad->keys[k];
	const dtrace_datum_t *d = &r->a.keys[k];
	struct dt_pprof_label l = { .key = strdup(c->keynames[k]) };

	if (d->kind == DTRACE_DATA_INT) {
		l.num = (int64_t)d->value;
	} else {
		dt_sb_reset(&c->tmp);
		dt_agg_key_text(&c->tmp, c->syms, key, r->key + key->off);
		l.str = c->tmp.oom ? NULL : strdup(c->tmp.s != NULL ? c->tmp.s : "");
		if (l.str == NULL) {
			free(l.key);
			return -ENOMEM;
		}
	}
	if (l.key != NULL && dt_vec_push(&c->pa->labels, l) == 0)
		return 0;
	free(l.key);
	free(l.str);
	return -ENOMEM;
}

static int row(struct dt_consumer *cs, const struct dt_aggrow *r, void *arg)
{
	struct collect *c = arg;
	struct dt_pprof_sample s = {
		.frame0 = c->pa->frames.n, .label0 = c->pa->labels.n, .value = r->a.value,
	};
	int rc = 0;

	(void)cs;
	for (int k = 0; k < r->ad->nkeys && rc == 0; k++) {
		enum dt_aggkey_kind kind = r->ad->keys[k].kind;
		if (kind != DT_AGGKEY_STACK && kind != DT_AGGKEY_USTACK)
			rc = add_label(c, k, r);
	}
	/* The kernel's frames are called from the user's: they come first, leaf first. */
	if (rc == 0)
		rc = add_stacks(c, r, false);
	if (rc == 0)
		rc = add_stacks(c, r, true);
	if (rc < 0)
		return rc;
	s.nframes = c->pa->frames.n - s.frame0;
	s.nlabels = c->pa->labels.n - s.label0;
	return dt_vec_push(&c->pa->samples, s);
}

int dt_pprof_collect(struct dt_consumer *cs, uint32_t aggid, struct dt_pprof_agg **out)
{
	const struct dt_aggdesc *ad = dt_agg_desc(cs, aggid);
	struct dt_aggprint pc;
	struct collect c;
	int rc;

	*out = NULL;
	if (ad == NULL)
		return cs->core->err;
	memset(&c, 0, sizeof(c));
	dt_aggprint_get(cs, &pc);
	c.syms = pc.syms;
	c.pa = calloc(1, sizeof(*c.pa));
	c.keynames = dt_agg_keynames(ad, NULL);
	if (c.pa == NULL || c.keynames == NULL) {
		rc = -ENOMEM;
		goto out;
	}
	/* The anonymous @ is named after its function. */
	c.pa->type = strdup(strcmp(ad->name, "_") == 0 ? dt_agg_funcname(ad->func) : ad->name);
	/* A sum() of something other than time: a unit nobody knows, none. */
	c.pa->unit = ad->func == AGG_COUNT ? "count" : ad->value_ns ? "nanoseconds" : "";
	if (asprintf(&c.pa->comment, "dtrace @%s: %s()", strcmp(ad->name, "_") == 0 ? "" : ad->name,
		     dt_agg_funcname(ad->func)) < 0)
		c.pa->comment = NULL;
	if (c.pa->type == NULL || c.pa->comment == NULL) {
		rc = -ENOMEM;
		goto out;
	}
	rc = dt_agg_walk_rows(cs, aggid, row, &c);
out:
	dt_agg_keynames_free(c.keynames, ad->nkeys);
	dt_sb_free(&c.tmp);
	if (rc < 0) {
		dt_pprof_agg_free(c.pa);
		return rc == -ENOMEM ? dt_set_error(cs->core, rc, "out of memory") : rc;
	}
	*out = c.pa;
	return rc;
}
