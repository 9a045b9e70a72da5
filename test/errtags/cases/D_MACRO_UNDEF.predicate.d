/* $3 in a predicate with two arguments given. */
BEGIN
/$3 > 0/
{
	trace($1);
	trace($2);
}
