/* An aggregation key below amin (curthread: Private data). */
#pragma D option amin=Stable/Stable/Common

dtrace:::BEGIN
{
	@a[curthread] = count();
}
