/* Built-in variables in BEGIN, which runs in dtrace's own context. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d %d\n", pid == $pid, ppid == $ppid, uid == $uid, gid == $gid,
	    tid == pid);
	printf("%s %s %s %s %d\n", probeprov, probemod == "" ? "-" : probemod,
	    probefunc == "" ? "-" : probefunc, probename, id);
	printf("%d %d %d %d\n", timestamp > 0, walltimestamp > 1700000000000000000,
	    vtimestamp > 0, cpu >= 0);
	printf("%s\n", execname);
	exit(0);
}
