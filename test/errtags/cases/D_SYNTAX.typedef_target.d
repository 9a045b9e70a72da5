/* A typedef of a name that is no type. */
typedef pint new_int;
BEGIN
{
	exit(0);
}
