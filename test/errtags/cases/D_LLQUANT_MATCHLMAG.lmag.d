/* llquantize( ) with another low magnitude than before. */
BEGIN
{
	@ = llquantize(1, 10, 0, 2, 10);
	@ = llquantize(1, 10, 1, 2, 10);
}
