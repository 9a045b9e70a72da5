/* A struct that contains itself after another member (C's rule: incomplete until its closing brace). */
struct s {
	int a;
	struct s next;
};
BEGIN
{
	exit(0);
}
