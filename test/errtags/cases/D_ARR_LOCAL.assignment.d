/* A clause-local variable assigned as an associative array. */
BEGIN
{
	this->a[1] = 2;
}
