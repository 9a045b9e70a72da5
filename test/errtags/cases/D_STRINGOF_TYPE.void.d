/* stringof a void expression. */
BEGIN
{
	x = stringof(trace(1));
}
