/*
 * dtrace -v of a script: the least attributes of its descriptions (both
 * name the dtrace provider: Stable) and of its statements: an inline has
 * its value's (curthread: Private data), a translation its translator's
 * (psinfo_t's reads kernel types: Private/Private/Unknown), curpsinfo the
 * Stable ones the D library gives it.
 */
#pragma D option quiet

inline int mypid = curthread->pid;

dtrace:::BEGIN
/mypid > 0/
{
	x = xlate <psinfo_t *> (curthread)->pr_pid;
	exit(0);
}

dtrace:::END
{
	printf("%s\n", curpsinfo->pr_pid == x ? "same" : "different");
}
