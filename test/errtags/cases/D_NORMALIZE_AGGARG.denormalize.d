/* denormalize() of a string. */
BEGIN
{
	denormalize("a");
}
