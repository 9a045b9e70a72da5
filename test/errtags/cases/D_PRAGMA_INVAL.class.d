/* #pragma D attributes with a dependency class that does not exist. */
int x;
#pragma D attributes Stable/Stable/Everywhere x
BEGIN
{
	x = 1;
}
