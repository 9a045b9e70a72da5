/*
 * Which output format, and what printa() and the exit print do in the
 * folded, pprof and openmetrics formats (oformat.h).  The file formats
 * keep, per aggregation, what it showed when last printed, and write the
 * file from all of them.
 */
#include "consumer/oformat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/aggdesc.h"
#include "base/core.h"
#include "base/descs.h"
#include "consumer/agg.h"
#include "consumer/agg_impl.h"
#include "consumer/agg_walk.h"
#include "consumer/consumer.h"
#include "consumer/file_replace.h"
#include "consumer/folded.h"
#include "consumer/openmetrics.h"
#include "consumer/pprof.h"

/* What a file format shows of each aggregation, as last printed. */
struct dt_ofile {
	char *path;
	size_t nblocks;
	char **text;			/* openmetrics: the families' text */
	struct dt_pprof_agg **prof;	/* pprof: the samples */
};

static const char *const names[] = {
	[DT_OFMT_TEXT] = "text", [DT_OFMT_JSON] = "json", [DT_OFMT_FOLDED] = "folded",
	[DT_OFMT_PPROF] = "pprof", [DT_OFMT_OPENMETRICS] = "openmetrics",
};

enum dt_oformat dt_oformat(const struct dt_consumer *cs)
{
	const char *f = cs->core->opts.oformat;

	for (size_t i = 0; f != NULL && i < ARRAY_SIZE(names); i++)
		if (strcmp(f, names[i]) == 0)
			return (enum dt_oformat)i;
	return DT_OFMT_TEXT;
}

bool dt_oformat_writes_file(enum dt_oformat f)
{
	return f == DT_OFMT_PPROF || f == DT_OFMT_OPENMETRICS;
}

bool dt_oformat_takes(enum dt_oformat f, const struct dt_aggdesc *ad)
{
	switch (f) {
	case DT_OFMT_JSON:
	case DT_OFMT_OPENMETRICS:
		return true;
	case DT_OFMT_FOLDED:
		return dt_agg_has_stack(ad);
	case DT_OFMT_PPROF:
		/* pprof adds samples up: only values that add up. */
		return dt_agg_has_stack(ad) && (ad->func == AGG_COUNT || ad->func == AGG_SUM);
	default:
		return false;
	}
}

static int nomem(struct dt_consumer *cs)
{
	return dt_set_error(cs->core, -ENOMEM, "out of memory");
}

static struct dt_ofile *ofile(struct dt_consumer *cs)
{
	if (cs->ofile == NULL)
		cs->ofile = calloc(1, sizeof(*cs->ofile));
	return cs->ofile;
}

int dt_oformat_set_file(struct dt_consumer *cs, const char *path)
{
	struct dt_ofile *of = ofile(cs);
	char *p = path != NULL ? strdup(path) : NULL;

	if (of == NULL || (path != NULL && p == NULL)) {
		free(p);
		return dt_set_error(cs->core, -ENOMEM, "out of memory");
	}
	free(of->path);
	of->path = p;
	return 0;
}

int dt_oformat_check(struct dt_consumer *cs)
{
	enum dt_oformat f = dt_oformat(cs);

	if (!dt_oformat_writes_file(f))
		return 0;
	if (cs->ofile == NULL || cs->ofile->path == NULL)
		return dt_set_error(cs->core, -EINVAL,
				    "oformat=%s writes a file: none was named (dtrace -o)", names[f]);
	/* Its directory takes new files (file_replace.h): say so now, not at the first printa(). */
	const char *path = cs->ofile->path, *slash = strrchr(path, '/');
	char *dir = slash == NULL ? strdup(".") : slash == path ? strdup("/")
		    : strndup(path, (size_t)(slash - path));
	if (dir == NULL)
		return nomem(cs);
	int ok = access(dir, W_OK | X_OK);
	int e = errno;
	free(dir);
	if (ok < 0)
		return dt_set_error(cs->core, -e, "cannot write %s: %s", path, strerror(e));
	return 0;
}

static void free_blocks(struct dt_ofile *of)
{
	for (size_t i = 0; i < of->nblocks; i++) {
		if (of->text != NULL)
			free(of->text[i]);
		if (of->prof != NULL)
			dt_pprof_agg_free(of->prof[i]);
	}
	free(of->text);
	free(of->prof);
	of->text = NULL;
	of->prof = NULL;
	of->nblocks = 0;
}

void dt_oformat_fini(struct dt_consumer *cs)
{
	if (cs->ofile == NULL)
		return;
	free_blocks(cs->ofile);
	free(cs->ofile->path);
	free(cs->ofile);
	cs->ofile = NULL;
}

/* Room for a block per aggregation. */
static int blocks(struct dt_consumer *cs, struct dt_ofile *of)
{
	size_t n = cs->descs->aggs.n;

	if (of->nblocks == n && (of->text != NULL || of->prof != NULL))
		return 0;
	free_blocks(of);
	of->text = calloc(n + 1, sizeof(*of->text));
	of->prof = calloc(n + 1, sizeof(*of->prof));
	if (of->text == NULL || of->prof == NULL)
		return nomem(cs);
	of->nblocks = n;
	return 0;
}

/* Take what aggregation aggid shows now as its block. */
static int publish(struct dt_consumer *cs, enum dt_oformat f, uint32_t aggid)
{
	struct dt_ofile *of = ofile(cs);
	int rc;

	if (of == NULL)
		return nomem(cs);
	if ((rc = blocks(cs, of)) < 0)
		return rc;
	if (f == DT_OFMT_OPENMETRICS) {
		struct dt_strbuf sb;
		dt_sb_init(&sb);
		rc = dt_openmetrics_aggregation(cs, &sb, aggid);
		if (rc >= 0 && sb.oom)
			rc = nomem(cs);
		if (rc < 0) {
			dt_sb_free(&sb);
			return rc;
		}
		free(of->text[aggid]);
		of->text[aggid] = sb.s != NULL ? dt_sb_take(&sb) : strdup("");
		return of->text[aggid] != NULL ? rc : nomem(cs);
	}
	struct dt_pprof_agg *pa = NULL;
	if ((rc = dt_pprof_collect(cs, aggid, &pa)) < 0)
		return rc;
	dt_pprof_agg_free(of->prof[aggid]);
	of->prof[aggid] = pa;
	return rc;
}

