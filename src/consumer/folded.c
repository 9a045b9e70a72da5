/* Folded stacks (folded.h), from the rows of the shared aggregation walk. */
#include "consumer/folded.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/aggdesc.h"
#include "base/core.h"
#include "consumer/agg_group.h"
#include "consumer/agg_impl.h"
#include "consumer/agg_walk.h"
#include "consumer/consumer.h"
#include "consumer/json.h"
#include "consumer/stack_frames.h"

void dt_folded_escape(struct dt_strbuf *sb, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0; i < n;) {
		unsigned char c = p[i];
		size_t len;

		if (c == ';')
			dt_sb_puts(sb, "\\x3b");
		else if (c == '\\')
			dt_sb_puts(sb, "\\\\");
		else if (c == '\n')
			dt_sb_puts(sb, "\\n");
		else if (c == '\t')
			dt_sb_puts(sb, "\\t");
		else if (c == '\r')
			dt_sb_puts(sb, "\\r");
		else if (c < 0x20 || c == 0x7f)
			dt_sb_printf(sb, "\\x%02x", c);
		else if (c >= 0x80 && (len = dt_utf8_seqlen(p + i, n - i)) > 0) {
			dt_sb_putn(sb, s + i, len);
			i += len;
			continue;
		} else if (c >= 0x80)
			dt_sb_printf(sb, "\\x%02x", c);
		else
			dt_sb_putc(sb, (char)c);
		i++;
	}
}

struct folded {
	struct dt_agggroup g;
	const struct dt_pf_syms *syms;
	struct dt_strbuf line, tmp;
};

static void put_frame(struct folded *f, const char *s, size_t n)
{
	if (f->line.len > 0)
		dt_sb_putc(&f->line, ';');
	dt_folded_escape(&f->line, s, n);
}

/* Each stack of the kind asked for (user or kernel), root first. */
static void put_stacks(struct folded *f, const struct dt_aggrow *r, bool user)
{
	const struct dt_aggdesc *ad = r->ad;

	for (int k = 0; k < ad->nkeys; k++) {
		struct dt_stack st;
		if (!dt_stack_of_key(&ad->keys[k], r->key + ad->keys[k].off, &st) || st.user != user)
			continue;
		for (size_t i = st.n; i-- > 0;) {
			dt_sb_reset(&f->tmp);
			dt_frame_name(&f->tmp, f->syms, st.user, st.pid, dt_stack_pc(&st, i));
			put_frame(f, f->tmp.s != NULL ? f->tmp.s : "", f->tmp.len);
		}
	}
}

static int row(struct dt_consumer *cs, const struct dt_aggrow *r, void *arg)
{
	const struct dt_aggdesc *ad = r->ad;
	struct folded *f = arg;

	(void)cs;
	dt_sb_reset(&f->line);
	for (int k = 0; k < ad->nkeys; k++) {
		const struct dt_aggkey *key = &ad->keys[k];
		if (key->kind == DT_AGGKEY_STACK || key->kind == DT_AGGKEY_USTACK)
			continue;
		dt_sb_reset(&f->tmp);
		dt_agg_key_text(&f->tmp, f->syms, key, r->key + key->off);
		put_frame(f, f->tmp.s != NULL ? f->tmp.s : "", f->tmp.len);
	}
	put_stacks(f, r, true);
	put_stacks(f, r, false);
	if (f->line.oom || f->tmp.oom)
		return -ENOMEM;
	return dt_agggroup_add(&f->g, f->line.s != NULL ? f->line.s : "", r->words);
}

struct line {
	size_t i;
	long long v;
};

static int by_value(const void *x, const void *y)
{
	const struct line *a = x, *b = y;

	if (a->v != b->v)
		return a->v < b->v ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

/* The line's value: as printa() prints it; for histograms the number of values. */
static int value(const struct dt_aggdesc *ad, const int64_t *w, uint32_t nwords, uint64_t normal,
		 dt_aggbuckets_t *bk, long long *v)
{
	dtrace_aggdata_t a;

	if (dt_aggrow_value(ad, w, nwords, normal, bk, &a) < 0)
		return -ENOMEM;
	*v = a.value;
	if (a.buckets != NULL || ad->func == AGG_QUANTIZE || ad->func == AGG_LQUANTIZE ||
	    ad->func == AGG_LLQUANTIZE) {
		*v = 0;
		for (size_t b = 0; b < a.nbuckets; b++)
			*v += a.buckets[b].count;
	}
	return 0;
}

int dt_folded_aggregation(struct dt_consumer *cs, struct dt_strbuf *out, uint32_t aggid)
{
	const struct dt_aggdesc *ad = dt_agg_desc(cs, aggid);
	struct dt_aggsort_opts o;
	struct dt_aggprint pc;
	dt_aggbuckets_t bk = { 0 };
	struct folded f;
	struct line *lines = NULL;
	int rc;

	if (ad == NULL)
		return cs->core->err;
	memset(&f, 0, sizeof(f));
	dt_aggprint_get(cs, &pc);
	f.syms = pc.syms;
	dt_agggroup_init(&f.g, ad, dt_aggval_nwords(ad));
	rc = dt_agg_walk_rows(cs, aggid, row, &f);
	if (rc < 0)
		goto out;
	uint64_t normal = dt_agg_normal(cs, aggid);
	lines = calloc(f.g.v.n + 1, sizeof(*lines));
	if (lines == NULL) {
		rc = dt_set_error(cs->core, -ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < f.g.v.n; i++) {
		lines[i].i = i;
		if (value(ad, f.g.v.v[i].words, f.g.nwords, normal, &bk, &lines[i].v) < 0) {
			rc = dt_set_error(cs->core, -ENOMEM, "out of memory");
			goto out;
		}
	}
	/* Merged lines sort again as printa() sorts by value (aggsortkey: as the keys came). */
	dt_aggsort_opts_get(cs, &o);
	if (!o.keysort) {
		qsort(lines, f.g.v.n, sizeof(*lines), by_value);
		if (o.rev)
			for (size_t i = 0, j = f.g.v.n; i + 1 < j; i++, j--) {
				struct line t = lines[i];
				lines[i] = lines[j - 1];
				lines[j - 1] = t;
			}
	}
	for (size_t i = 0; i < f.g.v.n; i++) {
		dt_sb_puts(out, f.g.v.v[lines[i].i].text);
		if (ad->func == AGG_STDDEV)
			dt_sb_printf(out, " %llu\n", (unsigned long long)lines[i].v);
		else
			dt_sb_printf(out, " %lld\n", lines[i].v);
	}
	rc = (int)f.g.v.n;
out:
	free(lines);
	dt_vec_free(&bk);
	dt_agggroup_free(&f.g);
	dt_sb_free(&f.line);
	dt_sb_free(&f.tmp);
	if (rc == -ENOMEM)
		rc = dt_set_error(cs->core, rc, "out of memory");
	return rc;
}
