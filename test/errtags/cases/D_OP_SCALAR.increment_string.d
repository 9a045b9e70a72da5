/* Operator ++ on a string variable. */
BEGIN
{
	s = "a";
	s++;
}
