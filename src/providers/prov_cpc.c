/*
 * The cpc provider: cpc:::<event>-<mode>-<count> fires on a CPU each time
 * `count` events of its kind have happened there in the privilege mode
 * it names (cpc_events.h).  Each probe is a perf event per online CPU
 * that samples every `count` events, with a BPF program attached; arg0 is
 * the kernel program counter and arg1 the user one (perf_pc.h), as for
 * profile.  args[] are not typed (DTrace gives cpc probes none).
 *
 * As the profile provider, cpc lists a probe per event this machine can
 * count (<event>-all-1000000000) and makes any other a description
 * names.  A description naming an event the machine cannot count (a
 * hardware event where the CPU has no PMU the kernel can use, as in most
 * virtual machines) makes its probe too, which fails to enable with the
 * kernel's reason rather than match nothing.
 */
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/core.h"
#include "base/pattr.h"
#include "base/probe.h"
#include "base/provider.h"
#include "compiler/cg.h"
#include "providers/attach.h"
#include "providers/cpc_events.h"
#include "providers/perf_pc.h"
#include "providers/providers.h"

#define LISTED_COUNT "1000000000"	/* DTrace's count in the probes it lists */

static int open_on(const struct cpc_spec *spec, int cpu)
{
	struct perf_event_attr attr;

	dt_cpc_attr(spec, &attr);
	return (int)syscall(__NR_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/* The first CPU an event opens on (ENODEV: offline), or -errno. */
static int try_open(const struct cpc_spec *spec)
{
	int ncpus = libbpf_num_possible_cpus(), err = ENODEV;

	for (int cpu = 0; cpu < ncpus && err == ENODEV; cpu++) {
		int fd = open_on(spec, cpu);
		if (fd >= 0) {
			close(fd);
			return cpu;
		}
		err = errno;
	}
	return -err;
}

static int add(struct dt_registry *reg, const char *name, const struct cpc_spec *spec)
{
	struct cpc_spec *s = dt_arena_zalloc(&reg->core->arena, sizeof(*s));

	if (s == NULL)
		return -ENOMEM;
	*s = *spec;
	return dt_probe_add(reg, &dt_prov_cpc, "", "", name, 0, s) ? 0 : -ENOMEM;
}

/* A probe for each event that opens here, as DTrace lists them. */
static int populate(struct dt_registry *reg)
{
	for (size_t i = 0; i < dt_cpc_nevents(); i++) {
		char dname[64], name[96];
		struct cpc_spec spec;
		dt_cpc_dname(dt_cpc_event_at(i), dname, sizeof(dname));
		snprintf(name, sizeof(name), "%s-all-" LISTED_COUNT, dname);
		if (!dt_cpc_parse(name, &spec) || try_open(&spec) < 0)
			continue;
		int rc = add(reg, name, &spec);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static bool empty(const char *s)
{
	return s == NULL || s[0] == '\0';
}

/* As DTrace: a description of exactly cpc:::<name> makes the probe it names. */
static int provide(struct dt_registry *reg, const struct dt_pdesc *pd)
{
	struct cpc_spec spec;

	if (pd->prov == NULL || strcmp(pd->prov, "cpc") != 0 || !empty(pd->mod) ||
	    !empty(pd->func) || empty(pd->name) || !dt_cpc_parse(pd->name, &spec))
		return 0;
	return add(reg, pd->name, &spec);
}

static const char *mech_class(const struct dt_probe *prp)
{
	(void)prp;
	return "perf";
}

static void prologue(struct dt_cg *cg, struct dt_group *g, int dctx_off, uint32_t args, int skip)
{
	(void)g;
	(void)skip;
	cg_emit(cg, I_MOV64_REG(BPF_R1, BPF_R6));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_get_attach_cookie));
	cg_emit(cg, I_STX(BPF_W, BPF_FP, BPF_R0, dctx_off + DCTX_PRID));
	dt_perf_pc_args(cg, dctx_off, args);
}

/* Why an event cannot be counted, in words a sysadmin can act on. */
static int cannot_count(struct dt_registry *reg, const struct dt_probe *prp, int err)
{
	const struct cpc_spec *spec = prp->priv;
	char dname[64];
	const char *why = "";

	dt_cpc_dname(spec->ev, dname, sizeof(dname));
	if (spec->ev->type != PERF_TYPE_SOFTWARE && (err == ENOENT || err == EOPNOTSUPP))
		why = ": this CPU has no performance monitoring unit the kernel can use for it "
		      "(virtual machines often have none)";
	return dt_set_error(reg->core, -err, "cannot enable cpc:::%s: the %s event %s cannot be counted "
			    "on this machine: perf_event_open: %s%s", prp->desc[3],
			    dt_cpc_kind(spec->ev), dname, strerror(err), why);
}

static int attach(struct dt_registry *reg, struct dt_group *g)
{
	int ncpus = libbpf_num_possible_cpus();

	for (size_t i = 0; i < g->probes.n; i++) {
		const struct dt_probe *prp = g->probes.v[i];
		const struct cpc_spec *spec = prp->priv;
		/* Every online CPU, or only the one the cpu option names. */
		int first = reg->core->opts.cpu >= 0 ? (int)reg->core->opts.cpu : 0;
		int last = reg->core->opts.cpu >= 0 ? first + 1 : ncpus;
		size_t opened = 0;
		for (int cpu = first; cpu < last; cpu++) {
			int fd = open_on(spec, cpu);
			if (fd < 0 && errno == ENODEV && reg->core->opts.cpu < 0)
				continue;	/* offline */
			if (fd < 0)
				return cannot_count(reg, prp, errno);
			LIBBPF_OPTS(bpf_perf_event_opts, opts, .bpf_cookie = prp->id);
			struct bpf_link *l = bpf_program__attach_perf_event_opts(g->prog, fd, &opts);
			if (l == NULL) {
				int err = errno;
				close(fd);
				errno = err;
			}
			int rc = dt_group_link(reg, g, l, "failed to attach cpc:::%s on CPU %d",
					       prp->desc[3], cpu);
			if (rc < 0)
				return rc;
			opened++;
		}
		if (opened == 0)
			return cannot_count(reg, prp, ENODEV);
	}
	return 0;
}

static const struct dt_mech mech_perf = {
	.name = "cpc",
	.section = "perf_event",
	.gated = true,
	.cookie_is_prid = true,
	.cg_prologue = prologue,
	.attach = attach,
};

/* An event the machine cannot count fails here, before anything is loaded. */
static const struct dt_mech *choose(struct dt_registry *reg, struct dt_group *g)
{
	for (size_t i = 0; i < g->probes.n; i++) {
		int rc = try_open(g->probes.v[i]->priv);
		if (rc < 0) {
			cannot_count(reg, g->probes.v[i], -rc);
			return NULL;
		}
	}
	return &mech_perf;
}

/* Why no event can be counted here (perf events refused), or NULL. */
static const char *unavailable(struct dt_registry *reg)
{
	struct cpc_spec spec;
	int rc;

	(void)reg;
	if (!dt_cpc_parse("cpu_clock-all-" LISTED_COUNT, &spec) || (rc = try_open(&spec)) >= 0)
		return NULL;
	if (rc == -EACCES || rc == -EPERM)
		return "cannot open perf events that count on a whole CPU (permission denied): run as "
		       "root, or grant CAP_PERFMON";
	if (rc == -ENOSYS)
		return "the kernel has no perf events (CONFIG_PERF_EVENTS)";
	return NULL;
}

static int arg_count(struct dt_registry *reg, const struct dt_probe *prp)
{
	(void)reg;
	(void)prp;
	return 0;
}

const struct dt_provider dt_prov_cpc = {
	.name = "cpc",
	.pattr = &dt_pattr_profile,
	.populate = populate,
	.provide = provide,
	.mech_class = mech_class,
	.choose = choose,
	.arg_count = arg_count,
	.unavailable = unavailable,
};
