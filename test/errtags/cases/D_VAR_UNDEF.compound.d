/* Operator += on a variable never assigned. */
BEGIN
{
	x += 2;
}
