/* #pragma D depends_on library in a program (only libraries may). */
#pragma D depends_on library foo.d
BEGIN
{
}
