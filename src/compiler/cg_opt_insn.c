/* What one BPF instruction reads, writes and does, for the optimisation passes. */
#include "compiler/cg_opt.h"

#define R(r) ((uint16_t)(1u << (r)))
#define ARGS (R(1) | R(2) | R(3) | R(4) | R(5))
#define CLOBBERED (R(0) | ARGS)
#define ALL ((uint16_t)0x7ff)

/* Newer atomic forms the system's linux/bpf.h may not name. */
#ifndef BPF_LOAD_ACQ
#define BPF_LOAD_ACQ 0x100
#endif

bool cg_opt_is_ldimm64(const struct bpf_insn *in)
{
	return in->code == (BPF_LD | BPF_IMM | BPF_DW);
}

static bool jmp_class(const struct bpf_insn *in)
{
	return BPF_CLASS(in->code) == BPF_JMP || BPF_CLASS(in->code) == BPF_JMP32;
}

bool cg_opt_is_call(const struct bpf_insn *in)
{
	return BPF_CLASS(in->code) == BPF_JMP && BPF_OP(in->code) == BPF_CALL;
}

bool cg_opt_is_exit(const struct bpf_insn *in)
{
	return BPF_CLASS(in->code) == BPF_JMP && BPF_OP(in->code) == BPF_EXIT;
}

bool cg_opt_is_jump(const struct bpf_insn *in)
{
	return jmp_class(in) && BPF_OP(in->code) != BPF_CALL && BPF_OP(in->code) != BPF_EXIT;
}

/*
 * The argument registers a helper reads: r1 .. its last argument in the
 * kernel's prototype (bpf_func_proto); all five for any helper not
 * listed.  A helper never reads an argument register past its last.
 */
static uint16_t helper_args(int32_t id)
{
	int n;

	switch (id) {
	case BPF_FUNC_ktime_get_ns:
	case BPF_FUNC_ktime_get_boot_ns:
	case BPF_FUNC_get_prandom_u32:
	case BPF_FUNC_get_smp_processor_id:
	case BPF_FUNC_get_numa_node_id:
	case BPF_FUNC_get_current_pid_tgid:
	case BPF_FUNC_get_current_uid_gid:
	case BPF_FUNC_get_current_task:
	case BPF_FUNC_get_current_task_btf:
		n = 0;
		break;
	case BPF_FUNC_get_attach_cookie:		/* (ctx) */
	case BPF_FUNC_task_pt_regs:			/* (task) */
	case BPF_FUNC_send_signal:			/* (sig) */
	case BPF_FUNC_send_signal_thread:
		n = 1;
		break;
	case BPF_FUNC_map_lookup_elem:			/* (map, key) */
	case BPF_FUNC_map_delete_elem:
	case BPF_FUNC_get_current_comm:			/* (buf, size) */
	case BPF_FUNC_ringbuf_submit:			/* (data, flags) */
	case BPF_FUNC_ringbuf_discard:
	case BPF_FUNC_ringbuf_query:			/* (ringbuf, flags) */
		n = 2;
		break;
	case BPF_FUNC_probe_read:			/* (dst, size, src) */
	case BPF_FUNC_probe_read_str:
	case BPF_FUNC_probe_read_user:
	case BPF_FUNC_probe_read_kernel:
	case BPF_FUNC_probe_read_user_str:
	case BPF_FUNC_probe_read_kernel_str:
	case BPF_FUNC_ringbuf_reserve:			/* (ringbuf, size, flags) */
	case BPF_FUNC_tail_call:			/* (ctx, prog_array, index) */
		n = 3;
		break;
	case BPF_FUNC_map_update_elem:			/* (map, key, value, flags) */
	case BPF_FUNC_ringbuf_output:			/* (ringbuf, data, size, flags) */
	case BPF_FUNC_get_stack:			/* (ctx, buf, size, flags) */
	case BPF_FUNC_get_task_stack:			/* (task, buf, size, flags) */
		n = 4;
		break;
	default:
		return ARGS;
	}
	return (uint16_t)(((1u << (n + 1)) - 1) & ~1u);
}

