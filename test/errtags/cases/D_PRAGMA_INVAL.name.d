/* #pragma D with a name that is no D pragma. */
#pragma D frobnicate x
BEGIN
{
}
