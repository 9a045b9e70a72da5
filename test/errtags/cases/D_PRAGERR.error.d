/* #error with identifiers, a string and an integer (the integer is left out). */
#error this is "not ok" 12
BEGIN
{
}
