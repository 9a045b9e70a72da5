/*
 * Running one optimisation pass (or all) over an instruction sequence
 * whose jumps have their offsets, and comparing what is left with the
 * expected sequence (jumps with their new offsets).
 */
#ifndef OPT_HELPERS_H
#define OPT_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compiler/cg_opt.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

typedef bool (*opt_pass)(struct cg_opt *o);

/* Run `pass` (NULL: all of them, to the fixed point) over in[0..n); the result in out, its length returned. */
static inline size_t opt_apply(opt_pass pass, const struct bpf_insn *in, size_t n,
			       struct bpf_insn *out)
{
	struct bpf_insn *v = malloc(n * sizeof(*v));
	int *target = malloc((n + 1) * sizeof(*target));
	uint32_t *newpos = malloc((n + 1) * sizeof(*newpos));
	struct cg_opt o;

	assert_non_null(v), assert_non_null(target), assert_non_null(newpos);
	memcpy(v, in, n * sizeof(*v));
	for (size_t i = 0; i < n; i++)
		target[i] = cg_opt_is_jump(&v[i]) ? (int)i + 1 + v[i].off : -1;
	assert_int_equal(cg_opt_init(&o, v, n, target), 0);
	if (pass != NULL) {
		/* Like the driver: passes that need liveness compute it themselves. */
		pass(&o);
	} else {
		cg_opt_run(&o);
	}
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		newpos[i] = (uint32_t)k;
		if (!o.del[i])
			k++;
	}
	newpos[n] = (uint32_t)k;
	for (size_t i = 0; i < n; i++) {
		if (o.del[i])
			continue;
		out[newpos[i]] = v[i];
		if (o.target[i] >= 0)
			out[newpos[i]].off = (int16_t)((int)newpos[o.target[i]] - (int)newpos[i] - 1);
	}
	cg_opt_free(&o);
	free(v), free(target), free(newpos);
	return k;
}

static inline void opt_print(const char *what, const struct bpf_insn *v, size_t n)
{
	fprintf(stderr, "%s:\n", what);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "  %2zu: code %02x dst %d src %d off %d imm %d\n", i, v[i].code,
			v[i].dst_reg, v[i].src_reg, v[i].off, v[i].imm);
}

/* The pass turns in[] into want[]. */
static inline void opt_expect(opt_pass pass, const struct bpf_insn *in, size_t n,
			      const struct bpf_insn *want, size_t nwant)
{
	struct bpf_insn out[256];

	assert_true(n <= 256);
	size_t k = opt_apply(pass, in, n, out);
	bool same = k == nwant;
	for (size_t i = 0; same && i < k; i++)
		same = memcmp(&out[i], &want[i], sizeof(out[i])) == 0;
	if (!same) {
		opt_print("got", out, k);
		opt_print("want", want, nwant);
	}
	assert_true(same);
}

/* The pass leaves in[] as it is. */
static inline void opt_keep(opt_pass pass, const struct bpf_insn *in, size_t n)
{
	opt_expect(pass, in, n, in, n);
}

#define EXPECT(pass, in, want) opt_expect(pass, in, N(in), want, N(want))
#define KEEP(pass, in) opt_keep(pass, in, N(in))

#endif
