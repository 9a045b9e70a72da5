/* lquantize( ) with a variable base. */
BEGIN
{
	x = 0;
	@ = lquantize(1, x, 10);
}
