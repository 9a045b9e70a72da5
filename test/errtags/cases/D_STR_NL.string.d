/* A string constant broken by a newline. */
BEGIN
{
	x = "abc
	def";
}
