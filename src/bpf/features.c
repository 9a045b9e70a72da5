/* Kernel features, probed by loading tiny programs (features.h). */
#include "bpf/features.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
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

/*
 * Whether a tracing program may load a word of the current task through
 * bpf_get_current_task_btf()'s pointer (the verifier checks the load
 * against the kernel's BTF: offset 0 is the task's first member).
 */
static bool task_btf_load_usable(void)
{
	struct bpf_insn insns[] = {
		I_CALL_HELPER(BPF_FUNC_get_current_task_btf),
		I_LDX(BPF_DW, BPF_R0, BPF_R0, 0),
		I_MOV64_IMM(BPF_R0, 0),
		I_EXIT(),
	};
	char log[4096] = "";
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = log, .log_size = sizeof(log),
		    .log_level = 1);
	int fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, NULL, "GPL", insns, 4, &opts);

	if (fd >= 0) {
		close(fd);
		return true;
	}
	/* No privileges to load anything (-e as a user): assume it, as for helpers. */
	return (errno == EPERM || errno == EACCES) && log[0] == '\0';
}

void dt_features_probe(struct dt_features *f)
{
	f->bpf_loop = helper_usable(BPF_FUNC_loop);
	f->probe_write_user = helper_usable(BPF_FUNC_probe_write_user);
	f->task_btf_load = task_btf_load_usable();
}
