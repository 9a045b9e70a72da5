/*
 * The io provider (the Dynamic Tracing Guide's), made from the kernel's
 * block tracepoints; its arguments are translated from the block layer's
 * struct request (dlib/kernel/io.d):
 *
 *   start   block_rq_issue: a request goes to the device
 *   done    block_rq_complete: the device has finished it
 *           args[0] bufinfo_t *, args[1] devinfo_t *, args[2] fileinfo_t *
 *
 * wait-start and wait-done (a thread waits for a given request) have no
 * tracepoint that names the request, and are not listed.
 */
#include "base/pattr.h"
#include "base/probe.h"
#include "base/provider.h"
#include "compiler/cg.h"
#include "providers/providers.h"
#include "providers/sprov.h"

#define RQ "struct request *"
#define ARGS { { RQ, "bufinfo_t *" }, { RQ, "devinfo_t *" }, { RQ, "fileinfo_t *" } }

static void request(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	(void)skip;
	sp_raw_arg(cg, BPF_R7, 0);
	for (int i = 0; i < 3; i++)
		sp_set_arg(cg, dctx, used, i, BPF_R7);
}

static const struct sp_probe probes[] = {
	{ "done", SP_RAW, "block", { "block_rq_complete" }, { RQ }, ARGS, request, false },
	{ "start", SP_RAW, "block", { "block_rq_issue" }, { RQ }, ARGS, request, false },
};

static int populate(struct dt_registry *reg)
{
	return sp_populate(reg, &dt_prov_io, probes, sizeof(probes) / sizeof(probes[0]));
}

const struct dt_provider dt_prov_io = {
	.name = "io",
	.populate = populate,
	.mech_class = sp_mech_class,
	.choose = sp_choose,
	.arg_desc = sp_arg_desc,
	.arg_count = sp_arg_count,
	.other_thread = sp_other_thread,
	.unavailable = sp_unavailable,
	.pattr = &dt_pattr_sdt_stable,
};
