/* #pragma D depends_on with a class and no name. */
#pragma D depends_on provider
BEGIN
{
}
