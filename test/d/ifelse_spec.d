/*
 * if/else with speculations.  DTrace makes each basic block of a clause
 * (before, in and after each branch) a clause of its own, so speculate()
 * in a branch makes that branch's record speculative, not the statements
 * after the if; a speculate() in a branch not taken makes nothing
 * speculative; the rules (speculate() before data ...) hold per block;
 * commit() and discard() in branches act only when their branch runs.
 */
#pragma D option quiet
#pragma D option nspec=2

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
	printf("after the if, not speculative\n");
}

BEGIN
{
	if (!x) {
		speculate(s2);
		printf("not taken\n");
	}
	printf("plain\n");
}

BEGIN
{
	printf("data first\n");
	if (x) {
		speculate(s2);
		printf("spec2, discarded\n");
	}
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
