/*
 * BEGIN and END run from the consumer: their programs are run once with
 * BPF_PROG_TEST_RUN (consume.h).
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <string.h>

#include "base/core.h"
#include "base/probe.h"
#include "base/provider.h"
#include "consumer/consume.h"

int dt_run_consumer_program(struct dt_core *core, struct dt_group *g)
{
	uint64_t args[2] = { 0, 0 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = args, .ctx_size_in = sizeof(args));

	if (g == NULL)
		return 0;
	/* -x cpu: BEGIN and END run on that CPU, like every other probe. */
	if (core->opts.cpu >= 0) {
		opts.flags = BPF_F_TEST_RUN_ON_CPU;
		opts.cpu = (__u32)core->opts.cpu;
	}
	if (bpf_prog_test_run_opts(bpf_program__fd(g->prog), &opts) < 0)
		return dt_set_error(core, -errno, "failed to run the %s probe: %s",
				    g->probes.v[0]->desc[3], strerror(errno));
	return 0;
}
