/* sizeof of a struct never defined. */
BEGIN
{
	x = sizeof (struct foo);
}
