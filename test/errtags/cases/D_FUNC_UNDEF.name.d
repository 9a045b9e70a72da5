/* Calling a name DTrace does not know. */
BEGIN
{
	foo(1);
}
