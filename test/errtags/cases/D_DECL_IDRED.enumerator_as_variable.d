/* A variable named like an enumerator. */
enum e { A };
int A;
BEGIN
{
	exit(0);
}
