/* A name never declared or assigned. */
BEGIN
{
	trace(nosuchvariable);
}
