/*
 * cpc's events and probe names (cpc_events.h).  The table is libpfm's
 * perf PMU as DTrace for Linux lists it: each generic event under its
 * PERF_COUNT_ name and its perf(1) aliases.  A bare cache event
 * (PERF_COUNT_HW_CACHE_L1D) counts read misses, libpfm's default.
 * Model-specific events (libpfm's other PMUs) are not known here.
 */
#include "providers/cpc_events.h"

#include <ctype.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

#define HW(n, c) { n, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c }
#define SW(n, c) { n, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c }
#define CACHE(n, c, op, res)                                                      \
	{ n, PERF_TYPE_HW_CACHE,                                                  \
	  PERF_COUNT_HW_CACHE_##c | (PERF_COUNT_HW_CACHE_OP_##op << 8) |           \
		  ((uint64_t)PERF_COUNT_HW_CACHE_RESULT_##res << 16) }
/* A cache's loads, stores and prefetches, each accessed and missed. */
#define CACHE_LD(n, c) CACHE(n "-LOADS", c, READ, ACCESS), CACHE(n "-LOAD-MISSES", c, READ, MISS)
#define CACHE_ST(n, c) CACHE(n "-STORES", c, WRITE, ACCESS), CACHE(n "-STORE-MISSES", c, WRITE, MISS)
#define CACHE_PF(n, c) \
	CACHE(n "-PREFETCHES", c, PREFETCH, ACCESS), CACHE(n "-PREFETCH-MISSES", c, PREFETCH, MISS)

static const struct cpc_event events[] = {
	HW("PERF_COUNT_HW_CPU_CYCLES", CPU_CYCLES),
	HW("CYCLES", CPU_CYCLES),
	HW("CPU-CYCLES", CPU_CYCLES),
	HW("PERF_COUNT_HW_INSTRUCTIONS", INSTRUCTIONS),
	HW("INSTRUCTIONS", INSTRUCTIONS),
	HW("PERF_COUNT_HW_CACHE_REFERENCES", CACHE_REFERENCES),
	HW("CACHE-REFERENCES", CACHE_REFERENCES),
	HW("PERF_COUNT_HW_CACHE_MISSES", CACHE_MISSES),
	HW("CACHE-MISSES", CACHE_MISSES),
	HW("PERF_COUNT_HW_BRANCH_INSTRUCTIONS", BRANCH_INSTRUCTIONS),
	HW("BRANCH-INSTRUCTIONS", BRANCH_INSTRUCTIONS),
	HW("BRANCHES", BRANCH_INSTRUCTIONS),
	HW("PERF_COUNT_HW_BRANCH_MISSES", BRANCH_MISSES),
	HW("BRANCH-MISSES", BRANCH_MISSES),
	HW("PERF_COUNT_HW_BUS_CYCLES", BUS_CYCLES),
	HW("BUS-CYCLES", BUS_CYCLES),
	HW("PERF_COUNT_HW_STALLED_CYCLES_FRONTEND", STALLED_CYCLES_FRONTEND),
	HW("STALLED-CYCLES-FRONTEND", STALLED_CYCLES_FRONTEND),
	HW("IDLE-CYCLES-FRONTEND", STALLED_CYCLES_FRONTEND),
	HW("PERF_COUNT_HW_STALLED_CYCLES_BACKEND", STALLED_CYCLES_BACKEND),
	HW("STALLED-CYCLES-BACKEND", STALLED_CYCLES_BACKEND),
	HW("IDLE-CYCLES-BACKEND", STALLED_CYCLES_BACKEND),
	HW("PERF_COUNT_HW_REF_CPU_CYCLES", REF_CPU_CYCLES),
	HW("REF-CYCLES", REF_CPU_CYCLES),
	SW("PERF_COUNT_SW_CPU_CLOCK", CPU_CLOCK),
	SW("CPU-CLOCK", CPU_CLOCK),
	SW("PERF_COUNT_SW_TASK_CLOCK", TASK_CLOCK),
	SW("TASK-CLOCK", TASK_CLOCK),
	SW("PERF_COUNT_SW_PAGE_FAULTS", PAGE_FAULTS),
	SW("PAGE-FAULTS", PAGE_FAULTS),
	SW("FAULTS", PAGE_FAULTS),
	SW("PERF_COUNT_SW_CONTEXT_SWITCHES", CONTEXT_SWITCHES),
	SW("CONTEXT-SWITCHES", CONTEXT_SWITCHES),
	SW("CS", CONTEXT_SWITCHES),
	SW("PERF_COUNT_SW_CPU_MIGRATIONS", CPU_MIGRATIONS),
	SW("CPU-MIGRATIONS", CPU_MIGRATIONS),
	SW("MIGRATIONS", CPU_MIGRATIONS),
	SW("PERF_COUNT_SW_PAGE_FAULTS_MIN", PAGE_FAULTS_MIN),
	SW("MINOR-FAULTS", PAGE_FAULTS_MIN),
	SW("PERF_COUNT_SW_PAGE_FAULTS_MAJ", PAGE_FAULTS_MAJ),
	SW("MAJOR-FAULTS", PAGE_FAULTS_MAJ),
	SW("PERF_COUNT_SW_CGROUP_SWITCHES", CGROUP_SWITCHES),
	SW("CGROUP-SWITCHES", CGROUP_SWITCHES),
	CACHE("PERF_COUNT_HW_CACHE_L1D", L1D, READ, MISS),
	CACHE_LD("L1-DCACHE", L1D), CACHE_ST("L1-DCACHE", L1D), CACHE_PF("L1-DCACHE", L1D),
	CACHE("PERF_COUNT_HW_CACHE_L1I", L1I, READ, MISS),
	CACHE_LD("L1-ICACHE", L1I), CACHE_PF("L1-ICACHE", L1I),
	CACHE("PERF_COUNT_HW_CACHE_LL", LL, READ, MISS),
	CACHE_LD("LLC", LL), CACHE_ST("LLC", LL), CACHE_PF("LLC", LL),
	CACHE("PERF_COUNT_HW_CACHE_DTLB", DTLB, READ, MISS),
	CACHE_LD("DTLB", DTLB), CACHE_ST("DTLB", DTLB), CACHE_PF("DTLB", DTLB),
	CACHE("PERF_COUNT_HW_CACHE_ITLB", ITLB, READ, MISS),
	CACHE_LD("ITLB", ITLB),
	CACHE("PERF_COUNT_HW_CACHE_BPU", BPU, READ, MISS),
	CACHE_LD("BRANCH", BPU),
	CACHE("PERF_COUNT_HW_CACHE_NODE", NODE, READ, MISS),
	CACHE_LD("NODE", NODE), CACHE_ST("NODE", NODE), CACHE_PF("NODE", NODE),
};

size_t dt_cpc_nevents(void)
{
	return ARRAY_SIZE(events);
}

const struct cpc_event *dt_cpc_event_at(size_t i)
{
	return i < ARRAY_SIZE(events) ? &events[i] : NULL;
}

const char *dt_cpc_dname(const struct cpc_event *ev, char *buf, size_t len)
{
	size_t i = 0;

	for (const char *p = ev->name; *p != '\0' && i + 1 < len; p++)
		buf[i++] = *p == '-' ? '_' : (char)tolower((unsigned char)*p);
	if (len > 0)
		buf[i] = '\0';
	return buf;
}

const struct cpc_event *dt_cpc_event(const char *dname)
{
	char buf[64];

	for (size_t i = 0; i < ARRAY_SIZE(events); i++)
		if (strcmp(dt_cpc_dname(&events[i], buf, sizeof(buf)), dname) == 0)
			return &events[i];
	return NULL;
}

/*
 * As DTrace for Linux: the event up to the first '-', the mode up to the
 * next, then the count, all digits.  Its event attributes (a part between
 * mode and count) are not implemented there, so such a name is not a
 * probe.  A count of 0 would never fire (perf counts without sampling),
 * so it is not a probe either.
 */
bool dt_cpc_parse(const char *name, struct cpc_spec *spec)
{
	char ev[64], mode[16];
	const char *d1 = strchr(name, '-');
	const char *d2 = d1 != NULL ? strchr(d1 + 1, '-') : NULL;

	if (d2 == NULL || (size_t)(d1 - name) >= sizeof(ev) || (size_t)(d2 - d1 - 1) >= sizeof(mode))
		return false;
	memcpy(ev, name, (size_t)(d1 - name));
	ev[d1 - name] = '\0';
	memcpy(mode, d1 + 1, (size_t)(d2 - d1 - 1));
	mode[d2 - d1 - 1] = '\0';
	const char *count = d2 + 1;
	if (count[0] == '\0' || strspn(count, "0123456789") != strlen(count))
		return false;
	errno = 0;
	unsigned long long n = strtoull(count, NULL, 10);
	if (errno != 0 || n == 0)
		return false;
	if ((spec->ev = dt_cpc_event(ev)) == NULL)
		return false;
	if (strcmp(mode, "all") == 0)
		spec->mode = CPC_ALL;
	else if (strcmp(mode, "user") == 0)
		spec->mode = CPC_USER;
	else if (strcmp(mode, "kernel") == 0)
		spec->mode = CPC_KERNEL;
	else
		return false;
	spec->count = n;
	return true;
}

void dt_cpc_attr(const struct cpc_spec *spec, struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = spec->ev->type;
	attr->config = spec->ev->config;
	attr->sample_period = spec->count;
	attr->wakeup_events = 1;
	/* libpfm's user and kernel privilege levels: never the hypervisor's. */
	attr->exclude_hv = 1;
	attr->exclude_kernel = spec->mode == CPC_USER;
	attr->exclude_user = spec->mode == CPC_KERNEL;
}

const char *dt_cpc_kind(const struct cpc_event *ev)
{
	return ev->type == PERF_TYPE_SOFTWARE ? "software"
	       : ev->type == PERF_TYPE_HW_CACHE ? "hardware cache" : "hardware";
}
