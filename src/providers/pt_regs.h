/*
 * The kernel's struct pt_regs, where kprobes, uprobes and raw system-call
 * tracepoints find registers: one table of x86-64 offsets (the kernel's
 * ABI, arch/x86/include/asm/ptrace.h) and the layout the providers read
 * arguments with, checked against BTF where the kernel has it.
 */
#ifndef DT_PT_REGS_H
#define DT_PT_REGS_H

#include <stdint.h>

struct dt_typetab;

/* x86-64 byte offsets. */
enum {
	PT_R15 = 0, PT_R14 = 8, PT_R13 = 16, PT_R12 = 24, PT_BP = 32, PT_BX = 40,
	PT_R11 = 48, PT_R10 = 56, PT_R9 = 64, PT_R8 = 72, PT_AX = 80, PT_CX = 88,
	PT_DX = 96, PT_SI = 104, PT_DI = 112, PT_ORIG_AX = 120, PT_IP = 128, PT_CS = 136,
	PT_FLAGS = 144, PT_SP = 152, PT_SS = 160,
};

/* x86-64: the registers of a call's first six arguments (di si dx cx r8 r9). */
extern const int16_t dt_pt_call_args[6];

/*
 * The offset of an x86-64 register named as in assembly without the %
 * ("rax", "eax", "ax", "al", "ah", "r8d" ...), its width in bytes and the
 * shift of the part it names (8 for ah .. dh); -1 if there is none.
 */
int dt_pt_reg_offset(const char *name, int *width, int *shift);

/* Where the providers find arguments in struct pt_regs (byte offsets). */
struct dt_regs_layout {
	int16_t arg[8];		/* a call's arguments in registers */
	int nreg;		/* ... how many */
	int16_t ret;		/* the return value register */
	int16_t sp;		/* the stack pointer: more arguments above the return address */
	int16_t stack_first;	/* offset from sp of the first stack argument */
	int16_t sysarg[6];	/* a system call's arguments */
	int16_t sysnr;		/* the system call number */
};

/* The layout of the architecture, with the kernel's own offsets where BTF has them. */
struct dt_regs_layout dt_regs_layout(struct dt_typetab *tt);

#endif
