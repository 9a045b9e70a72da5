/*
 * printa() and the exit print (dt_consume.c: dt_printa; dt_printf.c:
 * dtrace_fprinta; dt_aggregate.c: dtrace_aggregate_print and the sorted
 * and joined walks): a snapshot of each aggregation (printa: the one its
 * probe firing's clear() and trunc() acted on), sorted under
 * the aggsort* options, printed in the default layout or through the
 * format.  Aggregations printa() prints are not printed again at exit.
 */
#include "consumer/agg_impl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "base/descs.h"
#include "consumer/agg_walk.h"
#include "consumer/consumer.h"
#include "consumer/oformat.h"
#include "consumer/report.h"

static int print_error(struct dt_consumer *cs, int rc)
{
	if (rc == -ENOMEM)
		return dt_set_error(cs->core, -ENOMEM, "Memory allocation failure");
	return dt_set_error(cs->core, rc, "Data record list does not match statement");
}

static int printa_one(struct dt_consumer *cs, struct dt_strbuf *out, const struct dt_pf_format *fmt,
		      uint32_t aggid, const struct dt_aggprint *pc)
{
	const struct dt_aggdesc *ad = dt_agg_desc(cs, aggid);
	struct dt_aggsort_opts o;
	struct dt_aggsnap s;
	const uint8_t **sorted = NULL;
	struct dt_aggfmt a;
	uint64_t normal = dt_agg_normal(cs, aggid);
	int rc;

	if (ad == NULL)
		return cs->core->err;
	if ((rc = dt_agg_snapshot(cs, ad, &s)) < 0)
		return rc;
	dt_aggsort_opts_get(cs, &o);
	rc = dt_aggfmt_init(&a, (size_t)ad->nkeys, 1);
	if (rc == 0)
		rc = dt_aggsnap_sort(&s, &o, &sorted);
	for (size_t i = 0; rc == 0 && i < s.n; i++) {
		if (fmt == NULL) {
			dt_agg_print_entry(out, pc, &s, sorted[i], normal);
			continue;
		}
		dt_aggfmt_keys(&a, ad, sorted[i]);
		dt_aggfmt_value(&a, 0, &s, sorted[i], normal);
		rc = dt_aggfmt_print(out, fmt, pc, &a);
	}
	if (rc == 0 && s.n > 0)
		dt_agg_set_printed(cs, aggid);
	free(sorted);
	dt_aggfmt_fini(&a);
	dt_aggsnap_free(&s);
	return rc < 0 ? print_error(cs, rc) : 0;
}

/* One row of a joined printa() in the default layout: keys, then each value. */
static void print_joined_row(struct dt_strbuf *out, const struct dt_aggprint *pc,
			     struct dt_aggsnap *const *snaps, const uint64_t *normals,
			     const struct dt_aggjoin *j, const uint8_t *const *row)
{
	dt_agg_print_key(out, pc, snaps[0]->ad, row[j->width]);
	for (size_t i = 0; i < j->width; i++) {
		bool is_zero = false;

		for (size_t p = 0; p < j->width; p++)
			is_zero |= row[i] == j->zero[p];
		dt_agg_print_value_cpus(out, snaps[i], row[i], normals[i], is_zero);
	}
	dt_sb_putc(out, '\n');
}

static int printa_joined(struct dt_consumer *cs, struct dt_strbuf *out,
			 const struct dt_pf_format *fmt, const uint32_t *aggids, size_t n,
			 const struct dt_aggprint *pc)
{
	struct dt_aggsnap *store = calloc(n, sizeof(*store));
	struct dt_aggsnap **snaps = calloc(n, sizeof(*snaps));
	uint64_t *normals = calloc(n, sizeof(*normals));
	struct dt_aggsort_opts o;
	struct dt_aggjoin j = { 0 };
	struct dt_aggfmt a = { 0 };
	size_t nsnaps = 0;
	int rc = 0;

	if (store == NULL || snaps == NULL || normals == NULL) {
		rc = print_error(cs, -ENOMEM);
		goto out;
	}
	/* One snapshot per distinct aggregation; a repeat shares it. */
	for (size_t i = 0; i < n; i++) {
		const struct dt_aggdesc *ad = dt_agg_desc(cs, aggids[i]);

		if (ad == NULL) {
			rc = cs->core->err;
			goto out;
		}
		normals[i] = dt_agg_normal(cs, aggids[i]);
		for (size_t k = 0; k < i && snaps[i] == NULL; k++)
			if (aggids[k] == aggids[i])
				snaps[i] = snaps[k];
		if (snaps[i] != NULL)
			continue;
		if ((rc = dt_agg_snapshot(cs, ad, &store[nsnaps])) < 0)
			goto out;
		snaps[i] = &store[nsnaps++];
	}
	dt_aggsort_opts_get(cs, &o);
	if ((rc = dt_agg_join(snaps, aggids, n, &o, &j)) < 0 ||
	    (rc = dt_aggfmt_init(&a, (size_t)snaps[0]->ad->nkeys, n)) < 0) {
		rc = print_error(cs, rc);
		goto out;
	}
	for (size_t r = 0; r < j.nrows; r++) {
		const uint8_t *const *row = j.cells + r * (n + 1);

		if (fmt == NULL) {
			print_joined_row(out, pc, snaps, normals, &j, row);
			continue;
		}
		dt_aggfmt_keys(&a, snaps[0]->ad, row[n]);
		for (size_t i = 0; i < n; i++)
			dt_aggfmt_value(&a, i, snaps[i], row[i], normals[i]);
		if ((rc = dt_aggfmt_print(out, fmt, pc, &a)) < 0) {
			rc = print_error(cs, rc);
			goto out;
		}
	}
	if (j.nrows > 0)
		for (size_t i = 0; i < n; i++)
			dt_agg_set_printed(cs, aggids[i]);
out:
	dt_aggfmt_fini(&a);
	dt_agg_join_free(&j);
	for (size_t i = 0; i < nsnaps; i++)
		dt_aggsnap_free(&store[i]);
	free(store);
	free(snaps);
	free(normals);
	return rc;
}

