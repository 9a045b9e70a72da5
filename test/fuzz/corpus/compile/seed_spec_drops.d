/*
 * specsize: DTrace counts a speculative record as a 16-byte header and its
 * data.  A record that does not fit in what is left is dropped but its
 * clause runs on; one larger than specsize by itself ends its clause.
 * Each is a speculative drop, reported as DTrace does.
 */
#pragma D option quiet
#pragma D option specsize=48

BEGIN
{
	s = speculation();
}

/* 16 + 8 = 24 bytes: fits. */
BEGIN
{
	speculate(s);
	printf("%d\n", 1ll);
	na++;
}

/* 16 + 3 * 8 = 40 bytes: 24 + 40 > 48, dropped. */
BEGIN
{
	speculate(s);
	printf("%d %d %d\n", 2ll, 3ll, 4ll);
	nb++;
}

/* 16 + 5 * 8 = 56 bytes: more than specsize, the clause ends here. */
BEGIN
{
	speculate(s);
	printf("%d %d %d %d %d\n", 5ll, 6ll, 7ll, 8ll, 9ll);
	nc++;
}

BEGIN
{
	commit(s);
}

BEGIN
{
	printf("counts %d %d %d\n", na, nb, nc);
	exit(0);
}
