/* An integer cast to a struct. */
struct s { int a; };
BEGIN
{
	x = (struct s)1;
}
