/* printa() whose first argument is neither a format nor an aggregation. */
BEGIN
{
	printa(1);
}
