/* system() after speculate() in the same branch of an if. */
BEGIN
{
	if (arg0 == 0) {
		speculate(1);
		system("true");
	}
}
