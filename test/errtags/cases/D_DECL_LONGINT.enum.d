/* long long with an enum. */
enum e { A };
long long enum e x;
BEGIN
{
	exit(0);
}
