/* trace() after commit(). */
BEGIN
{
	commit(1);
	trace(1);
}
