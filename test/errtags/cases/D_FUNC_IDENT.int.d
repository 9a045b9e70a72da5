/* Calling an integer constant. */
BEGIN
{
	@ = tick-1();
}
