/* Faults, consumer errors and drops: callback, stderr, JSON (report.h). */
#include "consumer/report.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bpf/abi.h"
#include "compiler/program.h"
#include "consumer/json_rec.h"
#include "consumer/rdesc.h"
#include "consumer/rec_decode.h"
#include "lib/dt_impl.h"
#include "providers/probe.h"

bool dt_oformat_json(const struct dtrace_hdl *dtp)
{
	return dtp->opts.oformat != NULL && strcmp(dtp->opts.oformat, "json") == 0;
}

void dt_json_line(struct dtrace_hdl *dtp, struct dt_strbuf *sb)
{
	if (dtp->out != NULL && sb->len > 0 && !sb->oom) {
		dt_sb_putc(sb, '\n');
		fwrite(sb->s, 1, sb->len, dtp->out);
	}
	dt_sb_reset(sb);
	sb->oom = false;
}

static bool handled(struct dtrace_hdl *dtp, int rc)
{
	if (rc == DTRACE_CONSUME_ABORT)
		dtp->cb_aborted = true;
	return rc != DTRACE_CONSUME_NEXT;
}

static void emit(struct dtrace_hdl *dtp, const dtrace_errdata_t *ed, const dtrace_dropdata_t *dd)
{
	if (dtp->out != NULL)
		fflush(dtp->out);
	if (dd != NULL) {
		fprintf(stderr, "dtrace: ");
		if (dtp->opts.droptags)
			fprintf(stderr, "[%s] ", dd->tag);
		fprintf(stderr, "%s\n", dd->msg);
	} else {
		fprintf(stderr, "dtrace: %s\n", ed->msg);
	}
	if (dt_oformat_json(dtp) && dtp->out != NULL) {
		struct dt_strbuf sb;

		dt_sb_init(&sb);
		if (dd != NULL)
			dt_json_drop(&sb, dd);
		else
			dt_json_error(&sb, ed);
		dt_json_line(dtp, &sb);
		dt_sb_free(&sb);
		fflush(dtp->out);
	}
}

static void report(struct dtrace_hdl *dtp, const dtrace_errdata_t *ed)
{
	if (dtp->cb_aborted)
		return;
	if (dtp->err_fn != NULL && handled(dtp, dtp->err_fn(dtp, ed, dtp->err_arg)))
		return;
	emit(dtp, ed, NULL);
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
	case DT_FLT_BADINDEX: return "index out of bounds";
	default: return "unknown fault";
	}
}

/* The clause number of the probe description of clause stmt that matched prp. */
static uint32_t clause_number(struct dtrace_hdl *dtp, uint32_t stmt, struct dt_probe *prp)
{
	uint32_t clause = stmt;

	for (size_t i = 0; i < dtp->stmts.n; i++) {
		struct dt_stmt *st = dtp->stmts.v[i];
		if (st->id != stmt)
			continue;
		for (size_t j = 0; j < st->probes.n; j++)
			if (st->probes.v[j] == prp) {
				clause += (uint32_t)st->probe_pdesc.v[j];
				break;
			}
	}
	return clause;
}

