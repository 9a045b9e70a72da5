/* A declaration that names nothing. */
int;
BEGIN
{
	exit(0);
}
