/*
 * Printing records as DTrace does: the CPU/ID/FUNCTION:NAME prefix
 * (unless quiet), then each action's output, then a newline (unless
 * quiet); run-time faults as DTrace's error messages.  With a record
 * callback the record is decoded for it first; with oformat=json the
 * record goes to json_out.c instead.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/abi.h"
#include "base/probe.h"
#include "base/rdesc.h"
#include "base/types.h"
#include "consumer/agg.h"
#include "consumer/consume.h"
#include "consumer/flow.h"
#include "consumer/freopen.h"
#include "consumer/print_trace.h"
#include "consumer/print_type.h"
#include "consumer/printf.h"
#include "consumer/rec_actions.h"
#include "consumer/rec_decode.h"
#include "consumer/report.h"
#include "consumer/spec.h"
#include "consumer/stack_print.h"
#include "consumer/symbolize.h"
#include "lib/dt_impl.h"

static void flush(struct dtrace_hdl *dtp, struct dt_strbuf *sb)
{
	if (sb->len > 0 && dtp->out->fp != NULL && !dtp->out->skip_output)
		fwrite_unlocked(sb->s, 1, sb->len, dtp->out->fp);
	dt_sb_reset(sb);
}

static void header(struct dtrace_hdl *dtp, struct dt_strbuf *sb, const struct dt_rec_hdr *h)
{
	struct dt_probe *prp = dt_probe_by_id(dtp->reg, h->prid);
	char name[300];

	if (!dtp->out->printed_header) {
		if (dtp->out->testing)
			dt_sb_printf(sb, "%32s\n", "FUNCTION:NAME");
		else
			dt_sb_printf(sb, "%3s %6s %32s\n", "CPU", "ID", "FUNCTION:NAME");
		dtp->out->printed_header = true;
	}
	snprintf(name, sizeof(name), "%s:%s", prp ? prp->desc[2] : "", prp ? prp->desc[3] : "");
	if (dtp->out->testing)
		dt_sb_printf(sb, "%32s ", name);
	else
		dt_sb_printf(sb, "%3u %6u %32s ", h->cpu, h->prid, name);
}

/* printf(), system() and freopen(): format, then print, run or open. */
static void print_printf(struct dtrace_hdl *dtp, struct dt_strbuf *sb,
			 const struct dt_ritem *it, const char *data)
{
	struct dt_pf_arg args[64];
	int n = it->nargs < 64 ? it->nargs : 64;

	for (int k = 0; k < n; k++)
		dt_rec_pfarg(it + 1 + k, data, &args[k]);
	struct dt_pf_ctx ctx = { .syms = dt_syms(dtp) };
	struct dt_strbuf cmd = { 0 };
	struct dt_strbuf *to = it->kind == RK_PRINTF ? sb : &cmd;
	if (dt_pf_format(to, it->fmt, args, (size_t)n, &ctx) < 0) {
		flush(dtp, sb);
		dt_report_error(dtp, "failed to print %s( ) output", dt_rec_action_name(it->kind));
	} else if (it->kind == RK_FREOPEN) {
		flush(dtp, sb);
		dt_freopen(dtp, data, it->fmtstr, cmd.s ? cmd.s : "");
	} else if (it->kind == RK_SYSTEM) {
		flush(dtp, sb);
		if (dt_run_system(dtp, cmd.s ? cmd.s : "") < 0)
			dt_report_error(dtp, "%s", dtp->core->errmsg);
	}
	dt_sb_free(&cmd);
}

