/* #pragma D attributes with a stability name that does not exist. */
int x;
#pragma D attributes Stable/Wobbly/Common x
BEGIN
{
	x = 1;
}
