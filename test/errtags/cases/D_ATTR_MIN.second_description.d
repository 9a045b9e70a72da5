/*
 * A clause's second probe description is below amin though the first is
 * not: DTrace checks the clause once for each description.
 */
#pragma D option amin=Evolving/Evolving/Common

dtrace:::BEGIN,
END
{
	trace(1);
}
