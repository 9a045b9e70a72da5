/*
 * Shifts by counts out of range, constant or not, in every width: DTrace
 * shifts the 64-bit value by the count modulo 64 (its parser folds with a
 * uintmax_t shift, its code shifts a register, which BPF defines modulo
 * 64), so x << 64 is x and x << -1 is x << 63.  The result has the left
 * operand's type; >> is arithmetic when that type is signed.
 */
#pragma D option quiet

char c;
unsigned char uc;
short s;
unsigned short us;
int i;
unsigned int ui;
long l;
unsigned long ul;
int n64, n70, nm1;

BEGIN
{
	c = -3; uc = 0xf3; s = -300; us = 0xfff3; i = -5; ui = 0xfffffff3;
	l = -7; ul = 0xfffffffffffffff3; n64 = 64; n70 = 70; nm1 = -1;

	/* Constant left operands: folded. */
	printf("%d %d %d\n", 1 << 64, 1 >> 70, (long long)(1 << -1));
	printf("%d %d %d\n", -16 >> 66, 5 << 65, 0x80 >> 71);
	printf("%x %x\n", 1LL << 64, (long long)(1 << 63) - 1);

	/* Variables shifted by constants out of range. */
	printf("%d %d %d %d\n", c << 64, c >> 70, uc << 64, uc >> 70);
	printf("%d %d %d %d\n", s << 64, s >> 70, us << 64, us >> 70);
	printf("%d %d %u %u\n", i << 64, i >> 70, ui << 64, ui >> 70);
	printf("%d %d %u %u\n", l << 64, l >> 70, ul << 64, ul >> 70);
	printf("%x %x %x %x\n", (long long)(i << -1), (long long)(l << -1), l >> -1,
	    ul >> -1);
	printf("%x %x %x\n", (long long)(c << 127), (long long)(ui << 200), l >> 200);

	/* Counts in variables: the same rule at run time. */
	printf("%d %d %d %d\n", i << n64, i >> n70, ul >> n70, l >> nm1);
	printf("%x %x\n", (long long)(i << nm1), 1 << n64);

	/* Compound assignments. */
	l = -7; l <<= 64; printf("%d ", l);
	l = -7; l >>= 70; printf("%d ", l);
	ul = 0xff; ul <<= -1; printf("%x\n", ul);
	exit(0);
}
