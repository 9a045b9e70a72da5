/* Variables declared with the program's own typedef names, at the top level. */
#pragma D option quiet

typedef int new_int;
typedef struct { int a; long b; } pair_t;
typedef enum { RED, GREEN, BLUE } color_t;

new_int i;
pair_t p;
color_t c;

BEGIN
{
	i = 3;
	p.a = 4;
	p.b = 5;
	c = BLUE;
	printf("%d %d %d %d %d\n", i, p.a, p.b, c, sizeof(pair_t));
	exit(0);
}
