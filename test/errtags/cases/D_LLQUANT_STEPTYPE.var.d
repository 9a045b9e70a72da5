/* llquantize( ) with a variable step count. */
BEGIN
{
	x = 10;
	@ = llquantize(1, 10, 0, 2, x);
}
