/* A subroutine called with too few arguments. */
BEGIN
{
	trace(substr("x"));
}
