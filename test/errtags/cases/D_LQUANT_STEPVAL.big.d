/* lquantize( ) step beyond 16 bits. */
BEGIN
{
	@ = lquantize(1, 0, 1000000, 70000);
}
