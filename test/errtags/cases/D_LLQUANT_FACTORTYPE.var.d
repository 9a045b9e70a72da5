/* llquantize( ) with a variable factor. */
BEGIN
{
	x = 10;
	@ = llquantize(1, x, 0, 2, 10);
}
