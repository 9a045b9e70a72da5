/* Aggregations as Prometheus text (openmetrics.h), from the shared walk's rows. */
#include "consumer/openmetrics.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/aggdesc.h"
#include "base/core.h"
#include "base/descs.h"
#include "base/rdesc.h"
#include "consumer/agg_group.h"
#include "consumer/agg_impl.h"
#include "consumer/agg_keynames.h"
#include "consumer/agg_walk.h"
#include "consumer/consumer.h"
#include "consumer/folded.h"
#include "consumer/json.h"
#include "consumer/stack_frames.h"

void dt_openmetrics_label_value(struct dt_strbuf *sb, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;

	dt_sb_putc(sb, '"');
	for (size_t i = 0; i < n;) {
		unsigned char c = p[i];
		size_t len = c < 0x80 ? 1 : dt_utf8_seqlen(p + i, n - i);

		if (c == '\\')
			dt_sb_puts(sb, "\\\\");
		else if (c == '"')
			dt_sb_puts(sb, "\\\"");
		else if (c == '\n')
			dt_sb_puts(sb, "\\n");
		else if (len == 0)
			dt_sb_puts(sb, "\xef\xbf\xbd");	/* U+FFFD */
		else {
			dt_sb_putn(sb, s + i, len);
			i += len;
			continue;
		}
		i++;
	}
	dt_sb_putc(sb, '"');
}

/* Whether the program changes the aggregation other than by aggregating into it. */
static bool reset_by_program(const struct dt_consumer *cs, uint32_t aggid)
{
	for (size_t r = 0; r < cs->descs->rdescs.n; r++) {
		const struct dt_rdesc *rd = cs->descs->rdescs.v[r];
		for (size_t i = 0; rd != NULL && i < rd->items.n; i++) {
			const struct dt_ritem *it = &rd->items.v[i];
			if (it->kind != RK_CLEAR && it->kind != RK_TRUNC && it->kind != RK_NORMALIZE)
				continue;
			for (int k = 0; k < it->naggs; k++)
				if (it->aggids[k] == aggid)
					return true;
		}
	}
	return false;
}

