/*
 * if/else with speculations: speculate() in a branch makes the clause's
 * record speculative only when the branch runs, and only the data the
 * firing recorded is kept; commit() and discard() in branches take
 * effect only when their branch runs.
 */
#pragma D option quiet

BEGIN
{
	s1 = speculation();
	s2 = speculation();
	x = 1;
}

BEGIN
{
	if (x) {
		speculate(s1);
		printf("spec1 %d\n", x);
	} else {
		printf("not taken\n");
	}
	if (!x) { printf("not taken either\n"); }
	printf("spec1 after\n");
}

BEGIN
{
	if (!x) {
		speculate(s2);
	}
	printf("plain, not speculative\n");
}

BEGIN
{
	printf("before commit\n");
}

BEGIN
{
	if (x) { commit(s1); } else { discard(s1); }
	if (!x) { commit(s2); } else { discard(s2); }
}

BEGIN
{
	exit(0);
}
