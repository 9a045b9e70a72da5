/* An aggregating function used as a value. */
BEGIN
{
	x = count;
}
