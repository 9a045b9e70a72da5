/* lquantize( ) limit beyond 32 bits. */
BEGIN
{
	@ = lquantize(1, 0, 0x100000000);
}
