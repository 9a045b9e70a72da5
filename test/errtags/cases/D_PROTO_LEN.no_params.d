/* An argument to a function that takes none. */
BEGIN
{
	trace(rand(1));
}
