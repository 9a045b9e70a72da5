/* lquantize( ) with another base than before. */
BEGIN
{
	@ = lquantize(1, 0, 10);
	@ = lquantize(1, 1, 10);
}
