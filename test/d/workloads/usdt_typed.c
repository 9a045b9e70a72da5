/*
 * USDT argument types (usdt_types.sh).  With -DHEADER, the header dtrace
 * -h writes for usdt_typed.d: dttyped:::req("select 1", -7, "x"),
 * dttyped:::narrow(-3), dttyped:::swapped(5, 6), dttyped:::none().  With
 * -DCALLS, the same probes as calls of DTrace's <sys/sdt.h> convention,
 * for dtrace -G.  Always also SystemTap-style notes of provider dtstap
 * with sized operands: sized(-5 as int32, 2^40 as an 8-byte unsigned,
 * -7 as int16, 250 as uint8) from two sites in main, the second passing
 * its first argument as 8 bytes signed (-(2^33)); plain(9) without a
 * size; one(-5 as int32, 65535 as uint16).
 */
#if defined(HEADER)
#include "usdt_typed.h"
#elif defined(CALLS)
extern void __dtrace_dttyped___req(unsigned long, unsigned long, unsigned long);
extern void __dtrace_dttyped___narrow(unsigned long);
extern void __dtrace_dttyped___swapped(unsigned long, unsigned long);
extern void __dtrace_dttyped___none(void);
#define DTTYPED_REQ(a, b, c) \
	__dtrace_dttyped___req((unsigned long)(a), (unsigned long)(long)(b), (unsigned long)(c))
#define DTTYPED_NARROW(a) __dtrace_dttyped___narrow((unsigned long)(long)(a))
#define DTTYPED_SWAPPED(a, b) __dtrace_dttyped___swapped((unsigned long)(a), (unsigned long)(b))
#define DTTYPED_NONE() __dtrace_dttyped___none()
#endif

/* A stapsdt note and its .stapsdt.base, with the operands given. */
#define STAP(name, args, ...) \
	__asm__ __volatile__("990:\tnop\n" \
		"\t.pushsection .note.stapsdt,\"?\",\"note\"\n" \
		"\t.balign 4\n" \
		"\t.4byte 992f-991f, 994f-993f, 3\n" \
		"991:\t.asciz \"stapsdt\"\n" \
		"992:\t.balign 4\n" \
		"993:\t.8byte 990b\n" \
		"\t.8byte _.stapsdt.base\n" \
		"\t.8byte 0\n" \
		"\t.asciz \"dtstap\"\n" \
		"\t.asciz \"" name "\"\n" \
		"\t.asciz \"" args "\"\n" \
		"994:\t.balign 4\n" \
		"\t.popsection\n" \
		"\t.ifndef _.stapsdt.base\n" \
		"\t.pushsection .stapsdt.base,\"aG\",\"progbits\",.stapsdt.base,comdat\n" \
		"\t.weak _.stapsdt.base\n" \
		"\t.hidden _.stapsdt.base\n" \
		"_.stapsdt.base:\t.space 1\n" \
		"\t.size _.stapsdt.base, 1\n" \
		"\t.popsection\n" \
		"\t.endif\n" :: __VA_ARGS__)

/* Read before the probes: copyinstr() cannot read a page not faulted in. */
char q[] = "select 1", x[] = "x";
volatile char sink;

int main(void)
{
	sink = q[0] + x[0];
	int i32 = -5;
	unsigned long u64 = 1UL << 40;
	short i16 = -7;
	unsigned char u8 = 250;
	long i64 = -(1L << 33);
	long plain = 9;

	STAP("sized", "-4@%k0 8@%q1 -2@%w2 1@%b3", "r"(i32), "r"(u64), "r"(i16), "r"(u8));
	STAP("sized", "-8@%q0 8@%q1 -2@%w2 1@%b3", "r"(i64), "r"(u64), "r"(i16), "r"(u8));
	STAP("plain", "%q0", "r"(plain));
	STAP("one", "-4@%k0 2@%w1", "r"(i32), "r"((unsigned short)65535));
#if defined(HEADER) || defined(CALLS)
	DTTYPED_REQ(q, -7, x);
	DTTYPED_NARROW(-3);
	DTTYPED_SWAPPED(5, 6);
	DTTYPED_NONE();
#endif
	return 0;
}
