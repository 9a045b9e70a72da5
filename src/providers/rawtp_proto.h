/*
 * A raw tracepoint's arguments: the kernel's BTF describes each as the
 * typedef btf_trace_<event>, a pointer to a function whose first
 * parameter is the tracepoint's private data and whose others are
 * TP_PROTO's.  Where BTF does not describe the event (a module's
 * tracepoint without module BTF), only their number can be found, by
 * trying what the verifier lets a raw tracepoint program read.
 */
#ifndef DT_RAWTP_PROTO_H
#define DT_RAWTP_PROTO_H

#include <stdbool.h>
#include <stdint.h>

#define RAWTP_MAX_ARGS 10	/* argN slots in the probe context */

struct btf;

struct rawtp_proto {
	int nargs;			/* -1: not known */
	bool typed;			/* types[] are BTF ids in btf */
	const struct btf *btf;
	uint32_t types[RAWTP_MAX_ARGS];
};

/* TP_PROTO of `event` from btf (which may be NULL); false if btf does not have it. */
bool dt_rawtp_proto_btf(const struct btf *btf, const char *event, struct rawtp_proto *p);

/*
 * The number of arguments of `event`, found by loading and attaching a
 * program that reads argument n - 1, from RAWTP_MAX_ARGS down; -1 if no
 * program attaches (no such raw tracepoint, or no BPF).
 */
int dt_rawtp_count_args(const char *event);

#endif