static bool is_histogram(const struct dt_aggdesc *ad)
{
	return ad->func == AGG_QUANTIZE || ad->func == AGG_LQUANTIZE || ad->func == AGG_LLQUANTIZE;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

struct family {
	const struct dt_aggdesc *ad;
	const struct dt_pf_syms *syms;
	char **labels;			/* per key */
	struct dt_agggroup g;		/* label sets */
	struct dt_strbuf set, tmp;
};

/* A key component's label value: its text, a stack as a folded stack. */
static void key_value(struct family *f, const struct dt_aggkey *k, const uint8_t *p)
{
	struct dt_stack st;

	dt_sb_reset(&f->tmp);
	if (!dt_stack_of_key(k, p, &st)) {
		struct dt_strbuf t;
		dt_sb_init(&t);
		dt_agg_key_text(&t, f->syms, k, p);
		dt_openmetrics_label_value(&f->tmp, t.s != NULL ? t.s : "", t.len);
		if (t.oom)
			f->tmp.oom = true;
		dt_sb_free(&t);
		return;
	}
	struct dt_strbuf line, frame;
	dt_sb_init(&line);
	dt_sb_init(&frame);
	for (size_t i = st.n; i-- > 0;) {
		dt_sb_reset(&frame);
		dt_frame_name(&frame, f->syms, st.user, st.pid, dt_stack_pc(&st, i));
		if (line.len > 0)
			dt_sb_putc(&line, ';');
		dt_folded_escape(&line, frame.s != NULL ? frame.s : "", frame.len);
	}
	dt_openmetrics_label_value(&f->tmp, line.s != NULL ? line.s : "", line.len);
	if (line.oom || frame.oom)
		f->tmp.oom = true;
	dt_sb_free(&line);
	dt_sb_free(&frame);
}

/* The label set ("a=\"x\",b=\"y\"", no braces) of a row, then its value folded in. */
static int row(struct dt_consumer *cs, const struct dt_aggrow *r, void *arg)
{
	struct family *f = arg;
	const struct dt_aggdesc *ad = r->ad;

	(void)cs;
	dt_sb_reset(&f->set);
	for (int k = 0; k < ad->nkeys; k++) {
		key_value(f, &ad->keys[k], r->key + ad->keys[k].off);
		if (k > 0)
			dt_sb_putc(&f->set, ',');
		dt_sb_printf(&f->set, "%s=", f->labels[k]);
		dt_sb_putn(&f->set, f->tmp.s != NULL ? f->tmp.s : "", f->tmp.len);
	}
	if (f->set.oom || f->tmp.oom)
		return -ENOMEM;
	return dt_agggroup_add(&f->g, f->set.s != NULL ? f->set.s : "", r->words);
}

/* name{set} or name{set,extra} or name{extra} or name. */
static void series(struct dt_strbuf *out, const char *name, const char *suffix, const char *set,
		   const char *extra)
{
	bool a = set[0] != '\0', b = extra != NULL;

	dt_sb_printf(out, "%s%s%s%s%s%s%s ", name, suffix, a || b ? "{" : "", set,
		     a && b ? "," : "", b ? extra : "", a || b ? "}" : "");
}

static void histogram(struct dt_strbuf *out, const struct dt_aggdesc *ad, const char *name,
		      const char *set, const int64_t *w, uint32_t nwords, uint64_t normal)
{
	uint32_t n = DT_MIN(dt_agg_nbuckets(ad), nwords);
	long long cum = 0;
	char le[64];

	for (uint32_t b = 0; b < n; b++) {
		int64_t lo, hi;
		if (!dt_agg_bucket_bounds(ad, b, &lo, &hi))
			continue;
		cum += dt_aggval_normal(w[b], normal);
		if (hi == INT64_MAX)
			continue;	/* open above: the +Inf bucket */
		snprintf(le, sizeof(le), "le=\"%lld\"", (long long)hi);
		series(out, name, "_bucket", set, le);
		dt_sb_printf(out, "%lld\n", cum);
	}
	series(out, name, "_bucket", set, "le=\"+Inf\"");
	dt_sb_printf(out, "%lld\n", cum);
	series(out, name, "_count", set, NULL);
	dt_sb_printf(out, "%lld\n", cum);
}

int dt_openmetrics_aggregation(struct dt_consumer *cs, struct dt_strbuf *out, uint32_t aggid)
{
	const struct dt_aggdesc *ad = dt_agg_desc(cs, aggid);
	dt_aggbuckets_t bk = { 0 };
	struct dt_aggprint pc;
	struct family f;
	char *name = NULL;
	const char *type;
	int rc;

	if (ad == NULL)
		return cs->core->err;
	memset(&f, 0, sizeof(f));
	f.ad = ad;
	dt_aggprint_get(cs, &pc);
	f.syms = pc.syms;
	dt_agggroup_init(&f.g, ad, dt_aggval_nwords(ad));
	bool reset = reset_by_program(cs, aggid);
	bool counter = !reset && (ad->func == AGG_COUNT || (ad->func == AGG_SUM && !ad->arg_signed));
	if (is_histogram(ad))
		type = "histogram";
	else
		type = counter ? "counter" : "gauge";
	if (asprintf(&name, "%s%s", ad->name, counter && !ends_with(ad->name, "_total") ? "_total" : "") < 0)
		name = NULL;
	f.labels = dt_agg_keynames(ad, is_histogram(ad) ? "le" : NULL);
	if (name == NULL || f.labels == NULL) {
		rc = -ENOMEM;
		goto out;
	}
	if ((rc = dt_agg_walk_rows(cs, aggid, row, &f)) < 0)
		goto out;
	dt_sb_printf(out, "# HELP %s DTrace aggregation @%s, %s()", name,
		     strcmp(ad->name, "_") == 0 ? "" : ad->name, dt_agg_funcname(ad->func));
	if (ad->value_ns)
		dt_sb_puts(out, " of nanoseconds");
	dt_sb_printf(out, "\n# TYPE %s %s\n", name, type);
	uint64_t normal = dt_agg_normal(cs, aggid);
	for (size_t i = 0; i < f.g.v.n; i++) {
		const char *set = f.g.v.v[i].text;
		const int64_t *w = f.g.v.v[i].words;
		dtrace_aggdata_t a;
		if (is_histogram(ad)) {
			histogram(out, ad, name, set, w, f.g.nwords, normal ? normal : 1);
			continue;
		}
		if (dt_aggrow_value(ad, w, f.g.nwords, normal ? normal : 1, &bk, &a) < 0) {
			rc = -ENOMEM;
			goto out;
		}
		series(out, name, "", set, NULL);
		if (ad->func == AGG_STDDEV)
			dt_sb_printf(out, "%llu\n", (unsigned long long)a.value);
		else
			dt_sb_printf(out, "%lld\n", (long long)a.value);
	}
	rc = (int)f.g.v.n;
out:
	dt_agg_keynames_free(f.labels, ad->nkeys);
	free(name);
	dt_vec_free(&bk);
	dt_agggroup_free(&f.g);
	dt_sb_free(&f.set);
	dt_sb_free(&f.tmp);
	if (rc == -ENOMEM)
		rc = dt_set_error(cs->core, rc, "out of memory");
	return rc;
}
