/* An enum bit-field (DTrace allows integers only). */
enum e { A };
struct s {
	enum e x : 2;
};
BEGIN
{
	exit(0);
}
