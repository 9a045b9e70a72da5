/* A built-in variable below amin: curthread's data are Private. */
#pragma D option amin=Stable/Stable/Common

dtrace:::BEGIN
{
	trace(curthread);
}
