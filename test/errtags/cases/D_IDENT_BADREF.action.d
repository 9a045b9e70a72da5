/* An action used as a value. */
BEGIN
{
	x = trace;
}
