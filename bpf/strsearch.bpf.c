/*
 * String functions that search: index(), rindex(), strstr(), strchr(),
 * strrchr(), strtok().  `nb` is the number of bytes of a string
 * (strsize + 1); `w` is the work area of strutil.h.
 */
#include "strutil.h"

/*
 * Whether the candidate buffer c equals t over sb bytes.  The caller makes
 * their bytes past the searched-for string equal, so the comparison needs
 * no branch per byte: one path for the verifier per call.
 */
static __always_inline int same_words(const char *c, const char *t, u64 sb)
{
	u64 acc = 0;

	for (u64 k = 0; k < DT_LOOP_MAX / 8; k++) {
		if (k >= sb / 8)
			break;
		acc |= ((const u64 *)c)[k] ^ ((const u64 *)t)[k];
	}
	return acc == 0;
}

/* What one candidate position of find() needs. */
struct find_ctx {
	u64 s;			/* the string searched */
	char *c;		/* candidate buffer */
	char *tb;		/* t, padded */
	u64 *res;		/* the position found */
	__s64 start;
	u64 maxi;		/* the last position t fits at */
	u64 tlen, sb, nb;
	u64 rev;
};

/* bpf_loop() step n: is t at the n-th candidate position? 1 stops. */
static long find_step(u64 n, void *arg)
{
	struct find_ctx *x = arg;

	if (n >= x->nb)
		return 1;
	__s64 i = x->rev ? x->start - (__s64)n : x->start + (__s64)n;
	if (i < 0 || (u64)i > x->maxi || (u64)i >= x->nb)
		return 1;
	u64 tlen = x->tlen;
	if (tlen >= x->nb)
		return 1;
	bpf_probe_read_kernel(x->c, tlen, (const void *)(x->s + (u64)i));
	if (!same_words(x->c, x->tb, x->sb))
		return 0;
	*x->res = (u64)i;
	return 1;
}

/*
 * Position of t in s at or after `start` (backwards from `start` when
 * rev), or -1.  mode: nb << 2 | rev << 1 | start_given.  The positions
 * are tried by bpf_loop(), so the verifier checks one step, not strsize.
 */
static __always_inline __s64 find(char *w, u64 s, u64 t, __s64 start, u64 mode)
{
	u64 nb = mode >> 2, sb = DT_SBUF(nb);
	int rev = (mode >> 1) & 1, given = mode & 1;
	char *c = w, *tb = w + sb;
	u64 tlen = dt_copy_str(tb, nb, (const void *)t);
	u64 slen = dt_copy_str(c, nb, (const void *)s);

	if (tlen >= nb || slen >= nb || slen < tlen)
		return -1;
	u64 maxi = slen - tlen;
	if (rev) {
		if (!given)
			start = (__s64)maxi;
		if (start < 0)
			return -1;
		if ((u64)start > maxi)
			start = (__s64)maxi;
	} else if (start < 0) {
		start = 0;
	}
	/* The candidate's bytes past tlen are t's. */
	bpf_probe_read_kernel(c + tlen, sb - tlen, tb + tlen);
	u64 *res = dt_words(w, nb);
	*res = (u64)-1;
	struct find_ctx x = {
		.s = s, .c = c, .tb = tb, .res = res, .start = start, .maxi = maxi,
		.tlen = tlen, .sb = sb, .nb = nb, .rev = (u64)rev,
	};
	bpf_loop((__u32)nb, find_step, &x, 0);
	return (__s64)*(volatile u64 *)res;
}

DT_RT u64 dt_rt_index(u64 w, u64 s, u64 t, u64 start, u64 mode)
{
	return (u64)find((char *)w, s, t, (__s64)start, mode);
}

/* strstr(s, t): the rest of s from where t is, or NULL. */
DT_RT u64 dt_rt_strstr(u64 w, u64 s, u64 t, u64 nb)
{
	__s64 i = find((char *)w, s, t, 0, nb << 2);

	if (i < 0 || (u64)i >= nb)
		return 0;
	bpf_probe_read_kernel_str((char *)w, nb, (const void *)(s + (u64)i));
	return w;
}

