/* Integer arithmetic with C's rules: signed and unsigned, 64-bit, shifts. */
#pragma D option quiet

BEGIN
{
	a = 7; b = -3;
	printf("%d %d %d %d %d\n", a + b, a - b, a * b, a / b, a % b);
	printf("%d %d\n", -7 / 2, -7 % 2);
	u = (unsigned int)0xffffffff;
	printf("%u %d\n", u, u + 1 == 0x100000000);
	printf("%d %d %d\n", 1 << 4, -16 >> 2, 0x80 >> 4);
	x = 0x7fffffffffffffff;
	printf("%d\n", x + 1 < 0);
	printf("%d %d %d %d\n", 3 < 4, 3 >= 4, 3 == 3, 3 != 3);
	printf("%d %d %d %d\n", 1 && 0, 1 || 0, 1 ^^ 1, !0);
	printf("%d %d %d\n", 6 & 3, 6 | 3, 6 ^ 3);
	printf("%d %d\n", a > 5 ? 100 : 200, b > 5 ? 100 : 200);
	c = 10; c += 5; c -= 3; c *= 2; c /= 4; c %= 4;
	printf("%d\n", c);
	d = 1; d <<= 3; d |= 1; d &= 0xd; d ^= 4; d >>= 1;
	printf("%d\n", d);
	e = 5; f = e++; g = ++e;
	printf("%d %d %d\n", e, f, g);
	exit(0);
}
