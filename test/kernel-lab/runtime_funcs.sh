#!/bin/sh
# Every function of the BPF run-time library (bpf/*.bpf.c) that a D
# program can reach from BEGIN, once, on the lab's stock 6.1 kernel: its
# older verifier must accept each (a sign-extended index in lltostr() was
# refused there while 6.18's accepted it).
d=$1
"$d" -q -x nspec=2 -n '
BEGIN {
	s = "/usr/lib/../bin/./dtrace";
	printf("%s|%s|%s|%s\n", lltostr(255, 16), lltostr(-5), lltostr(8, 8), lltostr(0, 16));
	printf("%s|%s|%s|%s\n", basename(s), dirname(s), cleanpath(s), substr(s, 4, 6));
	printf("%d|%d|%d|%s|%s\n", strlen(s), index(s, "bin"), rindex(s, "/"), strstr(s, "lib"), strchr(s, 98));
	printf("%s|%s|%s\n", toupper("abc"), tolower("XyZ"), strjoin("foo", "bar"));
	printf("%s|%s\n", strtok("a,b", ","), strtok(NULL, ","));
	printf("%d|%d\n", "abc" < "abd", "b" == "b");
	this->ip = (ipaddr_t *)alloca(4);
	*this->ip = 0x0100007f;
	printf("%s|%s\n", inet_ntoa(this->ip), inet_ntop(AF_INET, (void *)this->ip));
	printf("%d\n", progenyof(1));
	@q = quantize(1000);
	@l = llquantize(1000, 10, 0, 6, 10);
	@s = stddev(5);
	spec = speculation();
	printf("speculation %d\n", spec != 0);
	printa("stddev %@d\n", @s);
	trunc(@q);
	trunc(@l);
	exit(0);
}' 2>&1
