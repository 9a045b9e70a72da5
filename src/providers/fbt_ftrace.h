/*
 * Which kernel functions carry an ftrace call site, the precondition of
 * every fbt mechanism (fentry, kprobe_multi, and kprobes, which refuse
 * "notrace" functions).  BTF also describes functions built without one.
 */
#ifndef DT_FBT_FTRACE_H
#define DT_FBT_FTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where ftrace's own code is, from kallsyms (0 when unknown). */
struct dt_fbt_text {
	uint64_t start, end;		/* _stext, _etext */
	uint64_t callers[2];		/* ftrace_caller, ftrace_regs_caller */
};

/*
 * Set ok[i] for each function address addrs[i] that starts with an ftrace
 * call site.  Returns 0, or a negative errno when the kernel's text cannot
 * be read (then nothing is known and ok[] is untouched).
 */
int dt_fbt_ftrace_sites(const struct dt_fbt_text *text, const uint64_t *addrs, size_t n,
			bool *ok);

#endif
