/* Assignment to an array member. */
struct s { char name[8]; } v;
BEGIN
{
	v.name = "x";
}
