/*
 * A record in JSON mode: the record's object, then one object per
 * aggregation its printa() actions printed, each on its own line.  The
 * record's actions take effect in order as in text mode; what a system()
 * command writes is captured into the record's object instead of going to
 * the output between JSON lines.
 */
#include <errno.h>
#include <stdlib.h>

#include "base/abi.h"
#include "base/core.h"
#include "base/descs.h"
#include "base/rdesc.h"
#include "consumer/agg_impl.h"
#include "consumer/agg_walk.h"
#include "consumer/consume.h"
#include "consumer/consumer.h"
#include "consumer/freopen.h"
#include "consumer/json_rec.h"
#include "consumer/rec_actions.h"
#include "consumer/rec_decode.h"
#include "consumer/report.h"

/* printa(): each aggregation's object, a line each, into `lines`. */
static void printa(struct dt_consumer *cs, const struct dt_ritem *it, const struct dt_rec_hdr *h,
		   struct dt_strbuf *lines)
{
	uint64_t ts = h->timestamp;

	for (int k = 0; k < it->naggs; k++) {
		size_t mark = lines->len;
		int n = dt_json_aggregation(cs, lines, it->aggids[k], "printa", &ts);
		if (n < 0) {
			lines->len = mark;
			if (lines->s != NULL)
				lines->s[mark] = '\0';
			dt_report_error(cs, "%s", cs->core->errmsg);
			continue;
		}
		dt_sb_putc(lines, '\n');
		if (n > 0)
			dt_agg_set_printed(cs, it->aggids[k]);
	}
}

int dt_json_record_out(struct dt_consumer *cs, const void *data)
{
	const struct dt_rec_hdr *h = data;
	const struct dt_rdesc *rd = cs->descs->rdescs.v[h->desc];
	dtrace_probedata_t pd;
	struct dt_strbuf line, aggs;
	int rc = 0;

	if (dt_rec_decode(cs, rd, data, &pd) < 0) {
		dt_report_error(cs, "%s", cs->core->errmsg);
		return 0;
	}
	struct dt_strbuf *out = calloc(pd.nactions + 1, sizeof(*out));
	const struct dt_strbuf **sysout = calloc(pd.nactions + 1, sizeof(*sysout));
	if (out == NULL || sysout == NULL) {
		free(out);
		free(sysout);
		return dt_set_error(cs->core, -ENOMEM, "out of memory");
	}
	dt_sb_init(&line);
	dt_sb_init(&aggs);
	size_t a = 0;
	for (size_t i = 0; i < rd->items.n && a < pd.nactions; i++, a++) {
		const struct dt_ritem *it = &rd->items.v[i];
		switch (it->kind) {
		case RK_PRINTF:
		case RK_SYSTEM:
			i += (size_t)it->nargs;
			if (dt_rec_decode_failed(cs, a)) {
				dt_report_error(cs, "failed to print %s( ) output",
						it->kind == RK_SYSTEM ? "system" : "printf");
			} else if (it->kind == RK_SYSTEM) {
				if (dt_run_system_capture(cs, pd.actions[a].output, &out[a]) < 0)
					dt_report_error(cs, "%s", cs->core->errmsg);
				sysout[a] = &out[a];
			}
			break;
		case RK_PRINTA:
			printa(cs, it, h, &aggs);
			break;
		case RK_FREOPEN:
			i += (size_t)it->nargs;
			if (dt_rec_decode_failed(cs, a))
				dt_report_error(cs, "failed to print freopen( ) output");
			else
				dt_freopen(cs, data, it->fmtstr, pd.actions[a].output);
			break;
		case RK_FTRUNCATE:
			dt_ftruncate(cs);
			break;
		default:
			dt_rec_act(cs, it, data);
			break;
		}
	}
	if (!cs->skip_output && cs->fp != NULL) {
		dt_json_record(&line, &pd, sysout);
		dt_json_line(cs, &line);
		if (aggs.len > 0 && !aggs.oom)
			fwrite(aggs.s, 1, aggs.len, cs->fp);
	}
	if (line.oom || aggs.oom)
		rc = dt_set_error(cs->core, -ENOMEM, "out of memory");
	for (size_t k = 0; k < pd.nactions; k++)
		dt_sb_free(&out[k]);
	free(out);
	free(sysout);
	dt_sb_free(&line);
	dt_sb_free(&aggs);
	cs->skip_output = false;
	return rc;
}
