/* lquantize( ) with another step than before. */
BEGIN
{
	@ = lquantize(1, 0, 10, 1);
	@ = lquantize(1, 0, 10, 2);
}
