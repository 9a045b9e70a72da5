/*
 * The dtrace provider: BEGIN, END and ERROR.  BEGIN and END programs are
 * raw-tracepoint programs the consumer runs itself (BPF_PROG_TEST_RUN), in
 * its own context, before tracing starts and after it stops; ERROR clauses
 * are called from the fault path of other clauses.
 */
#include <errno.h>
#include <string.h>

#include "base/core.h"
#include "base/pattr.h"
#include "base/probe.h"
#include "base/provider.h"
#include "compiler/cg.h"
#include "providers/providers.h"

static int populate(struct dt_registry *reg)
{
	if (dt_probe_add(reg, &dt_prov_dtrace, "", "", "BEGIN", 0, NULL) == NULL ||
	    dt_probe_add(reg, &dt_prov_dtrace, "", "", "END", 0, NULL) == NULL ||
	    dt_probe_add(reg, &dt_prov_dtrace, "", "", "ERROR", 0, NULL) == NULL)
		return -ENOMEM;
	return 0;
}

static const char *mech_class(const struct dt_probe *prp)
{
	return prp->desc[3];
}

static void prologue(struct dt_cg *cg, struct dt_group *g, int dctx_off, uint32_t args, int skip)
{
	(void)skip;
	cg_emit(cg, I_ST(BPF_W, BPF_FP, dctx_off + DCTX_PRID, (int32_t)g->probes.v[0]->id));
	for (int i = 0; i < 10; i++) {
		if (args & (1u << i))
			cg_emit(cg, I_ST(BPF_DW, BPF_FP, dctx_off + DCTX_ARGS + 8 * i, 0));
	}
}

static const struct dt_mech mech_consumer = {
	.name = "consumer",
	.section = "raw_tp",
	.by_consumer = true,
	.gated = false,
	.cg_prologue = prologue,
};

/* ERROR has no program of its own: see dt_cg_error_func(). */
static const struct dt_mech mech_error = {
	.name = "error",
	.section = NULL,
};

static const struct dt_mech *choose(struct dt_registry *reg, struct dt_group *g)
{
	(void)reg;
	if (strcmp(g->mclass, "ERROR") == 0)
		return &mech_error;
	return &mech_consumer;
}

/* BEGIN, END and ERROR have no args[ ] (DTrace: no probe_info, argc 0). */
static int no_args(struct dt_registry *reg, const struct dt_probe *prp)
{
	(void)reg;
	(void)prp;
	return 0;
}

const struct dt_provider dt_prov_dtrace = {
	.name = "dtrace",
	.pattr = &dt_pattr_dtrace,
	.populate = populate,
	.arg_count = no_args,
	.mech_class = mech_class,
	.choose = choose,
};
