/* Assignment to a built-in variable. */
BEGIN
{
	arg0 = 1;
}
