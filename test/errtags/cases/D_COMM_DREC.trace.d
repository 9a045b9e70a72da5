/* commit() after trace() in the same clause. */
BEGIN
{
	trace(1);
	commit(1);
}
