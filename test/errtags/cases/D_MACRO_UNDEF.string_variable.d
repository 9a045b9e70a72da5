/* $$nosuch: a macro variable that does not exist, as a string. */
BEGIN
{
	trace($$nosuch);
}
