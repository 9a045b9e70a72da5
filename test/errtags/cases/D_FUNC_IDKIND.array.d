/* Calling a declared associative array. */
int x[int];

BEGIN
{
	x(1);
}
