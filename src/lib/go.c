/*
 * dtrace_go(): build the object, link it with the run-time library, load
 * and attach it, and run BEGIN; dt_runtime_destroy() undoes all of it.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/abi.h"
#include "base/maps.h"
#include "base/object.h"
#include "base/probe.h"
#include "base/provider.h"
#include "base/rdesc.h"
#include "bpf/elf_writer.h"
#include "bpf/link.h"
#include "bpf/load.h"
#include "bpf/runtime.h"
#include "compiler/cg.h"
#include "compiler/cg_vtime.h"
#include "compiler/chain_plan.h"
#include "compiler/program.h"
#include "consumer/consume.h"
#include "consumer/oformat.h"
#include "lib/agg_outer.h"
#include "lib/chain_fill.h"
#include "lib/curcpu.h"
#include "lib/dt_impl.h"
#include "lib/map_limits.h"

static int fill_probe_map(dtrace_hdl_t *dtp, struct dt_runtime *rt)
{
	struct bpf_map *m = bpf_object__find_map_by_name(rt->obj, MAP_PROBES);
	char val[DT_PROBE_MAP_VALUE];

	if (m == NULL)
		return 0;
	for (size_t i = 0; i < dtp->cc->stmts.n; i++) {
		struct dt_stmt *st = dtp->cc->stmts.v[i];
		for (size_t j = 0; j < st->probes.n; j++) {
			struct dt_probe *prp = st->probes.v[j];
			memset(val, 0, sizeof(val));
			for (int f = 0; f < 4; f++) {
				uint32_t off = dt_probe_field_offset(f);
				uint32_t max = (f == 3 ? DT_PROBE_MAP_VALUE : dt_probe_field_offset(f + 1)) - off;
				snprintf(val + off, max, "%s", prp->desc[f]);
			}
			uint32_t key = prp->id;
			if (bpf_map_update_elem(bpf_map__fd(m), &key, val, BPF_ANY) < 0)
				return dt_set_error(dtp->core, -errno, "failed to fill the probe map: %s",
						    strerror(errno));
		}
	}
	return 0;
}

/* Run a BEGIN or END program once, in the consumer's context. */
/* The program that keeps vtimestamp (compiler/cg_vtime.c), if there is one. */
static int attach_vtime(dtrace_hdl_t *dtp, struct dt_runtime *rt)
{
	struct bpf_program *p = bpf_object__find_program_by_name(rt->obj, DT_VTIME_PROG);

	if (p == NULL)
		return 0;
	rt->vtime_link = bpf_program__attach_raw_tracepoint(p, DT_VTIME_TP);
	if (rt->vtime_link == NULL)
		return dt_set_error(dtp->core, -errno, "failed to attach vtimestamp's program to the %s "
				    "raw tracepoint: %s", DT_VTIME_TP, strerror(errno));
	return 0;
}

/* The kernel's limit on the functions of one BPF program (the verifier's). */
#define BPF_MAX_SUBPROGS 256

/* Open the linked object and make each program what its mechanism needs. */
static int open_object(dtrace_hdl_t *dtp, struct dt_runtime *rt, const void *linked,
		       size_t linkedsz)
{
	char err[1024];
	int rc = bo_open(linked, linkedsz, &rt->obj, err, sizeof(err));

	if (rc < 0)
		return dt_set_error(dtp->core, rc, "%s", err);
	for (size_t i = 0; i < rt->ps.groups.n; i++) {
		struct dt_group *g = rt->ps.groups.v[i];
		if (g->fn == NULL || g->mech->prepare == NULL)
			continue;
		struct bpf_program *p = bpf_object__find_program_by_name(rt->obj, g->fn->name);
		if (p != NULL && (rc = g->mech->prepare(dtp->reg, g, p)) < 0)
			return rc;
	}
	if ((rc = dt_agg_outer_prepare(dtp, rt)) < 0)
		return rc;
	return dt_chain_prepare(dtp, rt);
}

/* The first verifier log buffer of each program; bpflogsize bounds the retry. */
#define LOG_SIZE_FIRST (256 * 1024)

