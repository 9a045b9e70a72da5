/* An action's void result as an argument. */
BEGIN
{
	exit(trace(1));
}
