/* An aggregation after commit(). */
BEGIN
{
	commit(1);
	@ = count();
}
