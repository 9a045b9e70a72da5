/* A string cast to a pointer. */
BEGIN
{
	x = (char *)execname;
}
