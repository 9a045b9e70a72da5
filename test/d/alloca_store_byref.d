/*
 * A string or a struct assigned through a pointer into alloca( )'d memory
 * is copied in (DTrace's dt_cg_store), bounds-checked like any store there.
 */
#pragma D option quiet
#pragma D option scratchsize=512

struct pt { int x; int y; char tag[8]; };
struct pt g;

BEGIN
{
	p = (struct pt *)alloca(sizeof(struct pt));
	g.x = 3;
	g.y = -4;
	g.tag[0] = 'q';
	*p = g;
	s = (string *)alloca(sizeof(string));
	*s = strjoin("ab", "cd");
	printf("%d %d %c %s %d\n", p->x, p->y, p->tag[0], *s, strlen(*s));
	*s = "";
	printf("[%s] %d\n", *s, strlen(*s));
	*s = "xyz";
	printf("[%s]\n", *s);
	exit(0);
}
