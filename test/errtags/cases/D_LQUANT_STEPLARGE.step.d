/* lquantize( ) step larger than the range. */
BEGIN
{
	@ = lquantize(1, 0, 10, 20);
}
