/* #pragma D followed by a string rather than a pragma name. */
#pragma D "option"
BEGIN
{
}
