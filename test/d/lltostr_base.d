/*
 * lltostr(v, base), DTrace's rule: base 16 is prefixed "0x", base 8 has a
 * leading 0, bases other than 10 show the unsigned 64-bit pattern, and a
 * base outside 2..36 is an illegal operation (the clause's output is
 * discarded).
 */
#pragma D option quiet

BEGIN
{
	printf("[%s][%s][%s][%s][%s]\n", lltostr(255, 16), lltostr(0, 16), lltostr(8, 8),
	    lltostr(0, 8), lltostr(0, 2));
	printf("[%s][%s][%s]\n", lltostr(-1, 16), lltostr(-5, 2), lltostr(71, 36));
	printf("[%s][%s][%s]\n", lltostr(-42, 10), lltostr(5, 2),
	    lltostr(-9223372036854775807 - 1, 8));
}

BEGIN
{
	b = 1;
	printf("not printed: %s\n", lltostr(3, b));
}

BEGIN
{
	b = 37;
	printf("not printed: %s\n", lltostr(3, b));
}

BEGIN
{
	exit(0);
}

ERROR
{
	printf("fault %d %d\n", arg4, arg5);
}
