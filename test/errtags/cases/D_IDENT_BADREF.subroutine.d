/* A subroutine used as a value. */
BEGIN
{
	x = strlen;
}
