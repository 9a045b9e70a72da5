/* #line whose file name is not a quoted string. */
#line 10 foo.d
BEGIN
{
}
