/*
 * An expression statement is evaluated for its side effects and faults,
 * as DTrace evaluates a DIFEXPR action: a string is a pointer whose
 * characters are read only when used, so the string stringof() or a cast
 * would make is not read when nothing uses it (here at addresses 1, 2, 3
 * and NULL), also in ?: and on the left of a comma.  Loads, assignments
 * and calls in such an expression still happen: *(int *)8 and
 * strlen(stringof(16)) fault, as in DTrace.
 */
#pragma D option quiet
BEGIN
{
	stringof(1);
	x = 2;
	(string)(char *)x;
	s = strchr("abc", 'z');
	s;
	x == 2 ? stringof(3) : "three";
	stringof(4), n = 5;
	n++, stringof(6);
	printf("n %d s %s\n", n, s == NULL ? "NULL" : s);
}
BEGIN
{
	n = 10;
	*(int *)8;
	n = 11;
}
BEGIN
{
	strlen(stringof(16));
}
BEGIN
{
	printf("n %d\n", n);
	exit(0);
}
ERROR
{
	printf("fault %d at 0x%x\n", arg4, arg5);
}
