/* A constant with more digits than 64 bits hold. */
BEGIN
{
	x = 0x10000000000000000;
}
