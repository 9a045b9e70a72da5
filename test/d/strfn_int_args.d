/*
 * The integer arguments of string functions are converted to their
 * prototype's types, as in a call of a C function: substr(string, int,
 * int), index(string, string, int), strchr(string, char).  DTrace's
 * substr() likewise reads only the low 32 bits of its arguments.
 */
#pragma D option quiet

long l;
unsigned int u;
short s;

BEGIN
{
	l = 4294967297;		/* 2^32 + 1: the int 1 */
	u = 4294967287;		/* the int -9 */
	s = -209;
	printf("[%s] [%s] [%s]\n", substr("hello", l), substr("hello", 0, l + 1),
	    substr("ab", s, u));
	printf("[%s] [%s]\n", substr("hello", 1, u), substr("hello", -4294967294));
	printf("%d %d\n", index("abcabc", "c", l + 2), rindex("abcabc", "a", l + 4));
	printf("[%s] [%s]\n", strchr("xyz", 0x179), strrchr("a.b.c", 0x22e));
	exit(0);
}
