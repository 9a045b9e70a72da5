/*
 * if/else: the actions of a branch that is not taken do not run and leave
 * nothing in the output; nested ifs, else-if chains, blocks, actions
 * before and after, aggregations and aggregation actions in branches.
 */
#pragma D option quiet

BEGIN
{
	x = 5;
	if (x > 2) { printf("%d-true\n", x); } else { printf("%d-false\n", x); }
	if (x < 2) { printf("%d-true\n", x); } else { printf("%d-false\n", x); }
	y = 1;
	if (y > 2) { trace(y); printf("[%d]", y + 100); }
	printf("after\n");
	a = 1;
	b = 0;
	trace("pre ");
	if (a) {
		trace("a ");
		if (b) {
			trace("ab ");
		} else {
			trace("a!b ");
			if (a)
				trace("deep ");
		}
		trace("a2 ");
	} else if (b) {
		trace("b ");
	} else {
		trace("none ");
	}
	printf("post\n");
	n = 1;
}

/* The same else-if chain three times: each of its arms in turn. */
BEGIN
{
	if (n == 1) { printf("one"); } else if (n == 2) { printf("two"); } else { printf("many"); }
	printf(" n=%d\n", n++);
}

BEGIN
{
	if (n == 1) { printf("one"); } else if (n == 2) { printf("two"); } else { printf("many"); }
	printf(" n=%d\n", n++);
}

BEGIN
{
	if (n == 1) { printf("one"); } else if (n == 2) { printf("two"); } else { printf("many"); }
	printf(" n=%d\n", n++);
}

/* More branches than a word of flags: the last one is taken, then none. */
BEGIN
{
	m = 9;
	if (m == 0) printf("0"); if (m == 1) printf("1"); if (m == 2) printf("2");
	if (m == 3) printf("3"); if (m == 4) printf("4"); if (m == 5) printf("5");
	if (m == 6) printf("6"); if (m == 7) printf("7"); if (m == 8) printf("8");
	if (m == 9) printf("nine\n");
}

BEGIN
{
	m = 10;
	if (m == 0) printf("0"); if (m == 1) printf("1"); if (m == 2) printf("2");
	if (m == 3) printf("3"); if (m == 4) printf("4"); if (m == 5) printf("5");
	if (m == 6) printf("6"); if (m == 7) printf("7"); if (m == 8) printf("8");
	if (m == 9) printf("nine\n");
}

/* A clause whose actions are all in branches that are not taken prints nothing. */
BEGIN
{
	if (b) { printf("not taken\n"); } else if (!a) { printf("not taken either\n"); }
}

BEGIN
{
	@c = count();
	@s["a"] = sum(1);
	@s["b"] = sum(2);
	if (b) {
		printa(@c);
		clear(@c);
		trunc(@c);
		normalize(@c, 2);
		denormalize(@c);
		setopt("aggsortrev");
	}
	if (a) { @d["taken"] = count(); } else { @d["not taken"] = count(); }
	if (a) { printa("%s %@d\n", @d); }
	printa("%s %@d\n", @s);
	exit(0);
}

END
{
	printa("c=%@d\n", @c);
}
