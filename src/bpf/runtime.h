/*
 * The loaded state of a handle after dtrace_go(): the BPF object, the
 * program groups and their attachments, the ring buffer and the live
 * global data.
 */
#ifndef DT_RUNTIME_H
#define DT_RUNTIME_H

#include <stdbool.h>
#include <stdint.h>

#include "base/provider.h"
#include "base/util.h"

struct bpf_object;
struct bpf_link;
struct ring_buffer;
struct dt_group;
struct dt_specstate;

struct dt_runtime {
	struct dt_progset ps;		/* the programs, as the code generator formed them */
	struct bpf_object *obj;
	struct ring_buffer *ring;
	volatile uint32_t *state;	/* dt_state in the live .bss */
	volatile int64_t *walloff;
	volatile uint64_t *wakemark;	/* BSS_WAKEMARK (go.c) */
	volatile uint64_t *drops;	/* BSS_DROPS: drop counts by CPU (base/maps.h) */
	size_t drops_cpus;		/* CPUs it has counts for */
	int cpuinfo_fd;
	uint64_t *drops_seen;		/* per CPU and kind, already reported */
	uint64_t pass_bytes;		/* read from the ring in this pass ... */
	bool pass_full;			/* ... up to bufsize: more is waiting */
	struct dt_specstate *specs;	/* speculations (consumer/spec.c), NULL if unused */
	struct dt_waitset *wait;	/* what the consumer sleeps on (consumer/waitset.c) */
	struct bpf_link *vtime_link;	/* dt_vtime_switch on sched_switch, if vtimestamp is read */
	DT_VEC(int) outer_models;	/* maps arrays of maps are made from (lib/agg_outer.c) */
};

#endif
