/* One argument more than the program uses. */
BEGIN
{
	trace($1);
}
