/* #pragma D depends_on a kernel module that is not loaded. */
#pragma D depends_on module nosuchmodule
BEGIN
{
}
