/* Kernel data symbols named with D's scoping operator (ksym.c). */
#ifndef DT_KSYM_H
#define DT_KSYM_H

struct dt_node;
struct dt_pcb;

/*
 * Turn the identifier `n` ("vmlinux`jiffies", "`jiffies") into a read of
 * the kernel variable, *(T *)address, or fail with DTrace's error tag
 * saying what the kernel does not provide.
 */
void dt_ksym_cook(struct dt_pcb *pcb, struct dt_node *n);

#endif
