/* An aggregating function's dynamic value as an operand of the comma operator. */
BEGIN
{
	x = (count(), 1);
}
