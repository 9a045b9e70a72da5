/* system() after speculate(), in an if. */
BEGIN
{
	speculate(1);
	if (arg0) {
		system("true");
	}
}
