/* commit() after an aggregation in the same clause. */
BEGIN
{
	@ = count();
	commit(1);
}
