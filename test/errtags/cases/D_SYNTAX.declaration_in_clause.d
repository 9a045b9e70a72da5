/* A declaration inside a clause. */
BEGIN
{
	int x;
}
