/* lquantize( ) with more than 65535 levels. */
BEGIN
{
	@ = lquantize(1, 0, 1000000, 1);
}
