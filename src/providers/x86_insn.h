/*
 * x86_64 instruction lengths, for pid offset probes: where the
 * instructions of a function start (a uprobe placed inside an instruction
 * would corrupt the traced program).
 */
#ifndef DT_X86_INSN_H
#define DT_X86_INSN_H

#include <stddef.h>
#include <stdint.h>

/*
 * Length of the 64-bit mode instruction at p (n bytes available), or -1
 * if it is not one this decoder knows (invalid, or an encoding it does
 * not handle: the caller then stops there).
 */
int dt_x86_insn_len(const uint8_t *p, size_t n);

#endif
