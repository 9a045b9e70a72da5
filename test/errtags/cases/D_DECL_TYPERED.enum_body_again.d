/* An enum tag given a body again is refused at its brace, before the errors of the new body. */
enum colour { RED };
enum colour { GREEN BLUE };
BEGIN
{
	exit(0);
}
