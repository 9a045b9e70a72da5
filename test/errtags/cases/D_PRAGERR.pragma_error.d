/* #pragma error: error is a directive after #pragma too. */
BEGIN
{
}
#pragma error stop here
