/* A predicate below amin (curthread in it). */
#pragma D option amin=Stable/Stable/Common

dtrace:::BEGIN
/curthread != 0/
{
	trace(1);
}
