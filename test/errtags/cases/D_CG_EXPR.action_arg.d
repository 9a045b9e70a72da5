/* An action's result as another action's argument. */
BEGIN
{
	trace(stack());
}
