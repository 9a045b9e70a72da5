/* A newline inside a character constant. */
BEGIN
{
	x = 'a
';
}
