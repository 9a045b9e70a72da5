/* Operator ~ on a string. */
BEGIN
{
	x = ~"abc";
}
