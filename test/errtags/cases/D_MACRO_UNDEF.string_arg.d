/* $$2 with only one argument given. */
BEGIN
{
	trace($$2);
}
