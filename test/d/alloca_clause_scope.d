/*
 * alloca( )'d memory lives only as long as its clause: a pointer kept in
 * a variable is an invalid address in the next clause, for loads as for
 * stores, even when that clause allocates nothing itself (and, as for any
 * fault, what the clause traced before it is dropped).
 */
#pragma D option quiet

BEGIN
{
	self->p = (int *)alloca(2 * sizeof(int));
	self->p[1] = 7;
	printf("first %d\n", self->p[1]);
}

BEGIN
{
	printf("second\n");
	printf("read %d\n", self->p[1]);
}

BEGIN
{
	printf("third\n");
	*self->p = 1;
	printf("stored\n");
}

BEGIN
{
	exit(0);
}

ERROR
{
	printf("fault %d\n", arg4);
}
