/* A predicate calling an action (void). */
BEGIN
/trace(1)/
{
	exit(0);
}