uint16_t cg_opt_uses(const struct bpf_insn *in)
{
	uint16_t x = BPF_SRC(in->code) == BPF_X ? R(in->src_reg) : 0;

	switch (BPF_CLASS(in->code)) {
	case BPF_ALU:
	case BPF_ALU64:
		if (BPF_OP(in->code) == BPF_MOV)
			return x;
		if (BPF_OP(in->code) == BPF_NEG || BPF_OP(in->code) == BPF_END)
			return R(in->dst_reg);
		return R(in->dst_reg) | x;
	case BPF_LDX:
		return R(in->src_reg);
	case BPF_ST:
		return R(in->dst_reg);
	case BPF_STX:
		if (BPF_MODE(in->code) == BPF_ATOMIC && in->imm == BPF_CMPXCHG)
			return R(in->dst_reg) | R(in->src_reg) | R(0);
		/* dst = load_acquire(src + off): dst is written, not read. */
		if (BPF_MODE(in->code) == BPF_ATOMIC && in->imm == BPF_LOAD_ACQ)
			return R(in->src_reg);
		return R(in->dst_reg) | R(in->src_reg);
	case BPF_LD:
		return cg_opt_is_ldimm64(in) ? 0 : ALL;
	default:
		if (cg_opt_is_call(in))
			return in->src_reg == 0 ? helper_args(in->imm) : ARGS;
		if (cg_opt_is_exit(in))
			return R(0);
		if (BPF_OP(in->code) == BPF_JA || BPF_OP(in->code) == BPF_JCOND)
			return 0;
		return R(in->dst_reg) | x;
	}
}

uint16_t cg_opt_defs(const struct bpf_insn *in)
{
	switch (BPF_CLASS(in->code)) {
	case BPF_ALU:
	case BPF_ALU64:
	case BPF_LDX:
		return R(in->dst_reg);
	case BPF_STX:
		if (BPF_MODE(in->code) != BPF_ATOMIC)
			return 0;
		if (in->imm == BPF_CMPXCHG)
			return R(0);
		if (in->imm == BPF_LOAD_ACQ)
			return R(in->dst_reg);
		return (in->imm & BPF_FETCH) ? R(in->src_reg) : 0;
	case BPF_LD:
		return cg_opt_is_ldimm64(in) ? R(in->dst_reg) : CLOBBERED;
	default:
		return cg_opt_is_call(in) ? CLOBBERED : 0;
	}
}

/* Helpers that only return a value: a call whose result is unused can go. */
static bool pure_helper(int32_t id)
{
	switch (id) {
	case BPF_FUNC_ktime_get_ns:
	case BPF_FUNC_get_smp_processor_id:
	case BPF_FUNC_get_current_pid_tgid:
	case BPF_FUNC_get_current_uid_gid:
	case BPF_FUNC_get_current_task:
	case BPF_FUNC_get_attach_cookie:
	case BPF_FUNC_ktime_get_boot_ns:
	case BPF_FUNC_get_numa_node_id:
		return true;
	default:
		return false;
	}
}

bool cg_opt_has_effect(const struct bpf_insn *in)
{
	switch (BPF_CLASS(in->code)) {
	case BPF_ALU:
	case BPF_ALU64:
		return false;
	case BPF_LDX:
		/* Plain loads only: anything else is kept. */
		return BPF_MODE(in->code) != BPF_MEM && BPF_MODE(in->code) != BPF_MEMSX;
	case BPF_LD:
		return !cg_opt_is_ldimm64(in);
	default:
		if (cg_opt_is_call(in))
			return in->src_reg != 0 || !pure_helper(in->imm);
		return true;
	}
}

size_t cg_opt_next(const struct cg_opt *o, size_t i)
{
	while (i < o->n && (o->del[i] || o->hi[i]))
		i++;
	return i;
}

void cg_opt_delete(struct cg_opt *o, size_t i)
{
	o->del[i] = true;
	if (cg_opt_is_ldimm64(&o->insn[i]) && i + 1 < o->n)
		o->del[i + 1] = true;
	/* Jumps to it now go to the next kept instruction: that one starts a block. */
	if (o->leader[i])
		o->leader[cg_opt_next(o, i + 1)] = true;
}
