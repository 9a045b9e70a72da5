/* llquantize( ) with a variable low magnitude. */
BEGIN
{
	x = 0;
	@ = llquantize(1, 10, x, 2, 10);
}
