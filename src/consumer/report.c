/* Faults, consumer errors and drops: callback, stderr, JSON (report.h). */
#include "consumer/report.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/abi.h"
#include "base/core.h"
#include "base/descs.h"
#include "base/probe.h"
#include "base/rdesc.h"
#include "consumer/consumer.h"
#include "consumer/json_rec.h"
#include "consumer/rec_decode.h"

bool dt_oformat_json(const struct dt_consumer *cs)
{
	return cs->core->opts.oformat != NULL && strcmp(cs->core->opts.oformat, "json") == 0;
}

void dt_json_line(struct dt_consumer *cs, struct dt_strbuf *sb)
{
	if (cs->fp != NULL && sb->len > 0 && !sb->oom) {
		dt_sb_putc(sb, '\n');
		fwrite(sb->s, 1, sb->len, cs->fp);
	}
	dt_sb_reset(sb);
	sb->oom = false;
}

static bool handled(struct dt_consumer *cs, int rc)
{
	if (rc == DTRACE_CONSUME_ABORT)
		cs->cb_aborted = true;
	return rc != DTRACE_CONSUME_NEXT;
}

static void emit(struct dt_consumer *cs, const dtrace_errdata_t *ed, const dtrace_dropdata_t *dd)
{
	if (cs->fp != NULL)
		fflush(cs->fp);
	if (dd != NULL) {
		fprintf(stderr, "dtrace: ");
		if (cs->core->opts.droptags)
			fprintf(stderr, "[%s] ", dd->tag);
		fprintf(stderr, "%s\n", dd->msg);
	} else {
		fprintf(stderr, "dtrace: %s\n", ed->msg);
	}
	if (dt_oformat_json(cs) && cs->fp != NULL) {
		struct dt_strbuf sb;

		dt_sb_init(&sb);
		if (dd != NULL)
			dt_json_drop(&sb, dd);
		else
			dt_json_error(&sb, ed);
		dt_json_line(cs, &sb);
		dt_sb_free(&sb);
		fflush(cs->fp);
	}
}

static void report(struct dt_consumer *cs, const dtrace_errdata_t *ed)
{
	if (cs->cb_aborted)
		return;
	if (cs->err_fn != NULL && handled(cs, cs->err_fn(cs->hdl, ed, cs->err_arg)))
		return;
	emit(cs, ed, NULL);
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
static uint32_t clause_number(struct dt_consumer *cs, uint32_t stmt, struct dt_probe *prp)
{
	return dt_cdesc_number((const struct dt_cdesc *const *)cs->descs->cdescs.v, cs->descs->cdescs.n, stmt,
			       prp);
}

void dt_report_liberr(struct dt_consumer *cs, const void *rec, const char *fmt, ...)
{
	const struct dt_rec_hdr *h = rec;
	const struct dt_rdesc *rd = h->desc < cs->descs->rdescs.n ? cs->descs->rdescs.v[h->desc] : NULL;
	uint32_t stmt = rd != NULL && !rd->internal ? rd->clause : 0;
	dtrace_probeinfo_t pi;
	char what[1024], msg[1400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	dt_rec_probeinfo(cs, h->prid, &pi);
	snprintf(msg, sizeof(msg), "error in dt_clause_%u for probe ID %u (%s:%s:%s:%s): %s",
		 clause_number(cs, stmt, dt_probe_by_id(cs->reg, h->prid)), h->prid, pi.provider,
		 pi.module, pi.function, pi.name, what);
	/* Not a fault: no probe, as for the consumer's other errors. */
	dtrace_errdata_t ed = { .cpu = h->cpu, .timestamp = h->timestamp, .msg = msg };
	report(cs, &ed);
}

void dt_report_fault(struct dt_consumer *cs, const void *rec)
{
	const struct dt_rec_hdr *h = rec;
	const struct dt_rec_error *e = (const void *)((const char *)rec + DT_REC_DATA_OFF);
	struct dt_probe *prp = dt_probe_by_id(cs->reg, h->prid);
	dtrace_probeinfo_t pi;
	char details[64] = "", msg[1024];

	if (e->fault == DT_FLT_BADADDR || e->fault == DT_FLT_BADALIGN ||
	    e->fault == DT_FLT_BADSTACK || e->fault == DT_FLT_BADSIZE)
		snprintf(details, sizeof(details), " (0x%llx)", (unsigned long long)e->addr);
	else if (e->fault == DT_FLT_BADINDEX)
		snprintf(details, sizeof(details), " (%lld)", (long long)e->addr);
	uint32_t clause = clause_number(cs, e->stmt, prp);
	dt_rec_probeinfo(cs, h->prid, &pi);
	snprintf(msg, sizeof(msg),
		 "error in dt_clause_%u for probe ID %u (%s:%s:%s:%s): %s%s at BPF pc %u", clause,
		 h->prid, pi.provider, pi.module, pi.function, pi.name, fault_str(e->fault),
		 details, e->pc);
	dtrace_errdata_t ed = {
		.probe = &pi, .cpu = h->cpu, .timestamp = h->timestamp, .fault = (int)e->fault,
		.fault_name = fault_str(e->fault), .addr = e->addr, .clause = clause, .pc = e->pc,
		.msg = msg,
	};
	report(cs, &ed);
}

void dt_report_error(struct dt_consumer *cs, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	dtrace_errdata_t ed = { .msg = msg };
	report(cs, &ed);
}

void dt_report_drop(struct dt_consumer *cs, dtrace_dropkind_t kind, int cpu, uint64_t n)
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
	if (cs->cb_aborted)
		return;
	if (cs->drop_fn != NULL && handled(cs, cs->drop_fn(cs->hdl, &dd, cs->drop_arg)))
		return;
	emit(cs, NULL, &dd);
}
