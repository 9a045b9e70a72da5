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
#include "base/core.h"
#include "base/descs.h"
#include "base/probe.h"
#include "base/rdesc.h"
#include "base/types.h"
#include "consumer/agg.h"
#include "consumer/consume.h"
#include "consumer/consumer.h"
#include "consumer/flow.h"
#include "consumer/oformat.h"
#include "consumer/freopen.h"
#include "consumer/print_trace.h"
#include "consumer/print_type.h"
#include "consumer/parts.h"
#include "consumer/printf.h"
#include "consumer/rec_actions.h"
#include "consumer/rec_decode.h"
#include "consumer/report.h"
#include "consumer/spec.h"
#include "consumer/stack_print.h"
#include "consumer/symbolize.h"

static void flush(struct dt_consumer *cs, struct dt_strbuf *sb)
{
	if (sb->len > 0 && cs->fp != NULL && !cs->skip_output)
		fwrite_unlocked(sb->s, 1, sb->len, cs->fp);
	dt_sb_reset(sb);
}

static void header(struct dt_consumer *cs, struct dt_strbuf *sb, const struct dt_rec_hdr *h)
{
	struct dt_probe *prp = dt_probe_by_id(cs->reg, h->prid);
	char name[300];

	if (!cs->printed_header) {
		if (cs->testing)
			dt_sb_printf(sb, "%32s\n", "FUNCTION:NAME");
		else
			dt_sb_printf(sb, "%3s %6s %32s\n", "CPU", "ID", "FUNCTION:NAME");
		cs->printed_header = true;
	}
	snprintf(name, sizeof(name), "%s:%s", prp ? prp->desc[2] : "", prp ? prp->desc[3] : "");
	if (cs->testing)
		dt_sb_printf(sb, "%32s ", name);
	else
		dt_sb_printf(sb, "%3u %6u %32s ", h->cpu, h->prid, name);
}

/* printf(), system() and freopen(): format, then print, run or open. */
static void print_printf(struct dt_consumer *cs, struct dt_strbuf *sb,
			 const struct dt_ritem *it, const char *data)
{
	struct dt_pf_arg args[64];
	int n = it->nargs < 64 ? it->nargs : 64;

	for (int k = 0; k < n; k++)
		dt_rec_pfarg(it + 1 + k, data, &args[k]);
	struct dt_pf_ctx ctx = { .syms = dt_syms(cs) };
	struct dt_strbuf cmd = { 0 };
	struct dt_strbuf *to = it->kind == RK_PRINTF ? sb : &cmd;
	if (dt_pf_format(to, it->fmt, args, (size_t)n, &ctx) < 0) {
		flush(cs, sb);
		dt_report_error(cs, "failed to print %s( ) output", dt_rec_action_name(it->kind));
	} else if (it->kind == RK_FREOPEN) {
		flush(cs, sb);
		dt_freopen(cs, data, it->fmtstr, cmd.s ? cmd.s : "");
	} else if (it->kind == RK_SYSTEM) {
		flush(cs, sb);
		if (dt_run_system(cs, cmd.s ? cmd.s : "") < 0)
			dt_report_error(cs, "%s", cs->core->errmsg);
	}
	dt_sb_free(&cmd);
}

static void print_text(struct dt_consumer *cs, const struct dt_rdesc *rd, const void *data)
{
	const struct dt_rec_hdr *h = data;
	struct dt_strbuf *sb = &cs->outbuf;
	bool quiet = cs->core->opts.quiet;

	/* A clause cut into parts prints as one firing: one header, one newline. */
	if (cs->part_open)
		;
	else if (cs->core->opts.flowindent)
		dt_flow_column(cs, sb, h);
	else if (!quiet)
		header(cs, sb, h);
	cs->part_open = rd->part_held;
	for (size_t i = 0; i < rd->items.n; i++) {
		const struct dt_ritem *it = &rd->items.v[i];
		switch (it->kind) {
		case RK_TRACE:
			dt_print_trace_item(cs, sb, it, data);
			break;
		case RK_TRACEMEM:
			dt_print_tracemem(sb, it, data);
			break;
		case RK_FTRUNCATE:
			flush(cs, sb);
			dt_ftruncate(cs);
			break;
		case RK_PRINTF:
		case RK_SYSTEM:
		case RK_FREOPEN:
			print_printf(cs, sb, it, data);
			i += (size_t)it->nargs;
			break;
		case RK_PRINTA:
			flush(cs, sb);
			if (dt_oformat_printa(cs, sb, it->fmt, it->aggids, it->naggs) < 0) {
				flush(cs, sb);
				dt_report_error(cs, "%s", cs->core->errmsg);
			}
			break;
		case RK_CLEAR:
		case RK_TRUNC:
		case RK_NORMALIZE:
		case RK_DENORMALIZE:
		case RK_SETOPT:
			/* a failure's message comes after what was printed so far */
			flush(cs, sb);
			dt_rec_act(cs, it, data);
			break;
		case RK_EXIT:
			dt_rec_act(cs, it, data);
			break;
		case RK_PRINT:
			dt_print_typed(cs, sb, it, data);
			break;
		case RK_STACK:
		case RK_USTACK:
		case RK_SYM:
		case RK_MOD:
		case RK_USYM:
		case RK_UMOD:
		case RK_UADDR:
			dt_print_stack_item(cs, sb, it, data);
			break;
		default:
			break;
		}
	}
	if (!quiet && !cs->part_open)
		dt_sb_putc(sb, '\n');
	flush(cs, sb);
}

