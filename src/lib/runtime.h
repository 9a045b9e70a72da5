/*
 * The loaded state of a handle after dtrace_go(): the BPF object, the
 * program groups and their attachments, the ring buffer and the live
 * global data.
 */
#ifndef DT_RUNTIME_H
#define DT_RUNTIME_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/util.h"

struct bpf_object;
struct bpf_link;
struct ring_buffer;
struct dt_group;
struct dtrace_hdl;
struct dt_specstate;

struct dt_runtime {
	DT_VEC(struct dt_group *) groups;
	struct dt_group *begin, *end;	/* groups the consumer runs */
	struct bpf_object *obj;
	struct ring_buffer *ring;
	volatile uint32_t *state;	/* dt_state in the live .bss */
	volatile int64_t *walloff;
	volatile uint64_t *wakemark;	/* BSS_WAKEMARK (go.c) */
	int cpuinfo_fd;
	int ncpus;
	uint64_t *drops_seen;		/* per CPU and kind, already reported */
	uint64_t pass_bytes;		/* read from the ring in this pass ... */
	bool pass_full;			/* ... up to bufsize: more is waiting */
	bool error_clauses;		/* some clause enables ERROR */
	struct dt_specstate *specs;	/* speculations (consumer/spec.c), NULL if unused */
	struct dt_waitset *wait;	/* what the consumer sleeps on (consumer/waitset.c) */
	struct bpf_link *vtime_link;	/* dt_vtime_switch on sched_switch, if vtimestamp is read */
};

/* Build the program groups and every function of the object (cg_prog.c). */
int dt_cg_programs(struct dtrace_hdl *dtp, struct dt_runtime *rt);

/* The loaded bpf_object (NULL before dtrace_go). */
struct bpf_object *dt_runtime_object(struct dtrace_hdl *dtp);

/* Tear down links, programs and maps; safe to call more than once. */
void dt_runtime_destroy(struct dtrace_hdl *dtp);

#endif
