/*
 * What pprof_collect.c gathers of an aggregation when it is printed and
 * pprof_write.c encodes: plain data, so that the profile can be written
 * again later (at the next printa() of another aggregation, at exit)
 * without the aggregation's snapshot or the symbols.
 */
#ifndef DT_PPROF_IMPL_H
#define DT_PPROF_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "base/util.h"
#include "consumer/pprof.h"

struct dt_pprof_frame {
	uint64_t addr;
	bool user;
	uint64_t pid;		/* user frames: the process */
	char *func;		/* the function, NULL if not known */
	char *mod;		/* the module (DTrace's name), NULL if not known */
	char *file;		/* the mapping's file, NULL: no mapping known */
	uint64_t start, limit, offset;	/* the mapping */
	bool exe;		/* the mapping's file is the process's program */
};

struct dt_pprof_label {
	char *key;
	char *str;		/* NULL: a number */
	int64_t num;
};

struct dt_pprof_sample {
	size_t frame0, nframes;	/* in frames, leaf first */
	size_t label0, nlabels;	/* in labels */
	int64_t value;
};

struct dt_pprof_agg {
	char *type;		/* the sample type */
	const char *unit;	/* "count", "nanoseconds" (static) */
	char *comment;		/* "@name: count()" */
	DT_VEC(struct dt_pprof_frame) frames;
	DT_VEC(struct dt_pprof_label) labels;
	DT_VEC(struct dt_pprof_sample) samples;
};

#endif
