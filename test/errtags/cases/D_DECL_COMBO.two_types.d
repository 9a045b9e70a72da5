/* Two type specifiers. */
int char x;
BEGIN
{
	exit(0);
}
