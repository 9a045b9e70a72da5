/*
 * The profile provider: profile-N fires on every CPU, tick-N on one, at
 * the rate N with DTrace's units (ns, us, ms, s, m, h, d, hz; a bare
 * number is hz).  Each is a perf cpu-clock software event per CPU with a
 * BPF program attached; rates that are a whole number of hertz use
 * frequency mode, which fires reliably on idle virtual CPUs.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <ctype.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/core.h"
#include "base/pattr.h"
#include "base/probe.h"
#include "base/provider.h"
#include "compiler/ast.h"
#include "compiler/cg.h"
#include "providers/attach.h"
#include "providers/perf_pc.h"
#include "providers/providers.h"

#define NS 1000000000ULL
#define MIN_PERIOD 200000ULL	/* 200us: DTrace's minimum profile interval */

/* The probes DTrace lists before any is asked for. */
static const char *const defaults[] = {
	"profile-97", "profile-199", "profile-499", "profile-997", "profile-1999",
	"profile-4001", "profile-4999", "tick-1", "tick-10", "tick-100", "tick-500",
	"tick-1000", "tick-5000",
};

/* Parse "profile-N<unit>"/"tick-N<unit>": period in ns, 0 if not a rate. */
static uint64_t parse_period(const char *name, bool *tick)
{
	const char *p;

	if (strncmp(name, "profile-", 8) == 0) {
		p = name + 8;
		*tick = false;
	} else if (strncmp(name, "tick-", 5) == 0) {
		p = name + 5;
		*tick = true;
	} else {
		return 0;
	}
	if (!isdigit((unsigned char)*p))
		return 0;
	char *end;
	uint64_t v = strtoull(p, &end, 10);
	static const struct {
		const char *s;
		uint64_t mul;	/* 0: hz */
	} units[] = {
		{ "", 0 }, { "ns", 1 }, { "nsec", 1 }, { "us", 1000 }, { "usec", 1000 },
		{ "ms", 1000000 }, { "msec", 1000000 }, { "s", NS }, { "sec", NS },
		{ "m", 60 * NS }, { "min", 60 * NS }, { "h", 3600 * NS }, { "hour", 3600 * NS },
		{ "d", 86400 * NS }, { "day", 86400 * NS }, { "hz", 0 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcasecmp(end, units[i].s) != 0)
			continue;
		if (v == 0)
			return 0;
		uint64_t period = units[i].mul == 0 ? NS / v : v * units[i].mul;
		/* DTrace has no probe for a rate faster than its minimum. */
		return period < MIN_PERIOD ? 0 : period;
	}
	return 0;
}

static int add(struct dt_registry *reg, const char *name)
{
	bool tick;
	uint64_t period = parse_period(name, &tick);

	if (period == 0)
		return 0;
	return dt_probe_add(reg, &dt_prov_profile, "", "", name, period, NULL) ? 0 : -ENOMEM;
}

static int populate(struct dt_registry *reg)
{
	for (size_t i = 0; i < ARRAY_SIZE(defaults); i++) {
		int rc = add(reg, defaults[i]);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* A description naming a rate not listed yet creates its probe. */
static int provide(struct dt_registry *reg, const struct dt_pdesc *pd)
{
	if (pd->name == NULL || pd->name[0] == '\0' || dt_has_glob(pd->name))
		return 0;
	if ((pd->mod && pd->mod[0]) || (pd->func && pd->func[0]))
		return 0;
	return add(reg, pd->name);
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

static int open_event(uint64_t period, int cpu)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	if (NS % period == 0) {
		attr.freq = 1;
		attr.sample_freq = NS / period;
	} else {
		attr.sample_period = period;
	}
	return (int)syscall(__NR_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static int attach(struct dt_registry *reg, struct dt_group *g)
{
	int ncpus = libbpf_num_possible_cpus();

	for (size_t i = 0; i < g->probes.n; i++) {
		struct dt_probe *prp = g->probes.v[i];
		bool tick = strncmp(prp->desc[3], "tick-", 5) == 0;
		uint64_t period = prp->data;
		/*
		 * tick-N runs on one CPU (0, or the cpu option's); profile-N on
		 * every online CPU (only the cpu option's, if set).
		 */
		int first = reg->core->opts.cpu >= 0 ? (int)reg->core->opts.cpu : 0;
		int last = tick || reg->core->opts.cpu >= 0 ? first + 1 : ncpus;
		for (int cpu = first; cpu < last; cpu++) {
			int fd = open_event(period, cpu);
			if (fd < 0) {
				if (!tick && errno == ENODEV)
					continue;	/* offline CPU */
				return dt_set_error(reg->core, -errno,
						    "failed to create perf event for %s on CPU %d: %s",
						    prp->desc[3], cpu, strerror(errno));
			}
			LIBBPF_OPTS(bpf_perf_event_opts, opts, .bpf_cookie = prp->id);
			struct bpf_link *l = bpf_program__attach_perf_event_opts(g->prog, fd, &opts);
			if (l == NULL) {
				int err = errno;
				close(fd);
				errno = err;
			}
			int rc = dt_group_link(reg, g, l, "failed to attach to perf event");
			if (rc < 0)
				return rc;
		}
	}
	return 0;
}

static const struct dt_mech mech_perf = {
	.name = "profile",
	.section = "perf_event",
	.gated = true,
	.cookie_is_prid = true,
	.cg_prologue = prologue,
	.attach = attach,
};

static const struct dt_mech *choose(struct dt_registry *reg, struct dt_group *g)
{
	(void)reg;
	(void)g;
	return &mech_perf;
}

const struct dt_provider dt_prov_profile = {
	.name = "profile",
	.pattr = &dt_pattr_profile,
	.populate = populate,
	.provide = provide,
	.mech_class = mech_class,
	.choose = choose,
};
