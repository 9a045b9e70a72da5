/* ?: with a string and an integer. */
BEGIN
{
	x = pid ? "a" : 2;
}
