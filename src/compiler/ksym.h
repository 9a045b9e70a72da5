/* Kernel data symbols named with D's scoping operator (ksym.c). */
#ifndef DT_KSYM_H
#define DT_KSYM_H

struct dtrace_hdl;

/* Why the kernel data symbol `scoped` ("vmlinux`jiffies", "`jiffies") cannot be read. */
const char *dt_ksym_problem(struct dtrace_hdl *dtp, const char *scoped);

#endif
