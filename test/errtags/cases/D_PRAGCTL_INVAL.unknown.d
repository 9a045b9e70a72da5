/* A control line naming no directive DTrace knows (#define without -C). */
#define FOO 1
BEGIN
{
}
