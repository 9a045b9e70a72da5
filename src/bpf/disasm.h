/* BPF instruction disassembly (for -S). */
#ifndef DT_BPF_DISASM_H
#define DT_BPF_DISASM_H

#include <linux/bpf.h>
#include <stddef.h>

#include "base/util.h"

/* Append one instruction's text (no newline); returns instructions used (1 or 2). */
int bo_disasm_insn(struct dt_strbuf *sb, const struct bpf_insn *insn, size_t left);

#endif
