/* Calling a declared global variable. */
int x;

BEGIN
{
	x();
}
