/*
 * Unary -, ~, + and shifts keep their (left) operand's type, as DTrace's
 * compiler types them (dt_cook_op1/op2): the value is the type's width.
 * A declared variable wins over a type of its name (the kernel's u16).
 */
#pragma D option quiet

uint8_t u8;
uint16_t u16;
char c;

BEGIN
{
	u8 = 1;
	u16 = 0x8001;
	c = 100;
	printf("%d %d %d %d\n", -u8, ~u8, +u8, u8 << 4);
	printf("%d %d %d\n", u16 << 1, -u16, u16 >> 15);
	printf("%d %d\n", c << 1, (int)c << 1);
	printf("%d %d\n", sizeof(-u8), sizeof(u16 << 1));
	exit(0);
}
