/*
 * A probe description below amin: "BEGIN" leaves its provider open, so
 * DTrace knows nothing stable of it (Unstable).  Reported before the
 * clause's statements, on the clause's closing line.
 */
#pragma D option quiet
#pragma D option amin=Evolving/Evolving/Common

BEGIN
{
	trace(curthread->no_such_member);
}
