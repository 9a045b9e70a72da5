/* An aggregating function's dynamic value as an operand of ?:. */
BEGIN
{
	x = arg0 ? count() : 1;
}
