/* A declaration is checked as it is parsed: before a later clause's syntax error. */
struct outer {
	int before;
	struct later inner;
};

struct later {
	long x;
};

syscall::read:entry
{
	x = ;
}
