/* The string subroutines, with DTrace's edge cases. */
#pragma D option quiet

BEGIN
{
	s = "foobarbazbar";
	printf("strlen %d %d\n", strlen(s), strlen(""));
	printf("strjoin [%s] [%s]\n", strjoin(s, "!"), strjoin("", ""));
	printf("substr [%s] [%s] [%s] [%s] [%s]\n", substr(s, 3), substr(s, 3, 3),
	    substr(s, -3), substr("abcde", -7, 3), substr("abcdefghijklmnop", 2, -10));
	printf("index %d %d %d %d %d\n", index(s, "bar"), index(s, "bar", 4),
	    index(s, "zz"), index(s, ""), index("", ""));
	printf("rindex %d %d %d\n", rindex(s, "bar"), rindex(s, "bar", 8),
	    rindex(s, "bar", -1));
	printf("strstr [%s] %d\n", strstr(s, "baz"), strstr(s, "zz") == NULL);
	printf("strchr [%s] [%s] %d\n", strchr(s, 'b'), strrchr(s, 'b'),
	    strchr(s, 'q') == NULL);
	printf("case [%s] [%s]\n", toupper("abc-XYZ"), tolower("abc-XYZ"));
	printf("lltostr [%s] [%s] [%s]\n", lltostr(0), lltostr(-9223372036854775807 - 1),
	    lltostr(255, 16));
	printf("path [%s] [%s] [%s] [%s] [%s]\n", basename("/a/b//"), dirname("/a/b//"),
	    dirname("a"), basename("///"), dirname("/a"));
	printf("cleanpath [%s] [%s] [%s] [%s]\n", cleanpath("/a/../b/./c//"),
	    cleanpath("a/../.."), cleanpath("./"), cleanpath("/../x"));
	printf("nested [%s]\n", substr(strjoin(strjoin("ab", "cd"), strjoin("ef", "gh")), 2, 4));
}

BEGIN
{
	printf("strtok [%s]", strtok(",,a,b,,c,", ","));
}

BEGIN
{
	printf(" [%s]", strtok(NULL, ","));
	printf(" [%s]", strtok(NULL, ","));
	printf(" %d\n", strtok(NULL, ",") == NULL);
	exit(0);
}
