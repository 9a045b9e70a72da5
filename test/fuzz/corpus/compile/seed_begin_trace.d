/* The default output: header, CPU/ID/FUNCTION:NAME prefix, trace() of a string. */
BEGIN
{
	trace("hello");
	exit(0);
}
