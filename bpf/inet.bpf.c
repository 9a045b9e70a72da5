/*
 * Network address formatting: inet_ntoa(), inet_ntoa6(), inet_ntop(),
 * link_ntop().  `nb` is the number of bytes of a string (strsize + 1);
 * the result goes to the first buffer of the work area `w` (strutil.h).
 * A function returns 0 when it cannot read the address (the caller
 * reports the fault) and 1 for an address family or link type it does
 * not know (an illegal operation, as DTrace says).
 *
 * The output position lives in a word of the work area, read before and
 * written after each piece, so that the verifier checks the pieces one
 * after the other instead of every combination of their lengths.
 */
#include "strutil.h"

#define AF_INET		2
#define AF_INET6	10
#define ARPHRD_ETHER	1
#define ARPHRD_INFINIBAND	32

/*
 * A character goes out after a check of the position against the room
 * left, at a constant offset from one pointer: the verifier then knows
 * every store is in bounds, whatever the compiler does with the arithmetic.
 */
static __always_inline char *room(char *d, u64 *pos, u64 nb, u64 need)
{
	u64 j = *(volatile u64 *)pos;

	if (j >= nb || nb - j <= need)
		return 0;
	/* After the check, so that the addition cannot move before it. */
	return d + dt_opaque(j);
}

static __always_inline void advance(u64 *pos, u64 n)
{
	*pos = *(volatile u64 *)pos + n;
}

static __always_inline void put_char(char *d, u64 *pos, u64 nb, char c)
{
	char *p = room(d, pos, nb, 1);

	if (p == 0)
		return;
	p[0] = c;
	advance(pos, 1);
}

static __always_inline char hexdig(u64 v)
{
	return (char)(v < 10 ? '0' + v : 'a' + v - 10);
}

/*
 * Numbers go out a digit at a time: a string longer than strsize is the
 * whole text cut at strsize characters, so a number the cut falls in
 * keeps its leading digits (and nothing after the cut is written).
 */

/* v (0..255) in decimal. */
static __always_inline void put_dec8(char *d, u64 *pos, u64 nb, u64 v)
{
	if (v >= 100)
		put_char(d, pos, nb, (char)('0' + v / 100));
	if (v >= 10)
		put_char(d, pos, nb, (char)('0' + v / 10 % 10));
	put_char(d, pos, nb, (char)('0' + v % 10));
}

/* v (0..0xffff) in hex without leading zeros. */
static __always_inline void put_hex16(char *d, u64 *pos, u64 nb, u64 v)
{
	if (v >= 0x1000)
		put_char(d, pos, nb, hexdig(v >> 12));
	if (v >= 0x100)
		put_char(d, pos, nb, hexdig((v >> 8) & 15));
	if (v >= 0x10)
		put_char(d, pos, nb, hexdig((v >> 4) & 15));
	put_char(d, pos, nb, hexdig(v & 15));
}

/* Two hex digits, always. */
static __always_inline void put_hex8(char *d, u64 *pos, u64 nb, u64 v)
{
	put_char(d, pos, nb, hexdig((v >> 4) & 15));
	put_char(d, pos, nb, hexdig(v & 15));
}

static __always_inline void finish(char *d, u64 *pos, u64 nb)
{
	u64 j = *(volatile u64 *)pos;

	if (j >= nb)
		j = nb - 1;
	d[dt_opaque(j)] = '\0';
}

static __always_inline void dotted_quad(char *d, u64 *pos, u64 nb, const __u8 *a)
{
	put_dec8(d, pos, nb, a[0]);
	put_char(d, pos, nb, '.');
	put_dec8(d, pos, nb, a[1]);
	put_char(d, pos, nb, '.');
	put_dec8(d, pos, nb, a[2]);
	put_char(d, pos, nb, '.');
	put_dec8(d, pos, nb, a[3]);
}

DT_RT u64 dt_rt_inet_ntoa(u64 w, u64 addr, u64 nb)
{
	char *d = (char *)w;
	u64 *pos = dt_words(d, nb);
	__u8 a[4];

	if (addr == 0 || bpf_probe_read_kernel(a, sizeof(a), (const void *)addr) < 0)
		return 0;
	*pos = 0;
	dotted_quad(d, pos, nb, a);
	finish(d, pos, nb);
	return w;
}

