/* struct pt_regs offsets (pt_regs.h). */
#include "providers/pt_regs.h"

#include <stddef.h>
#include <string.h>

#include "base/types.h"
#include "base/util.h"

const int16_t dt_pt_call_args[6] = { PT_DI, PT_SI, PT_DX, PT_CX, PT_R8, PT_R9 };

static const struct {
	const char *name[4];	/* 64, 32, 16, 8-bit names */
	int16_t off;
} regs[] = {
	{ { "rax", "eax", "ax", "al" }, PT_AX },
	{ { "rbx", "ebx", "bx", "bl" }, PT_BX },
	{ { "rcx", "ecx", "cx", "cl" }, PT_CX },
	{ { "rdx", "edx", "dx", "dl" }, PT_DX },
	{ { "rsi", "esi", "si", "sil" }, PT_SI },
	{ { "rdi", "edi", "di", "dil" }, PT_DI },
	{ { "rbp", "ebp", "bp", "bpl" }, PT_BP },
	{ { "rsp", "esp", "sp", "spl" }, PT_SP },
	{ { "r8", "r8d", "r8w", "r8b" }, PT_R8 },
	{ { "r9", "r9d", "r9w", "r9b" }, PT_R9 },
	{ { "r10", "r10d", "r10w", "r10b" }, PT_R10 },
	{ { "r11", "r11d", "r11w", "r11b" }, PT_R11 },
	{ { "r12", "r12d", "r12w", "r12b" }, PT_R12 },
	{ { "r13", "r13d", "r13w", "r13b" }, PT_R13 },
	{ { "r14", "r14d", "r14w", "r14b" }, PT_R14 },
	{ { "r15", "r15d", "r15w", "r15b" }, PT_R15 },
	{ { "rip", "eip", NULL, NULL }, PT_IP },
};

int dt_pt_reg_offset(const char *name, int *width, int *shift)
{
	static const struct { const char *name; int16_t off; } high[] = {
		{ "ah", PT_AX }, { "bh", PT_BX }, { "ch", PT_CX }, { "dh", PT_DX },
	};
	static const int widths[4] = { 8, 4, 2, 1 };

	*shift = 0;
	for (size_t i = 0; i < ARRAY_SIZE(regs); i++) {
		for (int w = 0; w < 4; w++) {
			if (regs[i].name[w] != NULL && strcmp(regs[i].name[w], name) == 0) {
				*width = widths[w];
				return regs[i].off;
			}
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(high); i++) {
		if (strcmp(high[i].name, name) == 0) {
			*width = 1;
			*shift = 8;
			return high[i].off;
		}
	}
	return -1;
}

struct dt_regs_layout dt_regs_layout(struct dt_typetab *tt)
{
#if defined(__x86_64__)
	struct dt_regs_layout l = {
		{ PT_DI, PT_SI, PT_DX, PT_CX, PT_R8, PT_R9 }, 6, PT_AX, PT_SP, 8,
		{ PT_DI, PT_SI, PT_DX, PT_R10, PT_R8, PT_R9 }, PT_ORIG_AX,
	};
#elif defined(__aarch64__)
	struct dt_regs_layout l = {
		{ 0, 8, 16, 24, 32, 40, 48, 56 }, 8, 0, 248, 0,
		{ 0, 8, 16, 24, 32, 40 }, 280,
	};
#else
	struct dt_regs_layout l = { { 0 }, 0, 0, 0, 0, { 0 }, 0 };
#endif
	static const char *const call[] = { "di", "si", "dx", "cx", "r8", "r9" };
	static const char *const sys[] = { "di", "si", "dx", "r10", "r8", "r9" };
	struct dt_type *t = dt_type_lookup(tt, "struct pt_regs");
	uint32_t off;

	if (t == NULL)
		return l;
	/* The kernel's own layout, where BTF has it (dt_type_member gives bits). */
	if (dt_type_member(tt, t, "di", &off) != NULL) {
		for (int i = 0; i < 6; i++) {
			if (dt_type_member(tt, t, call[i], &off) != NULL)
				l.arg[i] = (int16_t)(off / 8);
			if (dt_type_member(tt, t, sys[i], &off) != NULL)
				l.sysarg[i] = (int16_t)(off / 8);
		}
		if (dt_type_member(tt, t, "ax", &off) != NULL)
			l.ret = (int16_t)(off / 8);
		if (dt_type_member(tt, t, "orig_ax", &off) != NULL)
			l.sysnr = (int16_t)(off / 8);
	} else if (dt_type_member(tt, t, "syscallno", &off) != NULL) {
		l.sysnr = (int16_t)(off / 8);
		if (dt_type_member(tt, t, "orig_x0", &off) != NULL) {
			l.sysarg[0] = (int16_t)(off / 8);
			for (int i = 1; i < 6; i++)
				l.sysarg[i] = (int16_t)(8 * i);
		}
	}
	if (dt_type_member(tt, t, "sp", &off) != NULL)
		l.sp = (int16_t)(off / 8);
	return l;
}
