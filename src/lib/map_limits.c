/*
 * Errors for maps the kernel refuses, naming the option that sized them:
 * the ring buffer (bufsize), aggregations (aggsize), associative arrays
 * and thread-locals (dynvarsize), the global data holding speculations
 * (nspec, specsize) and the scratch area (strsize, scratchsize).
 */
#include "lib/map_limits.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/maps.h"
#include "bpf/load.h"
#include "lib/dt_impl.h"

/* 3g, 512m, 64k or 1000: as the options are written. */
static void size_str(int64_t v, char *buf, size_t len)
{
	static const char suffix[] = "kmgt";
	int i = -1;

	while (v >= 1024 && v % 1024 == 0 && i < 3) {
		v /= 1024;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%" PRId64, v);
	else
		snprintf(buf, len, "%" PRId64 "%c", v, suffix[i]);
}

int dt_map_refused_error(struct dtrace_hdl *dtp, struct bpf_object *obj, int rc)
{
	char name[64], a[32], b[32];
	int mrc = bo_map_refused(obj, name, sizeof(name));

	if (mrc == 0 && rc != -ENOMEM && rc != -E2BIG)
		return 0;
	if (mrc == 0)
		return dt_set_error(dtp->core, rc, "the kernel refused to create the BPF maps: %s "
				    "(together they may be too large: bufsize, aggsize and "
				    "dynvarsize size them)", strerror(-rc));
	const char *why = strerror(-mrc);
	if (strcmp(name, MAP_RING) == 0) {
		size_str(dtp->core->opts.bufsize, a, sizeof(a));
		return dt_set_error(dtp->core, mrc, "the kernel refused the principal buffer "
				    "(bufsize %s): %s: lower bufsize (-b or -x bufsize)", a, why);
	}
	if (strncmp(name, "dt_agg_", 7) == 0) {
		size_str(dtp->core->opts.aggsize, a, sizeof(a));
		return dt_set_error(dtp->core, mrc, "the kernel refused an aggregation's map "
				    "(aggsize %s): %s: lower aggsize (-x aggsize)", a, why);
	}
	if (strncmp(name, "dt_tls_", 7) == 0 || strncmp(name, "dt_arr_", 7) == 0) {
		size_str(dtp->core->opts.dynvarsize, a, sizeof(a));
		return dt_set_error(dtp->core, mrc, "the kernel refused a dynamic variable map "
				    "(dynvarsize %s): %s: lower dynvarsize (-x dynvarsize)", a, why);
	}
	if (strstr(name, ".bss") != NULL) {
		size_str(dtp->core->opts.specsize, b, sizeof(b));
		return dt_set_error(dtp->core, mrc, "the kernel refused the global data (nspec %" PRId64
				    ", specsize %s): %s: lower nspec or specsize", dtp->core->opts.nspec,
				    b, why);
	}
	if (strcmp(name, MAP_SCRATCH) == 0) {
		size_str(dtp->core->opts.strsize, a, sizeof(a));
		size_str(dtp->core->opts.scratchsize, b, sizeof(b));
		return dt_set_error(dtp->core, mrc, "the kernel refused the scratch area (strsize %s, "
				    "scratchsize %s): %s: lower strsize or scratchsize", a, b, why);
	}
	return dt_set_error(dtp->core, mrc, "the kernel refused BPF map '%s': %s", name, why);
}