/* The newline a parted clause's earlier parts left owing, when its record will not print it. */
static void close_part(struct dt_consumer *cs)
{
	if (!cs->part_open)
		return;
	cs->part_open = false;
	if (!cs->core->opts.quiet && !dt_oformat_json(cs)) {
		dt_sb_putc(&cs->outbuf, '\n');
		flush(cs, &cs->outbuf);
	}
}

/* The record callback, on the decoded record: 0, or -ECANCELED to stop. */
static int callback(struct dt_consumer *cs, const struct dt_rdesc *rd, const void *data)
{
	dtrace_probedata_t pd;

	if (dt_rec_decode(cs, rd, data, &pd) < 0) {
		dt_report_error(cs, "%s", cs->core->errmsg);
		return 0;
	}
	int rc = cs->rec_fn(cs->hdl, &pd, cs->rec_arg);
	if (rc == DTRACE_CONSUME_ABORT) {
		cs->cb_aborted = true;
		return -ECANCELED;
	}
	cs->skip_output = rc == DTRACE_CONSUME_SKIP;
	return 0;
}

static int print_checked(struct dt_consumer *cs, const struct dt_rdesc *rd, const void *data,
			 size_t size);

int dt_print_record(struct dt_consumer *cs, const void *data, size_t size)
{
	const struct dt_rec_hdr *h = data;

	if (cs->cb_aborted)
		return 0;	/* a callback stopped the consumer: nothing more goes out */
	if (size < sizeof(*h) || h->desc >= cs->descs->rdescs.n) {
		dt_report_error(cs, "invalid record (description %u, %zu bytes)",
				size >= sizeof(*h) ? h->desc : 0, size);
		return 0;
	}
	if (h->desc == 0) {
		/* DTrace's fault is a record of dtrace:::ERROR: a return before it unindents. */
		if (dt_flow_release(cs, NULL) < 0)
			return -ECANCELED;
		if (size >= DT_REC_DATA_OFF + sizeof(struct dt_rec_error)) {
			if (dt_parts_fault(cs, data, size, print_checked) < 0)
				return -ECANCELED;
			dt_report_fault(cs, data);
		}
		return 0;
	}
	const struct dt_rdesc *rd = cs->descs->rdescs.v[h->desc];
	if (size < rd->size) {
		dt_report_error(cs, "truncated record (%zu of %u bytes)", size, rd->size);
		return 0;
	}
	if (rd->part_held || rd->part_last) {
		int rc = dt_parts_record(cs, rd, data, size, print_checked);
		if (rc != 0)
			return rc < 0 ? rc : 0;
	}
	return print_checked(cs, rd, data, size);
}

/* A record whose description and size are checked: speculated, or printed. */
static int print_checked(struct dt_consumer *cs, const struct dt_rdesc *rd, const void *data,
			 size_t size)
{
	const struct dt_rec_hdr *h = data;

	if (h->spec != 0 || rd->spec_ctl) {
		int rc = dt_spec_record(cs, rd, data, size);
		if (rc != 0)
			return rc < 0 ? rc : 0;
	}
	return dt_emit_record(cs, rd, data);
}

int dt_emit_record(struct dt_consumer *cs, const struct dt_rdesc *rd, const void *data)
{
	/* A part that records nothing only marks where its clause ends. */
	if ((rd->part_held || rd->part_last) && rd->items.n == 0) {
		if (rd->part_last)
			close_part(cs);
		return 0;
	}
	if (cs->core->opts.flowindent && !dt_oformat_json(cs)) {
		/* A return waiting for this record prints first (flow.c). */
		if (dt_flow_release(cs, data) < 0)
			return -ECANCELED;
		if (dt_flow_hold(cs, rd, data))
			return 0;
	}
	return dt_emit_record_now(cs, rd, data);
}

int dt_emit_record_now(struct dt_consumer *cs, const struct dt_rdesc *rd, const void *data)
{
	const struct dt_rec_hdr *h = data;

	if (!rd->part_held && !rd->part_last)
		close_part(cs);
	cs->skip_output = false;
	dt_agg_firing(cs, h->cpu, h->prid, h->timestamp);
	if (cs->rec_fn != NULL && callback(cs, rd, data) < 0)
		return -ECANCELED;
	if (dt_oformat_json(cs))
		return dt_json_record_out(cs, data);
	print_text(cs, rd, data);
	cs->skip_output = false;
	return 0;
}
