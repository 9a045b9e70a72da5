/* long with a typedef name, even of an integer type. */
long uint32_t x;
BEGIN
{
	exit(0);
}