static void print_text(struct dtrace_hdl *dtp, const struct dt_rdesc *rd, const void *data)
{
	const struct dt_rec_hdr *h = data;
	struct dt_strbuf *sb = &dtp->out->outbuf;
	bool quiet = dtp->core->opts.quiet;

	if (dtp->core->opts.flowindent)
		dt_flow_column(dtp, sb, h);
	else if (!quiet)
		header(dtp, sb, h);
	for (size_t i = 0; i < rd->items.n; i++) {
		const struct dt_ritem *it = &rd->items.v[i];
		switch (it->kind) {
		case RK_TRACE:
			dt_print_trace_item(dtp, sb, it, data);
			break;
		case RK_TRACEMEM:
			dt_print_tracemem(sb, it, data);
			break;
		case RK_FTRUNCATE:
			flush(dtp, sb);
			dt_ftruncate(dtp);
			break;
		case RK_PRINTF:
		case RK_SYSTEM:
		case RK_FREOPEN:
			print_printf(dtp, sb, it, data);
			i += (size_t)it->nargs;
			break;
		case RK_PRINTA:
			flush(dtp, sb);
			if (dt_agg_printa(dtp, sb, it->fmt, it->aggids, it->naggs) < 0) {
				flush(dtp, sb);
				dt_report_error(dtp, "%s", dtp->core->errmsg);
			}
			break;
		case RK_CLEAR:
		case RK_TRUNC:
		case RK_NORMALIZE:
		case RK_DENORMALIZE:
		case RK_SETOPT:
			/* a failure's message comes after what was printed so far */
			flush(dtp, sb);
			dt_rec_act(dtp, it, data);
			break;
		case RK_EXIT:
			dt_rec_act(dtp, it, data);
			break;
		case RK_PRINT:
			dt_print_typed(dtp, sb, it, data);
			break;
		case RK_STACK:
		case RK_USTACK:
		case RK_SYM:
		case RK_MOD:
		case RK_USYM:
		case RK_UMOD:
		case RK_UADDR:
			dt_print_stack_item(dtp, sb, it, data);
			break;
		default:
			break;
		}
	}
	if (!quiet)
		dt_sb_putc(sb, '\n');
	flush(dtp, sb);
}

/* The record callback, on the decoded record: 0, or -ECANCELED to stop. */
static int callback(struct dtrace_hdl *dtp, const struct dt_rdesc *rd, const void *data)
{
	dtrace_probedata_t pd;

	if (dt_rec_decode(dtp, rd, data, &pd) < 0) {
		dt_report_error(dtp, "%s", dtp->core->errmsg);
		return 0;
	}
	int rc = dtp->out->rec_fn(dtp, &pd, dtp->out->rec_arg);
	if (rc == DTRACE_CONSUME_ABORT) {
		dtp->out->cb_aborted = true;
		return -ECANCELED;
	}
	dtp->out->skip_output = rc == DTRACE_CONSUME_SKIP;
	return 0;
}

int dt_print_record(struct dtrace_hdl *dtp, const void *data, size_t size)
{
	const struct dt_rec_hdr *h = data;

	if (dtp->out->cb_aborted)
		return 0;	/* a callback stopped the consumer: nothing more goes out */
	if (size < sizeof(*h) || h->desc >= dtp->descs->rdescs.n) {
		dt_report_error(dtp, "invalid record (description %u, %zu bytes)",
				size >= sizeof(*h) ? h->desc : 0, size);
		return 0;
	}
	if (h->desc == 0) {
		if (size >= DT_REC_DATA_OFF + sizeof(struct dt_rec_error))
			dt_report_fault(dtp, data);
		return 0;
	}
	const struct dt_rdesc *rd = dtp->descs->rdescs.v[h->desc];
	if (size < rd->size) {
		dt_report_error(dtp, "truncated record (%zu of %u bytes)", size, rd->size);
		return 0;
	}
	if (h->spec != 0 || rd->spec_ctl) {
		int rc = dt_spec_record(dtp, rd, data, size);
		if (rc != 0)
			return rc < 0 ? rc : 0;
	}
	return dt_emit_record(dtp, rd, data);
}

int dt_emit_record(struct dtrace_hdl *dtp, const struct dt_rdesc *rd, const void *data)
{
	const struct dt_rec_hdr *h = data;

	dtp->out->skip_output = false;
	dt_agg_firing(dtp, h->cpu, h->prid, h->timestamp);
	if (dtp->out->rec_fn != NULL && callback(dtp, rd, data) < 0)
		return -ECANCELED;
	if (dt_oformat_json(dtp))
		return dt_json_record_out(dtp, data);
	print_text(dtp, rd, data);
	dtp->out->skip_output = false;
	return 0;
}
