/*
 * Declarations D accepts, and the values they give: typedef chains, bit-fields,
 * enums (implicit values, past INT_MAX, a kernel enum's tags in comparisons),
 * forward-declared structs, one struct body for several declarators, scalar
 * and associative arrays (multi-dimensional, keyed by several types), inline
 * arrays (an anonymous key too), DTrace's type spellings (long long long long,
 * short with a typedef or string), sizeof and offsetof.
 */
#pragma D option quiet

typedef int myint_t;
typedef myint_t myint2_t;
typedef int foo_t;

struct bits {
	unsigned int a : 3;
	int b : 5;
	char c;
	unsigned long d : 40;
};

enum color { RED, GREEN = 5, BLUE, WHITE = -1, BLACK, ALSO = GREEN + 2 };
enum big { BIG = 2147483647, WRAPPED };

struct dnode;
struct dnode *head;
struct dnode {
	int val;
	struct dnode *next;
};

struct pt { int x, y; } p1, p2;

int m[2][3];
int a[int, string];
self string t[int];
long long long long ll;
short foo_t sf;
short string ss;
struct bits bv;
struct dnode nv;
myint2_t mi;
inline int sq[int x] = x * x;
inline int seven[int] = 7;

BEGIN
{
	m[1][2] = 12;
	m[0][1] = 1;
	printf("m: %d %d %d %d\n", m[1][2], m[0][1], m[1][0], sizeof(m[1]));
	a[3, "x"] = 30;
	a[4, "y"] = 40;
	printf("a: %d %d %d\n", a[3, "x"], a[4, "y"], a[3, "y"]);
	self->t[7] = "seven";
	printf("t: %s\n", self->t[7]);
	ll = 0x7fffffffffffffff;
	sf = 70000;
	ss = "str";
	printf("spellings: %d %d %d %d %s\n", sizeof(ll), ll, sizeof(sf), sf, ss);
	bv.a = 9;
	bv.b = -3;
	bv.c = 'z';
	bv.d = 0xffffffffff;
	printf("bits: %d %d %c %x\n", bv.a, bv.b, bv.c, bv.d);
	printf("enum: %d %d %d %d %d %d %d %d\n", RED, GREEN, BLUE, WHITE, BLACK, ALSO, BIG,
	    WRAPPED);
	x = (enum pid_type)1;
	printf("kernel enum: %d %d\n", x == PIDTYPE_TGID, x == PIDTYPE_PID);
	nv.val = 5;
	head = (struct dnode *)0;
	printf("node: %d %d %d %d\n", nv.val, nv.next == NULL, head == NULL, sizeof(struct dnode));
	p1.x = 1;
	p2.y = 2;
	printf("pts: %d %d %d\n", p1.x, p2.y, sizeof(p1));
	mi = 3;
	printf("typedef: %d %d\n", mi, sizeof(myint2_t));
	printf("inline: %d %d\n", sq[9], seven[1]);
	printf("offsetof: %d %d\n", offsetof(struct dnode, next), offsetof(struct pt, y));
	printf("sizeof: %d %d\n", sizeof(m), sizeof(int [4][5]));
	printf("cast: %d %d\n", (char)0x1ff, (unsigned char)-1);
	exit(0);
}
