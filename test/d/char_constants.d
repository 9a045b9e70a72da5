/*
 * Character constants as DTrace reads them: escapes decoded by its rules
 * (\' and \? and unknown escapes keep their backslash), the bytes of the
 * constant an unsigned integer with the first byte most significant, typed
 * as a decimal constant (int, long, long long by value).
 */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d %d %d\n", '\n', '\t', '\a', '\b', '\f', '\r');
	printf("%d %d %d %d %d\n", '\v', '\\', '\"', '\0', 'A');
	printf("%x %x %x\n", '\'', '\?', '\q');
	printf("%d %d %d %d\n", '\101', '\377', '\400', '\18');
	printf("%d %d %d %d\n", '\x41', '\x141', '\xff', '\x');
	printf("%x %x %x\n", 'ab', 'abcd', 'abcdefgh');
	printf("%x %x\n", 'é', '\377\377\377\377');
	printf("%d %d %d\n", sizeof('a'), sizeof('abcd'), sizeof('\177\377\377\377\377'));
	printf("%d %d\n", '\377' > 0, 'a' + 1);
	exit(0);
}
