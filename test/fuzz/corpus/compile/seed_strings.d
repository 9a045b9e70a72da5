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
	/* A ternary whose condition calls the string compare. */
	n = 0;
	n += (u == s) ? 1 : 10;
	n += (u != s) ? 100 : 1000;
	printf("%d %s\n", n, s > t ? s : t);
	exit(0);
}
