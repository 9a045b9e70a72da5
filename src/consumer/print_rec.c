/*
 * Printing records as DTrace does: the CPU/ID/FUNCTION:NAME prefix
 * (unless quiet), then each action's output, then a newline (unless
 * quiet); run-time faults as DTrace's error messages.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bpf/abi.h"
#include "compiler/program.h"
#include "compiler/types.h"
#include "consumer/agg.h"
#include "consumer/consume.h"
#include "consumer/printf.h"
#include "consumer/rdesc.h"
#include "lib/dt_impl.h"
#include "providers/probe.h"

static void flush(struct dtrace_hdl *dtp, struct dt_strbuf *sb)
{
	if (sb->len > 0)
		fwrite(sb->s, 1, sb->len, dtp->out);
	dt_sb_reset(sb);
}

static const char *fault_str(uint32_t fault)
{
	switch (fault) {
	case DT_FLT_BADADDR: return "invalid address";
	case DT_FLT_BADALIGN: return "invalid alignment";
	case DT_FLT_ILLOP: return "illegal operation";
	case DT_FLT_DIVZERO: return "divide-by-zero";
	case DT_FLT_NOSCRATCH: return "out of scratch space";
	case DT_FLT_KPRIV: return "invalid kernel access";
	case DT_FLT_UPRIV: return "invalid user access";
	case DT_FLT_TUPOFLOW: return "tuple stack overflow";
	case DT_FLT_BADSTACK: return "bad stack";
	case DT_FLT_BADSIZE: return "invalid size";
	default: return "unknown fault";
	}
}

static void print_error(struct dtrace_hdl *dtp, const struct dt_rec_hdr *h, const void *data)
{
	const struct dt_rec_error *e = (const void *)((const char *)data + DT_REC_DATA_OFF);
	struct dt_probe *prp = dt_probe_by_id(dtp, h->prid);
	char details[64] = "";

	if (e->fault == DT_FLT_BADADDR || e->fault == DT_FLT_BADALIGN ||
	    e->fault == DT_FLT_BADSTACK || e->fault == DT_FLT_BADSIZE)
		snprintf(details, sizeof(details), " (0x%llx)", (unsigned long long)e->addr);
	/* The clause number of the probe description that matched this probe. */
	uint32_t clause = e->stmt;
	for (size_t i = 0; i < dtp->stmts.n; i++) {
		struct dt_stmt *st = dtp->stmts.v[i];
		if (st->id != e->stmt)
			continue;
		for (size_t j = 0; j < st->probes.n; j++)
			if (st->probes.v[j] == prp)
				clause += (uint32_t)st->probe_pdesc.v[j];
	}
	fflush(dtp->out);
	fprintf(stderr, "dtrace: error in dt_clause_%u for probe ID %u (%s:%s:%s:%s): %s%s at BPF pc %u\n",
		clause, h->prid, prp ? prp->desc[0] : "", prp ? prp->desc[1] : "",
		prp ? prp->desc[2] : "", prp ? prp->desc[3] : "", fault_str(e->fault), details,
		e->pc);
}

static void header(struct dtrace_hdl *dtp, struct dt_strbuf *sb, const struct dt_rec_hdr *h)
{
	struct dt_probe *prp = dt_probe_by_id(dtp, h->prid);
	char name[300];

	if (!dtp->printed_header) {
		if (dtp->testing)
			dt_sb_printf(sb, "%32s\n", "FUNCTION:NAME");
		else
			dt_sb_printf(sb, "%3s %6s %32s\n", "CPU", "ID", "FUNCTION:NAME");
		dtp->printed_header = true;
	}
	snprintf(name, sizeof(name), "%s:%s", prp ? prp->desc[2] : "", prp ? prp->desc[3] : "");
	if (dtp->testing)
		dt_sb_printf(sb, "%32s ", name);
	else
		dt_sb_printf(sb, "%3u %6u %32s ", h->cpu, h->prid, name);
}

/* A printf argument from a record item. */
static void pf_arg(const struct dt_ritem *it, const char *data, struct dt_pf_arg *a)
{
	memset(a, 0, sizeof(*a));
	a->src = DT_PF_REC;
	if (it->is_const && it->is_string) {
		a->data = it->cstr;
		a->size = strlen(it->cstr) + 1;
		return;
	}
	if (it->is_const) {
		a->data = &it->cval;
		a->size = sizeof(it->cval);
		return;
	}
	a->data = data + it->off;
	a->size = it->size;
}

