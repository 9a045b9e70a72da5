/* Operator . on an integer. */
BEGIN
{
	x = pid.a;
}