/* Write the file from every aggregation's block. */
static int write_file(struct dt_consumer *cs, enum dt_oformat f)
{
	struct dt_ofile *of = ofile(cs);
	struct dt_strbuf sb;
	char err[256];
	int rc = 0;

	if (of == NULL || of->path == NULL)
		return dt_oformat_check(cs);
	if (blocks(cs, of) < 0)
		return cs->core->err;
	dt_sb_init(&sb);
	if (f == DT_OFMT_OPENMETRICS) {
		for (size_t i = 0; i < of->nblocks; i++)
			if (of->text[i] != NULL)
				dt_sb_puts(&sb, of->text[i]);
		dt_sb_puts(&sb, "# EOF\n");
	} else {
		rc = dt_pprof_write(of->prof, of->nblocks, &sb);
		if (rc < 0)
			rc = dt_set_error(cs->core, rc, "cannot encode the profile: %s",
					  rc == -ENOMEM ? "out of memory" : "compression failed");
	}
	if (rc == 0 && sb.oom)
		rc = nomem(cs);
	if (rc == 0 && dt_file_replace(of->path, sb.s, sb.len, err, sizeof(err)) < 0)
		rc = dt_set_error(cs->core, -EIO, "cannot write %s: %s", of->path, err);
	dt_sb_free(&sb);
	return rc;
}

int dt_oformat_printa(struct dt_consumer *cs, struct dt_strbuf *out,
		      const struct dt_pf_format *fmt, const uint32_t *aggids, int naggs)
{
	enum dt_oformat f = dt_oformat(cs);
	bool any = false, file = false;
	int rc = 0;

	for (int i = 0; i < naggs && aggids != NULL; i++) {
		const struct dt_aggdesc *ad = dt_agg_desc(cs, aggids[i]);
		any |= ad != NULL && dt_oformat_takes(f, ad);
	}
	if (!any)
		return dt_agg_printa(cs, out, fmt, aggids, naggs);
	/* Each aggregation once, in argument order; the format's to it, the others as text. */
	for (int i = 0; i < naggs && rc == 0; i++) {
		bool again = false;
		for (int k = 0; k < i; k++)
			again |= aggids[k] == aggids[i];
		const struct dt_aggdesc *ad = dt_agg_desc(cs, aggids[i]);
		if (again || ad == NULL)
			continue;
		if (!dt_oformat_takes(f, ad)) {
			rc = dt_agg_printa(cs, out, NULL, &aggids[i], 1);
			continue;
		}
		if (f == DT_OFMT_FOLDED) {
			/* Not quiet, the record's line before it wants its end, as printa() gives it. */
			if (!cs->core->opts.quiet)
				dt_sb_putc(out, '\n');
			rc = dt_folded_aggregation(cs, out, aggids[i]);
		} else {
			rc = publish(cs, f, aggids[i]);
			file = true;
		}
		/* As in text: printed once it had entries, not printed again at exit. */
		if (rc > 0)
			dt_agg_set_printed(cs, aggids[i]);
		rc = rc < 0 ? rc : 0;
	}
	if (rc == 0 && file)
		rc = write_file(cs, f);
	return rc;
}

int dt_oformat_print_exit(struct dt_consumer *cs, FILE *fp)
{
	enum dt_oformat f = dt_oformat(cs);
	struct dt_aggsort_opts o;
	struct dt_strbuf sb;
	size_t n = cs->descs->aggs.n;
	bool blank = false;
	int rc = 0;

	dt_aggsort_opts_get(cs, &o);
	dt_sb_init(&sb);
	for (size_t k = 0; k < n && rc == 0; k++) {
		uint32_t id = (uint32_t)(o.rev ? n - 1 - k : k);
		const struct dt_aggdesc *ad = cs->descs->aggs.v[id];

		if (ad == NULL || dt_agg_printed(cs, id))
			continue;
		if (dt_oformat_takes(f, ad) && f == DT_OFMT_FOLDED) {
			rc = dt_folded_aggregation(cs, &sb, id);
		} else if (dt_oformat_takes(f, ad)) {
			rc = publish(cs, f, id);
		} else {
			/* As text, after the blank line the text output has before them. */
			size_t mark = sb.len;
			if ((rc = dt_agg_printa(cs, &sb, NULL, &id, 1)) == 0 && sb.len == mark + 1) {
				sb.len = mark;		/* no entries: nothing, as in text */
				sb.s[mark] = '\0';
			} else if (rc == 0 && blank) {
				memmove(sb.s + mark, sb.s + mark + 1, sb.len - mark);
				sb.len--;
			}
			blank |= rc == 0 && sb.len > mark;
		}
		rc = rc < 0 ? rc : 0;
		if (sb.len > 0 && !sb.oom && fwrite(sb.s, 1, sb.len, fp) != sb.len)
			rc = dt_set_error(cs->core, -EIO, "write error: %s", strerror(errno));
		dt_sb_reset(&sb);
	}
	if (rc >= 0 && sb.oom)
		rc = nomem(cs);
	dt_sb_free(&sb);
	if (rc >= 0 && dt_oformat_writes_file(f))
		rc = write_file(cs, f);
	return rc < 0 ? rc : 0;
}
