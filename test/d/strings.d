/* String literals, string variables, equality and ordering. */
#pragma D option quiet

BEGIN
{
	s = "abc";
	t = "abd";
	printf("%d %d %d %d\n", s == "abc", s != "abc", s < t, t < s);
	printf("%d %d\n", execname == "dtrace", execname != "dtrace");
	u = execname;
	printf("%s %s %s\n", s, t, u);
	exit(0);
}
