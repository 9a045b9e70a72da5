/* llquantize( ) negative low magnitude. */
BEGIN
{
	@ = llquantize(1, 10, -1, 2, 10);
}
