/* llquantize( ) with another step count than before. */
BEGIN
{
	@ = llquantize(1, 10, 0, 2, 10);
	@ = llquantize(1, 10, 0, 2, 5);
}
