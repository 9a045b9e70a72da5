/* Operator += on a string. */
BEGIN
{
	s = "a";
	s += 1;
}
