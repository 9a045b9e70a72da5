/* An enum defined twice. */
enum e { A };
enum e { B };
BEGIN
{
	exit(0);
}
