/* Operator ++ on a sum. */
BEGIN
{
	x = 1;
	(x + 1)++;
}
