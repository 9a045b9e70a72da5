/* lquantize( ) limit below its base. */
BEGIN
{
	@ = lquantize(1, 10, 0);
}
