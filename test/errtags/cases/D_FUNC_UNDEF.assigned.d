/* Calling a variable that is only assigned so far (DTrace looks names up while parsing). */
BEGIN
{
	x = 1;
	x();
}
