/*
 * The consume loop: the ring buffer is read at the switch rate (or when
 * a record asks for a wake-up), drops are reported as DTrace reports
 * them, and END runs when tracing stops.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/abi.h"
#include "base/core.h"
#include "base/descs.h"
#include "base/maps.h"
#include "base/proc.h"
#include "base/rdesc.h"
#include "bpf/runtime.h"
#include "consumer/agg.h"
#include "consumer/bufring.h"
#include "consumer/parts.h"
#include "consumer/consume.h"
#include "consumer/consumer.h"
#include "consumer/flow.h"
#include "consumer/freopen.h"
#include "consumer/oformat.h"
#include "consumer/printf.h"
#include "consumer/proc_follow.h"
#include "consumer/rec_decode.h"
#include "consumer/report.h"
#include "consumer/spec.h"
#include "consumer/symbolize.h"
#include "consumer/waitset.h"

/*
 * One pass over the ring reads at most a ring's worth (bufsize): records
 * that keep coming (dtrace tracing its own writes, say) must not keep the
 * consumer from its loop, where it sees signals, exit() and its targets.
 * Returning a negative value stops libbpf after this record.
 */
#define PASS_OVER (-EAGAIN)

static int on_record(void *ctx, void *data, size_t size)
{
	struct dt_consumer *cs = ctx;
	struct dt_runtime *rt = cs->rt;
	const struct dt_rec_hdr *h = data;

	if (size >= sizeof(*h) + 8 && h->desc == DT_REC_PROC_SEEN) {
		uint64_t pid;
		memcpy(&pid, h + 1, sizeof(pid));
		dt_syms_note_proc(cs, (pid_t)pid);
		return 0;
	}
	int rc = dt_bufring_record(cs, data, size);

	if (rc < 0)
		return rc;
	rt->pass_bytes += DT_ALIGN(size, 8) + 8;	/* with the ring's record header */
	if (rt->pass_bytes >= (uint64_t)cs->core->opts.bufsize) {
		rt->pass_full = true;
		return PASS_OVER;
	}
	return 0;
}

int dt_consume_init(struct dt_consumer *cs)
{
	struct dt_runtime *rt = cs->rt;
	struct bpf_map *m = bpf_object__find_map_by_name(rt->obj, MAP_RING);

	if (m == NULL)
		return dt_set_error(cs->core, -ENOENT, "ring buffer map missing");
	rt->ring = ring_buffer__new(bpf_map__fd(m), on_record, cs, NULL);
	if (rt->ring == NULL)
		return dt_set_error(cs->core, -errno, "failed to set up the ring buffer: %s",
				    strerror(errno));
	rt->drops_seen = calloc((size_t)rt->ps.ncpus * 4, sizeof(uint64_t));
	if (rt->drops_seen == NULL)
		return dt_set_error(cs->core, -ENOMEM, "out of memory");
	int rc0 = dt_waitset_open(cs);
	if (rc0 < 0)
		return rc0;
	/* Stacks and symbols in aggregations resolve through the handle's symbolizer. */
	const struct dt_pf_syms *syms = dt_syms(cs);
	if (syms == NULL)
		return dt_set_error(cs->core, -ENOMEM, "out of memory");
	int rc = dt_agg_set_syms(cs, syms);
	if (rc < 0)
		return rc;
	/* A -p process's mappings from the start (a -c one's again when it starts). */
	dt_syms_track_targets(cs, 0);
	return dt_spec_init(cs);
}

void dt_consume_close(struct dt_consumer *cs)
{
	dt_freopen_fini(cs);
	dt_waitset_close(cs);
	dt_bufring_free(cs);
	dt_parts_free(cs);
	dt_flow_free(cs);
	if (cs->rt && cs->rt->ring) {
		ring_buffer__free(cs->rt->ring);
		cs->rt->ring = NULL;
	}
	dt_spec_close(cs);
}

void dt_consume_fini(struct dt_consumer *cs)
{
	dt_sb_free(&cs->outbuf);
	dt_rec_decode_free(cs);
	dt_oformat_fini(cs);
}

