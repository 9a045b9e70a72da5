/* long with char in a cast. */
BEGIN
{
	x = (char long)1;
}
