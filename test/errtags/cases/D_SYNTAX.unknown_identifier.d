/* A missing operator before an identifier the lexer looks past (DTrace shows the rest of its line). */
BEGIN
{
	x = 1 y;
}
