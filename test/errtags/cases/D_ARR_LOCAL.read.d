/* A clause-local variable read as an associative array. */
BEGIN
{
	trace(this->a["k"]);
}
