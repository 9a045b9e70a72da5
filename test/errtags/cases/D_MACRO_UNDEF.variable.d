/* A macro variable that does not exist ($nosuch). */
BEGIN
{
	trace($nosuch);
}