void dt_report_drops(struct dt_consumer *cs)
{
	struct dt_runtime *rt = cs->rt;

	if (rt == NULL || rt->cpuinfo_fd < 0 || rt->drops_seen == NULL)
		return;
	size_t vsz = DT_ALIGN(CPU_INFO_SIZE, 8);
	uint8_t *vals = calloc((size_t)rt->ps.ncpus, vsz);
	uint32_t key = 0;
	if (vals == NULL || bpf_map_lookup_elem(rt->cpuinfo_fd, &key, vals) < 0) {
		free(vals);
		return;
	}
	uint64_t dyn = 0;
	for (int c = 0; c < rt->ps.ncpus; c++) {
		const uint8_t *v = vals + (size_t)c * vsz;
		uint64_t ring = 0, d = 0, agg = 0, nested;
		/* Nested drops in the CPU's dt_cpuinfo, the others in .bss (cg_count_drop). */
		if (rt->drops != NULL && (size_t)c < rt->drops_cpus) {
			volatile const uint64_t *cd = rt->drops + (size_t)c * (BSS_DROPS_STRIDE / 8);
			ring = cd[CPU_RING_DROPS / 8];
			d = cd[CPU_DYN_DROPS / 8];
			agg = cd[CPU_AGG_DROPS / 8];
		}
		memcpy(&nested, v + CPU_NESTED_DROPS, 8);
		uint64_t *seen = rt->drops_seen + (size_t)c * 4;
		if (ring > seen[0])
			dt_report_drop(cs, DTRACE_DROP_PRINCIPAL, c, ring - seen[0]);
		if (agg > seen[2])
			dt_report_drop(cs, DTRACE_DROP_AGGREGATION, c, agg - seen[2]);
		if (nested > seen[3])
			dt_report_drop(cs, DTRACE_DROP_NESTED, c, nested - seen[3]);
		seen[3] = nested;
		if (d > seen[1])
			dyn += d - seen[1];
		seen[0] = ring;
		seen[1] = d;
		seen[2] = agg;
	}
	if (dyn > 0)
		dt_report_drop(cs, DTRACE_DROP_DYNAMIC, -1, dyn);
	free(vals);
}

int dt_consume_pending(struct dt_consumer *cs)
{
	struct dt_runtime *rt = cs->rt;
	int rc = 0;

	if (rt == NULL || rt->ring == NULL)
		return 0;
	rt->pass_bytes = 0;
	rt->pass_full = false;
	rc = ring_buffer__consume(rt->ring);
	if (rt->pass_full && rc == PASS_OVER)
		rc = 0;
	/* DTrace's flowindent looks for a return's next record within one pass. */
	dt_flow_release(cs, NULL);
	if (cs->fp != NULL)
		fflush(cs->fp);
	dt_report_drops(cs);
	dt_spec_pass(cs);
	dt_flow_release(cs, NULL);
	if (cs->fp != NULL)
		fflush(cs->fp);
	if (cs->cb_aborted)
		return dt_set_error(cs->core, -ECANCELED, "stopped by a callback");
	return rc < 0 ? rc : 0;
}

void dt_consume_sleep(struct dt_consumer *cs)
{
	struct dt_runtime *rt = cs->rt;
	int64_t ms = cs->core->opts.switchrate / 1000000;

	/* Nothing to wait for once exit() has been seen (e.g. in BEGIN), or more is waiting. */
	if (rt == NULL || rt->ring == NULL || cs->exited || rt->pass_full)
		return;
	/* Drained speculations are freed for reuse when the ring is read. */
	if (dt_spec_used(cs) && cs->core->opts.cleanrate / 1000000 < ms)
		ms = cs->core->opts.cleanrate / 1000000;
	if (ms <= 0)
		ms = 1;
	if (ms > 1000)
		ms = 1000;
	/* Read the mappings of -c/-p processes often enough to know them after they exit. */
	if (cs->descs->uses_usyms && ms > DT_SYMS_TRACK_MS)
		ms = DT_SYMS_TRACK_MS;
	/* Data, a forced wake-up, a traced process exiting, a signal or the timeout. */
	dt_waitset_wait(cs, (int)ms);
}

enum dtrace_workstatus dt_consume_work(struct dt_consumer *cs)
{
	if (cs->rt == NULL)
		return DTRACE_WORKSTATUS_ERROR;
	if (dt_consume_pending(cs) < 0)
		return DTRACE_WORKSTATUS_ERROR;
	dt_proc_check(cs);
	if (cs->exited || cs->stopped)
		return DTRACE_WORKSTATUS_DONE;
	/* exit() whose record was dropped, or bufpolicy=fill with a full buffer. */
	if (cs->rt->state != NULL && *cs->rt->state == DT_STATE_DRAINING)
		return DTRACE_WORKSTATUS_DONE;
	/* As DTrace: with -c/-p processes, done once all of them have ended. */
	if (dt_proc_all_ended(cs->procs))
		return DTRACE_WORKSTATUS_DONE;
	return DTRACE_WORKSTATUS_OKAY;
}

int dt_consume_stop(struct dt_consumer *cs)
{
	struct dt_runtime *rt = cs->rt;

	if (rt == NULL || cs->stopped)
		return 0;
	/* Close the gate, drain what is left (no more comes), then END. */
	*rt->state = DT_STATE_DRAINING;
	do
		dt_consume_pending(cs);
	while (rt->pass_full && !cs->cb_aborted);
	dt_bufring_flush(cs);
	dt_flow_release(cs, NULL);
	int rc = dt_run_consumer_program(cs->core, rt->ps.end);
	do
		dt_consume_pending(cs);
	while (rt->pass_full && !cs->cb_aborted);
	dt_bufring_flush(cs);
	dt_flow_release(cs, NULL);
	cs->stopped = true;
	return rc;
}

int dt_consume_exited(const struct dt_consumer *cs, int *statusp)
{
	if (statusp)
		*statusp = cs->exit_status;
	return cs->exited;
}

void dt_proc_check(struct dt_consumer *cs)
{
	dt_syms_track_targets(cs, DT_SYMS_TRACK_MS);
	dt_proc_follow_events(cs);
	dt_proc_poll(cs->procs);
}
