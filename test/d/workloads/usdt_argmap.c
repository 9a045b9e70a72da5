/*
 * USDT probes with translated argument lists (usdt_argmap.sh).  With
 * -DHEADER, the header dtrace -h writes for usdt_argmap.d; with -DCALLS,
 * calls of DTrace's <sys/sdt.h> convention, for dtrace -G.  Fires
 * dtmap:::dup(7, "str"), drop(1, 2, 3), gone(4), pos(-1, 9).
 */
#if defined(HEADER)
#include "usdt_argmap.h"
#else
extern void __dtrace_dtmap___dup(unsigned long, unsigned long);
extern void __dtrace_dtmap___drop(unsigned long, unsigned long, unsigned long);
extern void __dtrace_dtmap___gone(unsigned long);
extern void __dtrace_dtmap___pos(unsigned long, unsigned long);
#define DTMAP_DUP(n, s) __dtrace_dtmap___dup((unsigned long)(long)(n), (unsigned long)(s))
#define DTMAP_DROP(a, b, c) __dtrace_dtmap___drop((a), (b), (c))
#define DTMAP_GONE(a) __dtrace_dtmap___gone(a)
#define DTMAP_POS(a, b) __dtrace_dtmap___pos((unsigned long)(long)(a), (b))
#endif

/* Read before the probes: copyinstr() cannot read a page not faulted in. */
char s[] = "str";
volatile char sink;

int main(void)
{
	sink = s[0];
	DTMAP_DUP(7, s);
	DTMAP_DROP(1, 2, 3);
	DTMAP_GONE(4);
	DTMAP_POS(-1, 9);
	return 0;
}
