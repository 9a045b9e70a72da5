/* Two statements not separated by a semicolon. */
BEGIN
{
	x = 1
	y = 2;
}
