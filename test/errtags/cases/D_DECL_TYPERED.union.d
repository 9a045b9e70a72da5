/* A union defined twice. */
union u { int a; };
union u { char b; };
BEGIN
{
	exit(0);
}
