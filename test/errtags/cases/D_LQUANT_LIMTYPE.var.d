/* lquantize( ) with a variable limit. */
BEGIN
{
	x = 10;
	@ = lquantize(1, 0, x);
}
