/*
 * The output formats (-x oformat=): DTrace's text, JSON (json_out.c),
 * and three that show aggregations the way other tools read them:
 *
 *   folded       aggregations keyed by stacks as folded stacks in the
 *                output (folded.h); everything else as text
 *   pprof        count() and sum() aggregations keyed by stacks as one
 *                profile.proto, gzipped, in the -o file (pprof.h);
 *                everything else as text on the output
 *   openmetrics  every aggregation as Prometheus text in the -o file
 *                (openmetrics.h); records as text on the output
 *
 * The files are rewritten whole (a new file renamed over the old one) at
 * each printa() of what they show and at exit, and hold each aggregation
 * as it was last printed, as the text output would show it.
 */
#ifndef DT_OFORMAT_H
#define DT_OFORMAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "dtrace.h"

struct dt_consumer;
struct dt_strbuf;
struct dt_pf_format;
struct dt_aggdesc;

enum dt_oformat {
	DT_OFMT_TEXT = DTRACE_OFORMAT_TEXT,
	DT_OFMT_JSON = DTRACE_OFORMAT_JSON,
	DT_OFMT_FOLDED = DTRACE_OFORMAT_FOLDED,
	DT_OFMT_PPROF = DTRACE_OFORMAT_PPROF,
	DT_OFMT_OPENMETRICS = DTRACE_OFORMAT_OPENMETRICS,
};

enum dt_oformat dt_oformat(const struct dt_consumer *cs);

/* Whether the format writes a file of its own (pprof, openmetrics). */
bool dt_oformat_writes_file(enum dt_oformat f);

/* Whether the format shows this aggregation itself (instead of DTrace's text). */
bool dt_oformat_takes(enum dt_oformat f, const struct dt_aggdesc *ad);

/*
 * printa() outside JSON: the aggregations the format takes go to it (a
 * file format's file is rewritten), the others are printed as text into
 * `out`.  0 or a negative errno (error set).
 */
int dt_oformat_printa(struct dt_consumer *cs, struct dt_strbuf *out,
		      const struct dt_pf_format *fmt, const uint32_t *aggids, int naggs);

/*
 * The exit print of the folded, pprof and openmetrics formats: every
 * aggregation printa() has not printed, the format's to it (the file is
 * written even if none), the others as text to fp.
 */
int dt_oformat_print_exit(struct dt_consumer *cs, FILE *fp);

/* The file pprof and openmetrics write (NULL: none).  0 or -ENOMEM. */
int dt_oformat_set_file(struct dt_consumer *cs, const char *path);

/* Before tracing: a format that writes a file has one.  0 or -EINVAL (error set). */
int dt_oformat_check(struct dt_consumer *cs);

void dt_oformat_fini(struct dt_consumer *cs);

#endif
