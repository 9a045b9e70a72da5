/*
 * D's integer types have no integer promotions (the Dynamic Tracing Guide,
 * "Type Conversions"; DTrace's parser): - ~ + keep their operand's type, a
 * shift has its left operand's, a binary operator the operand type of
 * higher rank.  Comparisons are signed when that common type is: -1 <
 * (unsigned char)1.  Values live in 64-bit registers: an int product is
 * not reduced to 32 bits until it is stored or cast.
 */
#pragma D option quiet

char c;
unsigned char uc;
short s;
unsigned short us;
int i;
unsigned int ui;
long l;
int r;

BEGIN
{
	c = 100; uc = 200; s = -2; us = 2; i = -1; ui = 1; l = -64;

	/* The sizes of the results' types. */
	printf("%d %d %d %d\n", sizeof(-c), sizeof(~uc), sizeof(+s), sizeof(!c));
	printf("%d %d %d %d\n", sizeof(c << 1), sizeof(us >> 1), sizeof(c << l), sizeof(i << c));
	printf("%d %d %d %d\n", sizeof(c + c), sizeof(c * uc), sizeof(s - us), sizeof(c ? s : uc));

	/* Printed at their type's width. */
	printf("%d %d %d %d\n", c << 4, uc << 1, c + c, -uc);
	printf("%d %d\n", (long long)(c << 4), (long long)(c + c));

	/* Signed comparisons when the common type is signed. */
	printf("%d %d %d %d\n", i < uc, -1 < (unsigned char)1, s < us, l < ui);
	printf("%d %d %d\n", i < ui, i > 1u, (long long)-1 < 1u);
	r = 0;
	if (i < uc)
		r = 1;
	printf("%d %d\n", r, i < uc ? 10 : 20);

	/* 64-bit intermediate values: (2^31 - 1) * 2 / 2 is not -1. */
	i = 2147483647;
	printf("%d %d\n", i * 2 / 2, (int)(i * 2) / 2);
	exit(0);
}
