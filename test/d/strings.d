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
}

BEGIN
{
	/* Characters and tails of strings. */
	v = "ABCDEFG";
	k = 3;
	printf("%d %c [%s] [%s] [%s] [%s]\n", v[1], v[k], v + 2, 1 + v, v + 100, v + k);
	/* Escapes DTrace knows (\\ \" octal hex letters); others keep their backslash. */
	printf("[%s]\n", "a\?b\\c\'d\"e\x41\102\tf");
}

BEGIN
{
	exit(0);
}
