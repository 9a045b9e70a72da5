/* self and this in one declaration. */
self this int x;
BEGIN
{
	exit(0);
}
