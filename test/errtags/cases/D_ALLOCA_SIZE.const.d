/* alloca( ) of a constant size larger than scratchsize. */
BEGIN
{
	x = alloca(100000);
}
