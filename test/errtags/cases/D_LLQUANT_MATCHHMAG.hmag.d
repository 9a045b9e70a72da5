/* llquantize( ) with another high magnitude than before. */
BEGIN
{
	@ = llquantize(1, 10, 0, 2, 10);
	@ = llquantize(1, 10, 0, 3, 10);
}
