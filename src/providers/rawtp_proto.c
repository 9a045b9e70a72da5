/* A raw tracepoint's TP_PROTO, from BTF or by trying the verifier. */
#include "providers/rawtp_proto.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <stdio.h>
#include <unistd.h>

#include "base/insn.h"
#include "base/util.h"

bool dt_rawtp_proto_btf(const struct btf *btf, const char *event, struct rawtp_proto *p)
{
	char name[160];

	p->nargs = -1;
	p->typed = false;
	if (btf == NULL)
		return false;
	snprintf(name, sizeof(name), "btf_trace_%s", event);
	int id = btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF);
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, (uint32_t)id) : NULL;
	if (t != NULL)
		t = btf__type_by_id(btf, t->type);
	if (t != NULL && btf_is_ptr(t))
		t = btf__type_by_id(btf, t->type);
	if (t == NULL || !btf_is_func_proto(t) || btf_vlen(t) < 1)
		return false;
	const struct btf_param *par = btf_params(t);
	int n = btf_vlen(t) - 1;	/* the first is the tracepoint's data */
	if (n > RAWTP_MAX_ARGS)
		n = RAWTP_MAX_ARGS;
	for (int i = 0; i < n; i++)
		p->types[i] = par[i + 1].type;
	p->nargs = n;
	p->typed = true;
	p->btf = btf;
	return true;
}

int dt_rawtp_count_args(const char *event)
{
	for (int n = RAWTP_MAX_ARGS; n >= 0; n--) {
		/* Read argument n - 1 (nothing when n is 0), return 0. */
		struct bpf_insn insns[] = {
			I_LDX(BPF_DW, BPF_R0, BPF_R1, (int16_t)(n > 0 ? 8 * (n - 1) : 0)),
			I_MOV64_IMM(BPF_R0, 0),
			I_EXIT(),
		};
		const struct bpf_insn *prog = n > 0 ? insns : insns + 1;
		size_t len = n > 0 ? ARRAY_SIZE(insns) : ARRAY_SIZE(insns) - 1;
		int fd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "dt_rawtp_argc", "GPL", prog,
				       len, NULL);
		if (fd < 0)
			return -1;
		/* The kernel refuses a program that reads past the tracepoint's arguments. */
		int lfd = bpf_raw_tracepoint_open(event, fd);
		close(fd);
		if (lfd >= 0) {
			close(lfd);
			return n;
		}
	}
	return -1;
}
