/* A predicate of type stack. */
BEGIN
/stack()/
{
	exit(0);
}
