/* A character constant with no character. */
BEGIN
{
	x = '';
}