int dt_agg_printa(struct dt_consumer *cs, struct dt_strbuf *out, const struct dt_pf_format *fmt,
		  const uint32_t *aggids, int naggs)
{
	struct dt_aggprint pc;

	if (naggs < 1 || aggids == NULL)
		return dt_set_error(cs->core, -EINVAL, "Invalid aggregation variable identifier");
	dt_aggprint_get(cs, &pc);
	/* printa() without a format starts with a newline (dt_printa) */
	if (fmt == NULL)
		dt_sb_putc(out, '\n');
	if (naggs == 1)
		return printa_one(cs, out, fmt, aggids[0], &pc);
	return printa_joined(cs, out, fmt, aggids, (size_t)naggs, &pc);
}

#define FLUSH_AT 65536

static int flush(struct dt_strbuf *sb, FILE *fp)
{
	if (sb->oom)
		return -ENOMEM;
	if (sb->len > 0 && fwrite(sb->s, 1, sb->len, fp) != sb->len)
		return -EIO;
	dt_sb_reset(sb);
	return 0;
}

static int write_error(struct dt_consumer *cs, int rc)
{
	if (rc == -EIO)
		return dt_set_error(cs->core, rc, "write error: %s", strerror(errno));
	return print_error(cs, rc);
}

/* The same as JSON: one object per aggregation with entries. */
static int print_json(struct dt_consumer *cs, FILE *fp, const struct dt_aggsort_opts *o)
{
	struct dt_strbuf sb;
	size_t n = cs->descs->aggs.n;
	int rc = 0;

	dt_sb_init(&sb);
	for (size_t k = 0; k < n && rc == 0; k++) {
		uint32_t id = (uint32_t)(o->rev ? n - 1 - k : k);

		if (cs->descs->aggs.v[id] == NULL || dt_agg_printed(cs, id))
			continue;
		dt_sb_reset(&sb);
		int entries = dt_json_aggregation(cs, &sb, id, "exit", NULL);
		if (entries < 0)
			rc = entries;		/* the error is set */
		else if (entries > 0 && (dt_sb_putc(&sb, '\n'), (rc = flush(&sb, fp)) < 0))
			rc = write_error(cs, rc);
	}
	dt_sb_free(&sb);
	return rc;
}

/* Every aggregation printa() has not printed, by id (reversed by aggsortrev). */
int dt_aggregate_print(struct dt_consumer *cs, FILE *fp)
{
	struct dt_aggsort_opts o;
	struct dt_aggprint pc;
	struct dt_strbuf sb;
	size_t n = cs->descs->aggs.n;
	int rc = 0;

	if (fp == NULL)
		return 0;
	/* What the maps hold now, not a snapshot of the last record's firing. */
	dt_agg_forget(cs);
	dt_aggsort_opts_get(cs, &o);
	if (dt_oformat_json(cs))
		return print_json(cs, fp, &o);
	if (dt_oformat(cs) != DT_OFMT_TEXT)
		return dt_oformat_print_exit(cs, fp);
	dt_aggprint_get(cs, &pc);
	dt_sb_init(&sb);
	for (size_t k = 0; k < n; k++) {
		uint32_t id = (uint32_t)(o.rev ? n - 1 - k : k);
		const struct dt_aggdesc *ad = cs->descs->aggs.v[id];
		const uint8_t **sorted = NULL;
		struct dt_aggsnap s;

		if (ad == NULL || dt_agg_printed(cs, id))
			continue;
		if ((rc = dt_agg_snapshot(cs, ad, &s)) < 0)
			break;		/* the error is set */
		rc = dt_aggsnap_sort(&s, &o, &sorted);
		uint64_t normal = dt_agg_normal(cs, id);
		for (size_t i = 0; rc == 0 && i < s.n; i++) {
			dt_agg_print_entry(&sb, &pc, &s, sorted[i], normal);
			if (sb.len >= FLUSH_AT)
				rc = flush(&sb, fp);
		}
		free(sorted);
		dt_aggsnap_free(&s);
		if (rc < 0) {
			rc = write_error(cs, rc);
			break;
		}
	}
	if (rc == 0 && (rc = flush(&sb, fp)) < 0)
		rc = write_error(cs, rc);
	dt_sb_free(&sb);
	return rc;
}