static int load(dtrace_hdl_t *dtp, struct dt_runtime *rt)
{
	void *elf = NULL, *linked = NULL;
	size_t elfsz = 0, linkedsz = 0;
	size_t log_max = dtp->core->opts.bpflogsize > 0 ? (size_t)dtp->core->opts.bpflogsize : LOG_SIZE_FIRST;
	size_t log_size = log_max < LOG_SIZE_FIRST ? log_max : LOG_SIZE_FIRST;
	struct bpf_program *failed = NULL;
	bool log_cut = false;
	char err[1024];
	int rc;

	rc = bo_write_elf(dtp->cc->obj, &elf, &elfsz, err, sizeof(err));
	if (rc == 0)
		rc = bo_link(elf, elfsz, &linked, &linkedsz, err, sizeof(err));
	free(elf);
	if (rc < 0) {
		free(linked);
		return dt_set_error(dtp->core, rc, "%s", err);
	}
	/* A refused program whose log did not fit: again, with bpflogsize for its log. */
	for (;;) {
		if ((rc = open_object(dtp, rt, linked, linkedsz)) < 0) {
			free(linked);
			return rc;
		}
		rc = bo_load_logged(rt->obj, dtp->cc->obj->source_name, log_size,
				    dtp->core->opts.bpflog ? stderr : NULL, &failed, &log_cut, err,
				    sizeof(err));
		dt_agg_outer_release(rt);
		if (rc == 0 || !log_cut || log_size >= log_max)
			break;
		bo_close(rt->obj);
		rt->obj = NULL;
		log_size = log_max;
	}
	free(linked);
	if (rc < 0) {
		/* Name the probe whose program failed, as DTrace does. */
		const char *what = "the program";
		char desc[512];
		size_t nclauses = 0;
		for (size_t i = 0; failed && i < rt->ps.groups.n; i++) {
			struct dt_group *g = rt->ps.groups.v[i];
			/* The group's program, or one of its copies (<name>_<k>) or helpers. */
			const char *pn = bpf_program__name(failed);
			size_t len = g->fn ? strlen(g->fn->name) : 0;
			if (g->fn && strncmp(pn, g->fn->name, len) == 0 &&
			    (pn[len] == '\0' || pn[len] == '_')) {
				dt_probe_fullname(g->probes.v[0], desc, sizeof(desc));
				what = desc;
				nclauses = g->stmts.n;
			}
		}
		/* Each clause is a BPF function of its probe's program. */
		if (nclauses > 0 && strstr(err, "too many subprograms") != NULL)
			return dt_set_error(dtp->core, -E2BIG, "failed to enable '%s': %zu clauses: the "
					    "kernel allows at most %d BPF functions in one program "
					    "(one per clause of a probe, and the run-time functions "
					    "they call)", what, nclauses, BPF_MAX_SUBPROGS);
		/*
		 * Clauses are spread over chained programs by the maps they use
		 * (cg_chain.c): one clause (with the ERROR clauses) used too many.
		 */
		if (nclauses > 0 && strstr(err, "number of maps per program") != NULL)
			return dt_set_error(dtp->core, -E2BIG, "failed to enable '%s': a clause uses "
					    "more maps than the kernel allows in one BPF program (%d): "
					    "each thread-local and associative array is a map, and so "
					    "are aggregations (or, past 32 in a clause, each key and "
					    "value size of them); spread them over several clauses for "
					    "the probe", what,
					    DT_BPF_MAX_USED_MAPS);
		/* No program refused: a map was (ENOMEM, E2BIG ... from its size). */
		int mrc;
		if (failed == NULL && rc != -EPERM && (mrc = dt_map_refused_error(dtp, rt->obj, rc)) < 0)
			return mrc;
		if (rc == -EPERM)
			return dt_set_error(dtp->core, rc, "failed to enable '%s': %s (the kernel refused "
					    "BPF: run as root, or with CAP_BPF and CAP_PERFMON; in a "
					    "container, seccomp or a security module may block bpf())",
					    what, err);
		return dt_set_error(dtp->core, rc, "failed to enable '%s': %s", what, err);
	}
	return 0;
}

/*
 * A buffer no record fits in is refused, as DTrace refuses it; with
 * bufpolicy=fill, END's records must fit too (DTrace keeps room for them).
 */
