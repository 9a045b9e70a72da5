/* A predicate of type string. */
BEGIN
/execname/
{
	exit(0);
}
