/*
 * A struct, union or array held in an associative array element or a
 * thread-local is D storage: its members (nested ones, array elements,
 * bit-fields) can be assigned, incremented and compound-assigned, which
 * creates the element (zeroed) if it is not there, as assigning the
 * whole element does.  Assigning 0 to a member keeps the element.  The
 * address of such a member can be taken and read through.  (The Guide's
 * rwinfo.d: i[probefunc].ts = timestamp; i[probefunc].calls++.)
 */
#pragma D option quiet

struct in {
	int x;
	int arr[4];
};

struct ci {
	uint64_t ts;
	uint64_t calls;
	struct in in;
	int bf:3;
	int bg:5;
	char c;
};

union u {
	int i;
	char c[4];
};

struct ci a[string, int];
struct ci b[int];
self struct ci s;
self struct ci t[int];
self int arr4[4];
union u ua[int];
struct in g;

BEGIN
{
	a["x", 1].ts = 5;
	a["x", 1].calls++;
	a["x", 1].calls += 3;
	++a["x", 1].calls;
	printf("ts=%d calls=%d other=%d\n", a["x", 1].ts, a["x", 1].calls, a["x", 2].calls);

	a["x", 1].in.x = 7;
	a["x", 1].in.arr[2] = 9;
	i = 3;
	a["x", 1].in.arr[i] = 11;
	a["x", 1].in.arr[i] *= 2;
	a["x", 1].bf = -2;
	a["x", 1].bg = 17;
	a["x", 1].c = 'A';
	printf("x=%d arr=%d,%d,%d,%d bf=%d bg=%d c=%c ts=%d\n", a["x", 1].in.x,
	    a["x", 1].in.arr[0], a["x", 1].in.arr[1], a["x", 1].in.arr[2],
	    a["x", 1].in.arr[3], a["x", 1].bf, a["x", 1].bg, a["x", 1].c, a["x", 1].ts);

	self->s.ts = 10;
	self->s.calls++;
	self->s.in.arr[1]--;
	self->t[4].bg = 3;
	self->t[4].in.x += 5;
	printf("self ts=%d calls=%d arr1=%d t4.bg=%d t4.x=%d t5.bg=%d\n", self->s.ts,
	    self->s.calls, self->s.in.arr[1], self->t[4].bg, self->t[4].in.x, self->t[5].bg);

	self->arr4[2] = 3;
	self->arr4[1]++;
	printf("self arr4 %d %d %d\n", self->arr4[0], self->arr4[1], self->arr4[2]);

	ua[1].i = 0x41424344;
	ua[2].c[1] = 'z';
	printf("union %c%c %c\n", ua[1].c[0], ua[1].c[3], ua[2].c[1]);

	/* A struct member from a struct; a member assigned 0 keeps the element. */
	g.x = 1;
	g.arr[3] = 4;
	b[1].in = g;
	b[1].calls = 0;
	printf("in.x=%d in.arr3=%d calls=%d\n", b[1].in.x, b[1].in.arr[3], b[1].calls);

	/* Chained and post-increment values are those of the member. */
	v = b[2].ts = 8;
	w = b[2].ts++ + ++b[2].calls;
	printf("v=%d w=%d ts=%d calls=%d\n", v, w, b[2].ts, b[2].calls);

	/* The address of a member of D storage. */
	p = &b[2].calls;
	q = &self->s.ts;
	printf("*p=%d *q=%d\n", *p, *q);

	/* Deleting the element: its members read as 0 again. */
	b[2] = 0;
	printf("after delete ts=%d calls=%d\n", b[2].ts, b[2].calls);
	exit(0);
}