void dt_report_liberr(struct dtrace_hdl *dtp, const void *rec, const char *fmt, ...)
{
	const struct dt_rec_hdr *h = rec;
	const struct dt_rdesc *rd = h->desc < dtp->rdescs.n ? dtp->rdescs.v[h->desc] : NULL;
	uint32_t stmt = rd != NULL && rd->stmt != NULL ? rd->stmt->id : 0;
	dtrace_probeinfo_t pi;
	char what[1024], msg[1400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	dt_rec_probeinfo(dtp, h->prid, &pi);
	snprintf(msg, sizeof(msg), "error in dt_clause_%u for probe ID %u (%s:%s:%s:%s): %s",
		 clause_number(dtp, stmt, dt_probe_by_id(dtp, h->prid)), h->prid, pi.provider,
		 pi.module, pi.function, pi.name, what);
	/* Not a fault: no probe, as for the consumer's other errors. */
	dtrace_errdata_t ed = { .cpu = h->cpu, .timestamp = h->timestamp, .msg = msg };
	report(dtp, &ed);
}

void dt_report_fault(struct dtrace_hdl *dtp, const void *rec)
{
	const struct dt_rec_hdr *h = rec;
	const struct dt_rec_error *e = (const void *)((const char *)rec + DT_REC_DATA_OFF);
	struct dt_probe *prp = dt_probe_by_id(dtp, h->prid);
	dtrace_probeinfo_t pi;
	char details[64] = "", msg[1024];

	if (e->fault == DT_FLT_BADADDR || e->fault == DT_FLT_BADALIGN ||
	    e->fault == DT_FLT_BADSTACK || e->fault == DT_FLT_BADSIZE)
		snprintf(details, sizeof(details), " (0x%llx)", (unsigned long long)e->addr);
	else if (e->fault == DT_FLT_BADINDEX)
		snprintf(details, sizeof(details), " (%lld)", (long long)e->addr);
	uint32_t clause = clause_number(dtp, e->stmt, prp);
	dt_rec_probeinfo(dtp, h->prid, &pi);
	snprintf(msg, sizeof(msg),
		 "error in dt_clause_%u for probe ID %u (%s:%s:%s:%s): %s%s at BPF pc %u", clause,
		 h->prid, pi.provider, pi.module, pi.function, pi.name, fault_str(e->fault),
		 details, e->pc);
	dtrace_errdata_t ed = {
		.probe = &pi, .cpu = h->cpu, .timestamp = h->timestamp, .fault = (int)e->fault,
		.fault_name = fault_str(e->fault), .addr = e->addr, .clause = clause, .pc = e->pc,
		.msg = msg,
	};
	report(dtp, &ed);
}

void dt_report_error(struct dtrace_hdl *dtp, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	dtrace_errdata_t ed = { .msg = msg };
	report(dtp, &ed);
}

void dt_report_drop(struct dtrace_hdl *dtp, dtrace_dropkind_t kind, int cpu, uint64_t n)
{
	static const struct {
		const char *tag, *what, *after;
	} kinds[] = {
		[DTRACE_DROP_PRINCIPAL] = { "DTRACEDROP_PRINCIPAL", "drop", "" },
		[DTRACE_DROP_AGGREGATION] = { "DTRACEDROP_AGGREGATION", "aggregation drop", "" },
		[DTRACE_DROP_DYNAMIC] = { "DTRACEDROP_DYNAMIC", "dynamic variable drop", "" },
		[DTRACE_DROP_SPEC] = { "DTRACEDROP_SPEC", "speculative drop", "" },
		[DTRACE_DROP_SPECBUSY] = { "DTRACEDROP_SPECBUSY", "failed speculation",
					   " (available buffer(s) still busy)" },
		[DTRACE_DROP_SPECUNAVAIL] = { "DTRACEDROP_SPECUNAVAIL", "failed speculation",
					      " (no speculative buffer available)" },
		[DTRACE_DROP_NESTED] = { "DTRACEDROP_NESTED", "nested probe drop", "" },
	};
	char msg[128];

	if (cpu >= 0)
		snprintf(msg, sizeof(msg), "%llu %s%s%s on CPU %d", (unsigned long long)n,
			 kinds[kind].what, n > 1 ? "s" : "", kinds[kind].after, cpu);
	else
		snprintf(msg, sizeof(msg), "%llu %s%s%s", (unsigned long long)n, kinds[kind].what,
			 n > 1 ? "s" : "", kinds[kind].after);
	dtrace_dropdata_t dd = { .kind = kind, .cpu = cpu, .drops = n, .tag = kinds[kind].tag,
				 .msg = msg };
	if (dtp->cb_aborted)
		return;
	if (dtp->drop_fn != NULL && handled(dtp, dtp->drop_fn(dtp, &dd, dtp->drop_arg)))
		return;
	emit(dtp, NULL, &dd);
}
