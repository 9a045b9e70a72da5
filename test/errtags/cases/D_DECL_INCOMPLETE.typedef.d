/* A variable of a typedef of an undefined struct. */
typedef struct foo foo_t;
foo_t x;
BEGIN
{
	exit(0);
}
