/* A character constant of nine characters: more than an int64_t holds. */
BEGIN
{
	x = 'abcdefghi';
}
