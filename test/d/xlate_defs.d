/*
 * Translators defined in the program: members of a translated struct and
 * pointer, alternatives of a name (the first wins), a struct input, a
 * whole translated struct assigned, and an inline of a translation.
 */
#pragma D option quiet

struct in {
	int i;
	char c;
	char name[8];
};

struct out {
	int twice;
	char c;
	string name;
	int unset;
};

translator struct out < struct in s > {
	twice = s.i * 2;
	twice = 0;
	c = s.c;
	name = stringof(s.name);
};

struct pair {
	int a;
	int b;
};

translator struct pair < int x > {
	a = x + 1;
	b = x * x;
};

struct in v;
struct out o;
inline struct pair sq7 = xlate <struct pair> (7);

BEGIN
{
	v.i = 21;
	v.c = 'z';
	v.name[0] = 'a';
	v.name[1] = 'b';
	printf("twice %d c %c name %s\n", xlate <struct out *> (v)->twice,
	    xlate <struct out *> (v)->c, xlate <struct out *> (v)->name);
	printf("pair %d %d\n", xlate <struct pair> (3).a, xlate <struct pair> (3).b);
	printf("deref %d\n", (*xlate <struct out *> (v)).twice);
	o = xlate <struct out> (v);
	printf("assigned %d %c %s unset %d\n", o.twice, o.c, o.name, o.unset);
	printf("inline %d %d\n", sq7.a, sq7.b);
	exit(0);
}
