/*
 * The io provider (the Dynamic Tracing Guide's), made from the kernel's
 * block tracepoints; its arguments are translated from the block layer's
 * struct request (dlib/kernel/io.d):
 *
 *   start   block_rq_issue: a request goes to the device
 *   done    block_rq_complete: the device has finished it
 *           args[0] bufinfo_t *, args[1] devinfo_t *, args[2] fileinfo_t *
 *           (from the struct request)
 *   wait-start  the entry of submit_bio_wait(), where a thread submits a
 *           bio and waits for it: a BPF trampoline (fentry), as DTrace
 *           for Linux makes it (no tracepoint says which I/O a thread
 *           waits for, nor when the wait ends)
 *   wait-done   its return (fexit), in the same thread
 *           args[0] bufinfo_t *, args[1] devinfo_t * (from the struct bio,
 *           whose iterator the kernel has moved over what was transferred
 *           by the time the wait ends), args[2] fileinfo_t * (none: the
 *           struct file * is NULL, as in DTrace for Linux)
 */
#include "compiler/cg.h"
#include "providers/probe.h"
#include "providers/pattr.h"
#include "providers/provider.h"
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

/* submit_bio_wait(bio): args[0] and args[1] from the bio; no file. */
static void waiter(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	(void)skip;
	if (!(used & 3))
		return;
	sp_fn_arg(cg, dctx, BPF_R7, 0);
	sp_set_arg(cg, dctx, used, 0, BPF_R7);
	sp_set_arg(cg, dctx, used, 1, BPF_R7);
}

#define BIO "struct bio *"
#define WAIT_ARGS { { BIO, "bufinfo_t *" }, { BIO, "devinfo_t *" }, { "struct file *", "fileinfo_t *" } }

static const struct sp_probe probes[] = {
	{ "done", SP_RAW, "block", { "block_rq_complete" }, { RQ }, ARGS, request, false },
	{ "start", SP_RAW, "block", { "block_rq_issue" }, { RQ }, ARGS, request, false },
	{ "wait-done", SP_FEXIT, NULL, { "submit_bio_wait" }, { BIO }, WAIT_ARGS, waiter, false },
	{ "wait-start", SP_FENTRY, NULL, { "submit_bio_wait" }, { BIO }, WAIT_ARGS, waiter, false },
};

static int populate(dtrace_hdl_t *dtp)
{
	return sp_populate(dtp, &dt_prov_io, probes, sizeof(probes) / sizeof(probes[0]));
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
	.probe_unavailable = sp_probe_unavailable,
	.pattr = &dt_pattr_sdt_stable,
};
