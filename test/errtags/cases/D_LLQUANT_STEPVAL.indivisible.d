/* llquantize( ) steps below the factor that do not divide it. */
BEGIN
{
	@ = llquantize(1, 10, 0, 2, 3);
}
