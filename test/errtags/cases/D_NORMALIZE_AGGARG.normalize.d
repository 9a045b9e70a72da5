/* normalize() of an integer. */
BEGIN
{
	normalize(1, 2);
}