static void print_trace(struct dtrace_hdl *dtp, struct dt_strbuf *sb, const struct dt_ritem *it,
			const char *data)
{
	bool quiet = dtp->opts.quiet;

	if (it->is_string) {
		const char *s = it->is_const ? it->cstr : data + it->off;
		size_t n = it->is_const ? strlen(s) : strnlen(s, it->size);
		dt_format_trace_string(sb, s, n, quiet);
		return;
	}
	if ((dt_type_is_integer(it->type) || dt_type_is_pointer(it->type)) && it->size <= 8) {
		dt_format_trace_int(sb, data + it->off, it->size,
				    dt_type_is_signed(it->type) && !dt_type_is_pointer(it->type), quiet);
		return;
	}
	dt_format_bytes(sb, data + it->off, it->size, 0, quiet);
}

int dt_print_record(struct dtrace_hdl *dtp, const void *data, size_t size)
{
	const struct dt_rec_hdr *h = data;
	struct dt_strbuf *sb = &dtp->outbuf;

	if (size < sizeof(*h) || h->desc >= dtp->rdescs.n) {
		fflush(dtp->out);
		fprintf(stderr, "dtrace: invalid record (description %u, %zu bytes)\n",
			size >= sizeof(*h) ? h->desc : 0, size);
		return 0;
	}
	if (h->desc == 0) {
		if (size >= DT_REC_DATA_OFF + sizeof(struct dt_rec_error))
			print_error(dtp, h, data);
		return 0;
	}
	const struct dt_rdesc *rd = dtp->rdescs.v[h->desc];
	if (size < rd->size) {
		fflush(dtp->out);
		fprintf(stderr, "dtrace: truncated record (%zu of %u bytes)\n", size, rd->size);
		return 0;
	}
	bool quiet = dtp->opts.quiet;
	if (!quiet)
		header(dtp, sb, h);
	for (size_t i = 0; i < rd->items.n; i++) {
		const struct dt_ritem *it = &rd->items.v[i];
		switch (it->kind) {
		case RK_TRACE:
			print_trace(dtp, sb, it, data);
			break;
		case RK_PRINTF:
		case RK_SYSTEM: {
			struct dt_pf_arg args[64];
			int n = it->nargs < 64 ? it->nargs : 64;
			for (int k = 0; k < n; k++)
				pf_arg(&rd->items.v[i + 1 + (size_t)k], data, &args[k]);
			struct dt_pf_ctx ctx = { 0 };
			struct dt_strbuf cmd = { 0 };
			struct dt_strbuf *to = it->kind == RK_SYSTEM ? &cmd : sb;
			if (dt_pf_format(to, it->fmt, args, (size_t)n, &ctx) < 0) {
				flush(dtp, sb);
				fprintf(stderr, "dtrace: failed to print %s( ) output\n",
					it->kind == RK_SYSTEM ? "system" : "printf");
			} else if (it->kind == RK_SYSTEM) {
				flush(dtp, sb);
				if (dt_run_system(dtp, cmd.s ? cmd.s : "") < 0)
					fprintf(stderr, "dtrace: %s\n", dtp->errmsg);
			}
			dt_sb_free(&cmd);
			i += (size_t)it->nargs;
			break;
		}
		case RK_PRINTA:
			flush(dtp, sb);
			if (dt_agg_printa(dtp, sb, it->fmt, it->aggids, it->naggs) < 0) {
				flush(dtp, sb);
				fprintf(stderr, "dtrace: %s\n", dtp->errmsg);
			}
			break;
		case RK_CLEAR:
		case RK_TRUNC:
		case RK_NORMALIZE:
		case RK_DENORMALIZE: {
			int64_t v = it->cval;
			if (!it->is_const)
				memcpy(&v, (const char *)data + it->off, sizeof(v));
			int rc = 0;
			for (int k = 0; k < it->naggs && rc == 0; k++) {
				uint32_t id = it->aggids[k];
				rc = it->kind == RK_CLEAR ? dt_agg_clear(dtp, id)
				     : it->kind == RK_TRUNC ? dt_agg_trunc(dtp, id, v)
				     : it->kind == RK_NORMALIZE ? dt_agg_normalize(dtp, id, (uint64_t)v)
				     : dt_agg_denormalize(dtp, id);
			}
			if (rc < 0) {
				flush(dtp, sb);
				fprintf(stderr, "dtrace: %s\n", dtp->errmsg);
			}
			break;
		}
		case RK_SETOPT:
			if (dt_option_set(dtp, it->optname, it->optval) < 0) {
				flush(dtp, sb);
				fprintf(stderr, "dtrace: couldn't set option \"%s\" to \"%s\": %s\n",
					it->optname, it->optval ? it->optval : "", dtp->errmsg);
			}
			break;
		case RK_EXIT:
			if (!dtp->exited) {
				int32_t st;
				memcpy(&st, (const char *)data + it->off, sizeof(st));
				dtp->exited = true;
				dtp->exit_status = st;
			}
			break;
		default:
			break;
		}
	}
	if (!quiet)
		dt_sb_putc(sb, '\n');
	flush(dtp, sb);
	return 0;
}
