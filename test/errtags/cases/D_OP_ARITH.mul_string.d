/* An operand of binary * that is not of arithmetic type (a string). */
BEGIN
{
	x = 3 * "abc";
}
