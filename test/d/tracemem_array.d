/*
 * tracemem() takes an array as its address, as DTrace's
 * dt_node_is_pointer() counts arrays as pointers: a D array, a member
 * array, a kernel char array.
 */
#pragma D option quiet

int a[4];
struct { short n; char c[6]; } s;

BEGIN
{
	a[1] = 0x41424344;
	s.c[0] = 'h';
	s.c[1] = 'i';
	tracemem(a, 16);
	tracemem(s.c, 6);
	tracemem(curthread->comm, 16, 6);
	exit(0);
}
