/*
 * dynvarsize bounds an associative array (here two int elements with an
 * int key).  A store that cannot make its element is a dynamic variable
 * drop, and gives up its clause as DTrace does: nothing the clause traced
 * is output and nothing after the store runs.  An element deleted (set
 * to zero) gives its place back.
 */
#pragma D option quiet
#pragma D option dynvarsize=24

BEGIN
{
	a[1] = 1;
	a[2] = 2;
	printf("two made\n");
}

BEGIN
{
	printf("traced, then given up\n");
	a[3] = 3;
	printf("not reached\n");
}

BEGIN
{
	a[1] = 0;
	a[3] = 3;
	printf("%d %d %d\n", a[1], a[2], a[3]);
}

BEGIN
{
	exit(0);
}
