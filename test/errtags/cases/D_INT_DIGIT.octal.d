/* An octal constant with the digit 8. */
BEGIN
{
	x = 0778;
}
