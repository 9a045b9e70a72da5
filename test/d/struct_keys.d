/* Struct keys of associative arrays are their bytes: equal structs find the same element. */
#pragma D option quiet

struct record {
	int position;
	char content;
};
struct record r1, r2;

BEGIN
{
	r1.position = 1; r1.content = 'a';
	r2.position = 1; r2.content = 'a';
	a[r1] = 1000;
	a[r2] = 2000;
	self->t[r2, "k"] = 7;
	printf("%d %d %d\n", a[r1], a[r2], self->t[r1, "k"]);
	r2.content = 'b';
	printf("%d\n", a[r2]);
	exit(0);
}
