/* Calling a clause-local variable. */
BEGIN
{
	this->f();
}
