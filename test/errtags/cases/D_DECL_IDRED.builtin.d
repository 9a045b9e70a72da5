/* A D built-in variable declared. */
int execname;
BEGIN
{
	exit(0);
}
