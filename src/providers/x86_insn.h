/*
 * x86_64 instruction lengths, for pid offset probes: where the
 * instructions of a function start (a uprobe placed inside an instruction
 * would corrupt the traced program); and whether a function returns, for
 * pid return probes.
 */
#ifndef DT_X86_INSN_H
#define DT_X86_INSN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Length of the 64-bit mode instruction at p (n bytes available), or -1
 * if it is not one this decoder knows (invalid, or an encoding it does
 * not handle: the caller then stops there).
 */
int dt_x86_insn_len(const uint8_t *p, size_t n);

/*
 * Whether a function (its `size` bytes of code) can return to its caller:
 * it has a ret, or a jump out of it (a tail call, the callee's ret then
 * returning for it).  A function with neither never returns normally
 * (_start, one that ends in a call to exit() or abort()).  When the code
 * cannot be decoded to its end, the rest counts as returning if any of
 * its bytes could be a ret or a jmp.
 */
bool dt_x86_func_returns(const uint8_t *code, size_t size);

#endif
