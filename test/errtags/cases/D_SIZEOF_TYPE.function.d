/* sizeof of a function type. */
BEGIN
{
	x = sizeof (int (int));
}
