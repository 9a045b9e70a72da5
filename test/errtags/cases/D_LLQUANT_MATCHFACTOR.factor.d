/* llquantize( ) with another factor than before. */
BEGIN
{
	@ = llquantize(1, 10, 0, 2, 10);
	@ = llquantize(1, 100, 0, 2, 100);
}