static int dt_check_bufsize(struct dtrace_hdl *dtp)
{
	if (dtp->core->opts.bufsize <= 0)
		return dt_set_error(dtp->core, -EINVAL, "Enabling exceeds size of buffer");
	/* The ring is a power of two the kernel caps at 2g: say so rather than shrink it. */
	if (dtp->core->opts.bufsize > (INT64_C(1) << 31))
		return dt_set_error(dtp->core, -E2BIG,
				    "bufsize %lld is larger than the largest BPF ring buffer (2g)",
				    (long long)dtp->core->opts.bufsize);
	/* END first: with bufpolicy=fill its records must fit (DTrace keeps room for them). */
	for (size_t i = 0; dtp->core->opts.bufpolicy == DT_BUFPOLICY_FILL && i < dtp->cc->stmts.n; i++) {
		struct dt_stmt *st = dtp->cc->stmts.v[i];
		if (st->rdesc == NULL ||
		    dtp->core->opts.bufsize >= 8 + (((int64_t)st->rdesc->size + 7) & ~(int64_t)7))
			continue;
		for (size_t j = 0; j < st->probes.n; j++) {
			struct dt_probe *prp = st->probes.v[j];
			if (strcmp(prp->desc[0], "dtrace") == 0 && strcmp(prp->desc[3], "END") == 0)
				return dt_set_error(dtp->core, -ENOSPC,
						    "END enablings exceed size of principal buffer");
		}
	}
	/*
	 * As DTrace: the buffer must hold the largest record an enabled clause
	 * writes, with the ring's own 8-byte header.
	 */
	for (size_t i = 0; i < dtp->cc->stmts.n; i++) {
		const struct dt_stmt *st = dtp->cc->stmts.v[i];
		if (st->rdesc != NULL &&
		    dtp->core->opts.bufsize < 8 + (((int64_t)st->rdesc->size + 7) & ~(int64_t)7))
			return dt_set_error(dtp->core, -ENOSPC, "Enabling exceeds size of buffer");
	}
	return 0;
}

/* -x cpu=N: N must be a CPU that is online, or the probes would never fire. */
static int dt_check_cpu(struct dtrace_hdl *dtp)
{
	long long cpu = dtp->core->opts.cpu;

	if (cpu < 0)
		return 0;
	char *online = dt_read_file("/sys/devices/system/cpu/online", NULL);
	bool ok = online != NULL && dt_cpulist_has(online, cpu);
	if (!ok) {
		char *nl = online != NULL ? strchr(online, '\n') : NULL;
		if (nl != NULL)
			*nl = '\0';
		dt_set_error(dtp->core, -EINVAL, "cpu %lld is not online (online: %s)", cpu,
			     online != NULL ? online : "unknown");
	}
	free(online);
	return ok ? 0 : -EINVAL;
}

