/* An aggregating function called with too many arguments. */
BEGIN
{
	@ = count(1);
}
