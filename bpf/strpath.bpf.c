/*
 * Path functions: basename(), dirname(), cleanpath().  `nb` is the number
 * of bytes of a string (strsize + 1); `w` is the work area of strutil.h
 * (the result in its first buffer).
 */
#include "strutil.h"

enum { PH_TRAIL, PH_BASE, PH_SEP, PH_DONE };

/*
 * basename() (dir == 0) and dirname() (dir == 1), as DTrace defines them:
 * trailing slashes do not count, "" and names without a slash have the
 * dirname ".", a path of slashes only is "/".  One backward pass finds
 * the last character of the basename, its first, and the last of the
 * dirname; the pass keeps them in memory so that the verifier's paths
 * through the loop meet again at every step.
 */
DT_RT u64 dt_rt_pathpart(u64 w, u64 s, u64 nb, u64 dir)
{
	char *d = (char *)w, *t = d + DT_SBUF(nb);
	u64 *st = dt_words(d, nb);
	u64 len = dt_copy_str(t, nb, (const void *)s);

	if (len == 0 || len >= nb) {
		d[0] = '.';
		d[1] = '\0';
		return w;
	}
	st[0] = PH_TRAIL;
	st[1] = st[2] = st[3] = (u64)-1;	/* lastbase, firstbase, lastdir */
	for (u64 n = 0; n < DT_LOOP_MAX; n++) {
		if (n >= len)
			break;
		u64 i = dt_opaque(len - 1 - n);
		if (i >= nb)
			break;
		char c = t[i];
		u64 ph = *(volatile u64 *)&st[0];
		if (ph == PH_TRAIL) {
			if (c != '/') {
				st[1] = i;
				st[0] = PH_BASE;
			}
		} else if (ph == PH_BASE) {
			if (c == '/') {
				st[2] = i + 1;
				st[0] = PH_SEP;
			}
		} else if (ph == PH_SEP) {
			if (c != '/') {
				st[3] = i;
				st[0] = PH_DONE;
			}
		} else {
			break;
		}
	}
	__s64 lastbase = (__s64)*(volatile u64 *)&st[1];
	__s64 firstbase = (__s64)*(volatile u64 *)&st[2];
	__s64 lastdir = (__s64)*(volatile u64 *)&st[3];
	__s64 start, end;

	if (lastbase < 0)	/* only slashes */
		firstbase = lastbase = lastdir = 0;
	if (firstbase < 0) {
		if (dir) {
			d[0] = '.';
			d[1] = '\0';
			return w;
		}
		firstbase = 0;
	}
	if (dir) {
		start = 0;
		end = lastdir < 0 ? 0 : lastdir;
	} else {
		start = firstbase;
		end = lastbase;
	}
	if (start < 0 || end < start || (u64)end >= nb - 1) {
		d[0] = '\0';
		return w;
	}
	u64 n = (u64)(end - start) + 1;
	if (n >= nb)
		n = nb - 1;
	bpf_probe_read_kernel(d, n, t + start);
	d[n] = '\0';
	return w;
}

/*
 * What one step of cleanpath() needs.  The state that changes from step
 * to step (out's length j, the start of the current component cs, the
 * depth of the stack) is kept in map memory (st), which the verifier does
 * not track, so that it checks one step rather than every count of steps.
 */
struct clean_ctx {
	const char *src;	/* the path, NUL-terminated */
	char *out;
	__u16 *stack;		/* out's length before each kept component */
	u64 *st;		/* j, cs, depth */
	u64 nb;
	u64 rooted;
};

/* bpf_loop() step i: src[i] ends a component when it is '/' or NUL. */
static long clean_step(u64 i, void *arg)
{
	struct clean_ctx *x = arg;
	u64 nb = x->nb, *st = x->st;

	/*
	 * Bounds by constants as well as by nb: older verifiers (6.1) do not
	 * bound an index by a comparison with another register.
	 */
	if (i >= nb || i > DT_LOOP_MAX)
		return 1;
	char c = x->src[i];
	if (c != '/' && c != '\0')
		return 0;
	u64 j = st[0], cs = st[1];
	if (i < cs)		/* the root's slash */
		return 0;
	st[1] = i + 1;
	if (cs >= nb || j >= nb || cs > DT_LOOP_MAX || j > DT_LOOP_MAX)
		return 1;
	u64 clen = i - cs;
	const char *comp = x->src + cs;
	if (clen == 0 || (clen == 1 && comp[0] == '.')) {
		/* empty or "." */
	} else if (clen == 2 && comp[0] == '.' && comp[1] == '.') {
		/* depth - 1, wrapping at 0: 6.1's verifier bounds it only when checked as is. */
		u64 up = st[2] - 1;
		if (up < nb / 2 && up < DT_LOOP_MAX) {
			st[2] = up;
			st[0] = x->stack[up];
		} else if (!x->rooted) {
			/* A leading "..": kept, and never taken back. */
			u64 k = j;
			if (k > 0 && k < nb - 1)
				x->out[k++] = '/';
			if (k + 2 < nb) {
				x->out[k] = '.';
				x->out[k + 1] = '.';
				st[0] = k + 2;
			}
		}
	} else {
		u64 depth = st[2];
		if (depth >= nb / 2 || depth >= DT_LOOP_MAX)
			return 1;
		x->stack[depth] = (__u16)j;
		st[2] = depth + 1;
		u64 k = j;
		if (k > x->rooted && k < nb - 1)
			x->out[k++] = '/';
		if (clen >= nb || k + clen >= nb)
			return 1;
		bpf_probe_read_kernel(x->out + k, clen, comp);
		st[0] = k + clen;
	}
	return c == '\0';
}

/*
 * cleanpath(): "." and empty components dropped, ".." taking back the
 * component before it ("/.." is "/"; a relative path keeps the ".." it
 * cannot take back), no trailing slash; what is left of a relative path
 * is "." when nothing is.  "" stays "".
 */
DT_RT u64 dt_rt_cleanpath(u64 w, u64 s, u64 nb)
{
	char *d = (char *)w, *t = d + DT_SBUF(nb);
	u64 *st = dt_words(d, nb);
	u64 len = dt_copy_str(t, nb, (const void *)s);

	if (len == 0 || len >= nb) {
		d[0] = '\0';
		return w;
	}
	struct clean_ctx x = {
		.src = t, .out = d, .stack = (__u16 *)(t + DT_SBUF(nb)), .st = st, .nb = nb,
		.rooted = t[0] == '/',
	};
	st[0] = st[1] = st[2] = 0;
	if (x.rooted) {
		d[0] = '/';
		st[0] = st[1] = 1;
	}
	bpf_loop((__u32)(len + 1), clean_step, &x, 0);
	u64 j = *(volatile u64 *)&st[0];
	if (j == 0) {
		d[0] = '.';
		j = 1;
	}
	if (j >= nb)
		j = nb - 1;
	if (j > DT_LOOP_MAX)
		j = 0;
	d[j] = '\0';
	return w;
}