int dtrace_go(dtrace_hdl_t *dtp)
{
	struct dt_runtime *rt;
	int rc;

	if (dtp->core->active)
		return dt_set_error(dtp->core, -EBUSY, "tracing is already active");
	if (dtp->cc->obj == NULL || dtp->cc->stmts.n == 0)
		return dt_set_error(dtp->core, -EINVAL, "no probes specified");
	/* system(), raise(), stop(), chill(), freopen(), copyout() ... only with -w. */
	for (size_t i = 0; i < dtp->cc->stmts.n && !dtp->core->opts.destructive; i++)
		if (dtp->cc->stmts.v[i]->destructive)
			return dt_set_error(dtp->core, -EPERM, "Destructive actions not allowed");
	if ((rc = dtrace_preflight(dtp)) < 0)
		return rc;
	if ((rc = dt_oformat_check(dtp->cons)) < 0)
		return rc;
	if ((rc = dt_check_cpu(dtp)) < 0 || (rc = dt_check_bufsize(dtp)) < 0)
		return rc;
	/*
	 * lockmem: the locked-memory limit DTrace sets before creating its maps
	 * (kernels that charge BPF memory to the cgroup do not consult it).
	 */
	if (dtp->core->opts.lockmem >= 0) {
		rlim_t v = dtp->core->opts.lockmem == INT64_MAX ? RLIM_INFINITY : (rlim_t)dtp->core->opts.lockmem;
		struct rlimit lim = { v, v };
		if (setrlimit(RLIMIT_MEMLOCK, &lim) < 0)
			dt_dprintf(dtp->core, "cannot set the locked-memory limit to %lld: %s\n",
				   (long long)dtp->core->opts.lockmem, strerror(errno));
	}
	rt = calloc(1, sizeof(*rt));
	if (rt == NULL)
		return dt_set_error(dtp->core, -ENOMEM, "out of memory");
	dtp->cons->rt = rt;
	rt->cpuinfo_fd = -1;
	if ((rc = dt_cg_programs(dtp->cc, &rt->ps)) < 0 || (rc = load(dtp, rt)) < 0)
		goto fail;
	for (size_t i = 0; i < rt->ps.groups.n; i++) {
		struct dt_group *g = rt->ps.groups.v[i];
		if (g->fn == NULL)
			continue;
		g->prog = bpf_object__find_program_by_name(rt->obj, g->fn->name);
		if (g->prog == NULL) {
			rc = dt_set_error(dtp->core, -ENOENT, "program %s missing after load", g->fn->name);
			goto fail;
		}
	}
	size_t sz;
	rt->state = bo_bss_var(rt->obj, "dt_state", &sz);
	rt->walloff = bo_bss_var(rt->obj, "dt_walloff", &sz);
	rt->wakemark = bo_bss_var(rt->obj, "dt_wakemark", &sz);
	rt->drops = bo_bss_var(rt->obj, "dt_drops", &sz);
	rt->drops_cpus = sz / BSS_DROPS_STRIDE;
	if (rt->state == NULL || rt->walloff == NULL || rt->wakemark == NULL || rt->drops == NULL) {
		rc = dt_set_error(dtp->core, -ENOENT, "global data of the BPF object not found");
		goto fail;
	}
	struct timespec real, mono;
	clock_gettime(CLOCK_REALTIME, &real);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	*rt->walloff = (int64_t)(real.tv_sec - mono.tv_sec) * 1000000000LL +
		       (real.tv_nsec - mono.tv_nsec);
	*rt->wakemark = dt_cg_wakemark(dtp->cc, &rt->ps);
	struct bpf_map *ci = bpf_object__find_map_by_name(rt->obj, MAP_CPUINFO);
	rt->cpuinfo_fd = ci ? bpf_map__fd(ci) : -1;
	if ((rc = fill_probe_map(dtp, rt)) < 0 || (rc = dt_curcpu_fill(dtp, rt->obj)) < 0 ||
	    (rc = dt_chain_fill(dtp, rt)) < 0 || (rc = dt_agg_outer_fill(dtp, rt)) < 0)
		goto fail;
	for (size_t i = 0; i < rt->ps.groups.n; i++) {
		struct dt_group *g = rt->ps.groups.v[i];
		if (g->mech->fill_maps && (rc = g->mech->fill_maps(dtp->reg, g, rt->obj)) < 0)
			goto fail;
	}
	if ((rc = dt_consume_init(dtp->cons)) < 0)
		goto fail;
	/* vtimestamp's bookkeeping first: it must see every switch of a thread it knows. */
	if ((rc = attach_vtime(dtp, rt)) < 0)
		goto fail;
	/* Attach while the gate is closed: nothing runs before BEGIN. */
	for (size_t i = 0; i < rt->ps.groups.n; i++) {
		struct dt_group *g = rt->ps.groups.v[i];
		if (g->prog == NULL || g->mech->by_consumer || g->mech->attach == NULL)
			continue;
		if ((rc = g->mech->attach(dtp->reg, g)) < 0)
			goto fail;
	}
	dtp->core->active = true;
	if ((rc = dt_run_consumer_program(dtp->core, rt->ps.begin)) < 0)
		goto fail;
	if (*rt->state == DT_STATE_INACTIVE)
		*rt->state = DT_STATE_ACTIVE;
	/*
	 * BEGIN's output comes first (its records lead the ring buffer); its
	 * actions (system() ...) run with the other probes enabled, as in
	 * DTrace.
	 */
	dt_consume_pending(dtp->cons);
	return 0;
fail:
	dtp->core->active = false;
	dt_runtime_destroy(dtp);
	return rc;
}

void dt_runtime_destroy(struct dtrace_hdl *dtp)
{
	struct dt_runtime *rt = dtp->cons->rt;

	if (rt == NULL)
		return;
	if (rt->state != NULL)
		*rt->state = DT_STATE_DRAINING;
	for (size_t i = 0; i < rt->ps.groups.n; i++) {
		struct dt_group *g = rt->ps.groups.v[i];
		for (size_t j = 0; j < g->links.n; j++)
			bpf_link__destroy(g->links.v[j]);
		dt_vec_free(&g->links);
		if (g->mech && g->mech->detach)
			g->mech->detach(dtp->reg, g);
		dt_vec_free(&g->fds);
		dt_vec_free(&g->stmts);
		dt_vec_free(&g->probes);
	}
	dt_vec_free(&rt->ps.groups);
	bpf_link__destroy(rt->vtime_link);
	rt->vtime_link = NULL;
	dt_consume_close(dtp->cons);
	if (rt->obj != NULL)
		bo_close(rt->obj);
	dt_agg_outer_release(rt);
	free(rt->drops_seen);
	free(rt);
	dtp->cons->rt = NULL;
}
