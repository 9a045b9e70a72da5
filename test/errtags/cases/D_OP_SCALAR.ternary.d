/* A ?: condition that is a string. */
BEGIN
{
	x = "a" ? 1 : 2;
}
