/* A control line that starts with a string: reported on the line after it. */
# "file.d"
BEGIN
{
}
