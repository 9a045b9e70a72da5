/*
 * The thread-local a predicate reads first is read once per clause: later
 * reads take the value the predicate read until the clause stores to the
 * variable (=, op=, ++, --, = 0), after which they read the variable
 * again; in ?: and && the value is the one stored last.
 */
#pragma D option quiet

self int none;

BEGIN
{
	self->x = 5;
	self->y = 0;
}

BEGIN
/self->x/
{
	printf("%d %d\n", self->x, self->x * 2);
	self->x = 7;
	printf("after =: %d\n", self->x);
	self->x++;
	printf("after ++: %d %d\n", self->x, self->x + 1);
	self->x -= 3;
	printf("after -=: %d\n", self->x);
	printf("in ?: %d\n", self->x > 4 ? (self->x = 100) : 0);
	printf("after ?: %d\n", self->x);
	self->x = 0;
	printf("after = 0: %d\n", self->x);
}

BEGIN
/self->x == 0 && self->y == 0/
{
	printf("both zero: %d %d\n", self->x, self->y);
	self->y += 3;
	printf("y %d, x %d\n", self->y, self->x);
}

BEGIN
/(self->z = 3) == 3/
{
	printf("z %d\n", self->z);
	self->z--;
	printf("z %d\n", self->z);
}

BEGIN
/self->y++ == 3/
{
	printf("y was 3, now %d\n", self->y);
}

BEGIN
/self->none/
{
	printf("never printed\n");
}

BEGIN
{
	exit(0);
}
