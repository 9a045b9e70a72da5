/* An aggregation assigned a subroutine's result. */
BEGIN
{
	@a = strlen("x");
}
