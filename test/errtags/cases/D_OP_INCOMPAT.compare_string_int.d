/* A string compared with an integer. */
BEGIN
{
	x = execname < 3;
}
