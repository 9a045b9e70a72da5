/* lquantize( ) step of 0. */
BEGIN
{
	@ = lquantize(1, 0, 10, 0);
}
