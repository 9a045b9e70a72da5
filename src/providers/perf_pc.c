/* arg0/arg1 of perf event probes: where the CPU was when the event fired. */
#include "providers/perf_pc.h"

#include "compiler/cg.h"

void dt_perf_pc_args(struct dt_cg *cg, int dctx_off, uint32_t args)
{
	for (int i = 2; i < 10; i++)
		if (args & (1u << i))
			cg_emit(cg, I_ST(BPF_DW, BPF_FP, dctx_off + DCTX_ARGS + 8 * i, 0));
	if (!(args & 3u))
		return;
#if defined(__x86_64__)
	/* The saved ip, and cs: its low two bits are the privilege level (3: user). */
	const int ip_off = 16 * 8, cs_off = 17 * 8;
	int user = cg_label_new(cg), done = cg_label_new(cg);
	cg_emit(cg, I_LDX(BPF_DW, BPF_R1, BPF_R6, ip_off));
	cg_emit(cg, I_LDX(BPF_DW, BPF_R2, BPF_R6, cs_off));
	cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R2, 3));
	cg_emit(cg, I_MOV64_IMM(BPF_R3, 0));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R2, 3, user);
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R1, dctx_off + DCTX_ARGS));
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R3, dctx_off + DCTX_ARGS + 8));
	cg_ja(cg, done);
	cg_label_place(cg, user);
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R3, dctx_off + DCTX_ARGS));
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R1, dctx_off + DCTX_ARGS + 8));
	cg_label_place(cg, done);
#else
	cg_emit(cg, I_ST(BPF_DW, BPF_FP, dctx_off + DCTX_ARGS, 0));
	cg_emit(cg, I_ST(BPF_DW, BPF_FP, dctx_off + DCTX_ARGS + 8, 0));
#endif
}
