/* A string for an integer parameter. */
BEGIN
{
	trace(progenyof("x"));
}