/*
 * strchr(s, c) and (rev) strrchr(s, c): the rest of s from the first
 * (last) c, or NULL.  Looking for '\0' finds the terminator.
 */
DT_RT u64 dt_rt_strchr(u64 w, u64 s, u64 c, u64 nb, u64 rev)
{
	char *d = (char *)w, *t = d + DT_SBUF(nb);
	u64 *at = dt_words(d, nb);

	dt_copy_str(t, nb, (const void *)s);
	*at = (u64)-1;
	for (u64 i = 0; i < DT_LOOP_MAX; i++) {
		if (i >= nb)
			break;
		char ch = t[i];
		if (ch == (char)c) {
			*at = i;
			if (!rev)
				break;
		}
		if (ch == '\0')
			break;
	}
	u64 i = *(volatile u64 *)at;
	if (i >= nb)
		return 0;
	bpf_probe_read_kernel_str(d, nb, t + i);
	return w;
}

/*
 * strtok(s, delim).  The state (st: a word `next` and a copy of the
 * string) lives for one probe firing: next is 0 when there is nothing to
 * continue from, else 1 + the offset to continue at (past the string once
 * it is exhausted: NULL from then on).  s == 0 continues; with nothing to
 * continue from the result is the fault address 0 (the caller reports
 * it), signalled by returning 1.
 */
DT_RT u64 dt_rt_strtok(u64 w, u64 s, u64 delim, u64 st, u64 nb)
{
	char *d = (char *)w;
	u64 *next = (u64 *)st;
	char *str = (char *)(st + 8);
	__u8 map[32] = { 0 };
	u64 *words = dt_words(d, nb);
	char *del = d + DT_SBUF(nb);

	if (s != 0) {
		dt_copy_str(str, nb, (const void *)s);
		*next = 1;
	}
	u64 pos = *next;
	if (pos == 0)
		return 1;
	pos--;
	dt_copy_str(del, nb, (const void *)delim);
	for (u64 i = 0; i < DT_LOOP_MAX; i++) {
		if (i >= nb)
			break;
		__u8 ch = (__u8)del[i];
		if (ch == 0)
			break;
		map[ch >> 3] |= (__u8)(1 << (ch & 7));
	}
	/* Skip delimiters. */
	words[0] = nb;
	for (u64 n = 0; n < DT_LOOP_MAX; n++) {
		u64 i = dt_opaque(pos + n);
		if (n >= nb || i >= nb)
			break;
		__u8 ch = (__u8)str[i];
		if (ch == 0 || !(map[ch >> 3] & (1 << (ch & 7)))) {
			words[0] = ch == 0 ? nb : i;
			break;
		}
	}
	u64 first = *(volatile u64 *)&words[0];
	if (first >= nb) {
		*next = nb + 1;	/* exhausted: NULL from now on */
		return 0;
	}
	/* The token runs to the next delimiter or the end. */
	words[1] = nb;
	words[2] = 0;
	for (u64 n = 0; n < DT_LOOP_MAX; n++) {
		u64 i = dt_opaque(first + n);
		if (n >= nb || i >= nb)
			break;
		__u8 ch = (__u8)str[i];
		if (ch == 0 || (map[ch >> 3] & (1 << (ch & 7)))) {
			words[1] = i;
			words[2] = ch == 0;
			break;
		}
	}
	u64 end = *(volatile u64 *)&words[1];
	if (end >= nb || end <= first) {
		*next = nb + 1;	/* exhausted: NULL from now on */
		return 0;
	}
	u64 len = end - first;
	if (len >= nb)
		len = nb - 1;
	bpf_probe_read_kernel(d, len, str + first);
	d[len] = '\0';
	*next = *(volatile u64 *)&words[2] ? nb + 1 : end + 1;
	return w;
}