/*
 * IPv6: the longest run of two or more zero groups (the first of equal
 * ones) is "::".  IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible
 * (::a.b.c.d, but not :: and ::1) addresses print as the IPv4 address,
 * or with their IPv6 prefix when strict.
 *
 * The address, its groups and the run being measured live in the work
 * area's words, read and written through volatile pointers: kept in
 * registers across the unrolled loops, they were spilled to some 230
 * bytes of stack, which with a clause's and its program's went past the
 * 512 bytes a program's calls may use together (before Linux 6.13).
 */
#define W6_ADDR		2	/* words 2, 3: the address */
#define W6_GROUPS	4	/* words 4, 5: its eight groups */
#define W6_BEST		6
#define W6_BESTLEN	7
#define W6_RUN		8

static __always_inline u64 ntoa6(char *d, u64 nb, u64 addr, u64 strict)
{
	u64 *pos = dt_words(d, nb);
	__u8 *a = (__u8 *)(pos + W6_ADDR);
	volatile __u16 *g = (volatile __u16 *)(pos + W6_GROUPS);
	volatile u64 *best = pos + W6_BEST, *bestlen = pos + W6_BESTLEN, *run = pos + W6_RUN;

	if (addr == 0 || bpf_probe_read_kernel(a, 16, (const void *)addr) < 0)
		return 0;
	*pos = 0;
#pragma unroll
	for (int i = 0; i < 8; i++)
		g[i] = (__u16)(a[2 * i] << 8 | a[2 * i + 1]);
	int zero96 = !(g[0] | g[1] | g[2] | g[3] | g[4]);
	int mapped = zero96 && g[5] == 0xffff;
	int compat = zero96 && g[5] == 0 && (g[6] != 0 || g[7] > 1);
	if (mapped || compat) {
		if (strict) {
			put_char(d, pos, nb, ':');
			put_char(d, pos, nb, ':');
			if (mapped) {
				put_hex16(d, pos, nb, 0xffff);
				put_char(d, pos, nb, ':');
			}
		}
		dotted_quad(d, pos, nb, a + 12);
		finish(d, pos, nb);
		return (u64)d;
	}
	/* best: the first group of the run, 8 if none */
	*best = 8;
	*bestlen = 1;
	*run = 0;
#pragma unroll
	for (int i = 0; i < 8; i++) {
		*run = g[i] == 0 ? *run + 1 : 0;
		if (*run > *bestlen) {
			*bestlen = *run;
			*best = i - *run + 1;
		}
	}
#pragma unroll
	for (int i = 0; i < 8; i++) {
		if (i >= *best && i < *best + *bestlen) {
			if (i == *best) {
				put_char(d, pos, nb, ':');
				if (i == 0)
					put_char(d, pos, nb, ':');
			}
			continue;
		}
		put_hex16(d, pos, nb, g[i]);
		if (i < 7)
			put_char(d, pos, nb, ':');
	}
	finish(d, pos, nb);
	return (u64)d;
}

DT_RT u64 dt_rt_inet_ntoa6(u64 w, u64 addr, u64 nb, u64 strict)
{
	return ntoa6((char *)w, nb, addr, strict);
}

DT_RT u64 dt_rt_inet_ntop(u64 w, u64 af, u64 addr, u64 nb)
{
	char *d = (char *)w;

	if ((int)af == AF_INET) {
		u64 *pos = dt_words(d, nb);
		__u8 a[4];
		if (addr == 0 || bpf_probe_read_kernel(a, sizeof(a), (const void *)addr) < 0)
			return 0;
		*pos = 0;
		dotted_quad(d, pos, nb, a);
		finish(d, pos, nb);
		return w;
	}
	/* inet_ntop() gives IPv4-mapped and -compatible addresses their prefix. */
	if ((int)af == AF_INET6)
		return ntoa6(d, nb, addr, 1);
	return 1;
}

/* Link-layer addresses: Ethernet (6 bytes) and InfiniBand (20), hex pairs. */
DT_RT u64 dt_rt_link_ntop(u64 w, u64 type, u64 addr, u64 nb)
{
	char *d = (char *)w;
	u64 *pos = dt_words(d, nb);
	__u8 a[20];
	int n;

	if ((int)type == ARPHRD_ETHER)
		n = 6;
	else if ((int)type == ARPHRD_INFINIBAND)
		n = 20;
	else
		return 1;
	if (addr == 0 || bpf_probe_read_kernel(a, (u64)n, (const void *)addr) < 0)
		return 0;
	*pos = 0;
	for (int i = 0; i < 20; i++) {
		if (i >= n)
			break;
		if (i > 0)
			put_char(d, pos, nb, ':');
		put_hex8(d, pos, nb, a[i]);
	}
	finish(d, pos, nb);
	return w;
}
