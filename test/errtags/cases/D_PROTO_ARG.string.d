/* An integer for a string parameter. */
BEGIN
{
	trace(strlen(1));
}
