/* Kernel features, probed by loading tiny programs (features.h). */
#include "bpf/features.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <string.h>
#include <unistd.h>

#include "base/insn.h"

/*
 * Whether tracing programs may call a helper: load "call helper; exit" and
 * read the verifier's reason.  (libbpf's probe takes "program of this type
 * cannot use helper", what kernel lockdown gives, for support.)  When the
 * probe cannot run at all (no privileges: -e), assume the helper is there.
 */
static bool helper_usable(uint32_t helper)
{
	struct bpf_insn insns[] = { I_CALL_HELPER((int32_t)helper), I_MOV64_IMM(BPF_R0, 0), I_EXIT() };
	char log[4096] = "";
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = log, .log_size = sizeof(log),
		    .log_level = 1);
	int fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, NULL, "GPL", insns, 3, &opts);

	if (fd >= 0) {
		close(fd);
		return true;
	}
	return strstr(log, "cannot use helper") == NULL && strstr(log, "unknown func") == NULL &&
	       strstr(log, "invalid func") == NULL;
}

void dt_features_probe(struct dt_features *f)
{
	f->bpf_loop = helper_usable(BPF_FUNC_loop);
	f->probe_write_user = helper_usable(BPF_FUNC_probe_write_user);
}
