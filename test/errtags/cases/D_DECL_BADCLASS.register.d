/* A variable declared register (without a type). */
register x;
BEGIN
{
	exit(0);
}
