/* llquantize( ) with a variable high magnitude. */
BEGIN
{
	x = 2;
	@ = llquantize(1, 10, 0, x, 10);
}
