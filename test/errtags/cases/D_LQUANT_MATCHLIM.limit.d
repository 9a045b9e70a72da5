/* lquantize( ) with another limit than before. */
BEGIN
{
	@ = lquantize(1, 0, 10);
	@ = lquantize(1, 0, 20);
}
