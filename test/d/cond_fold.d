/*
 * DTrace folds a ?: whose condition is a parse-time integer constant
 * (dt_node_op3()): the expression is the operand it picks, so an action
 * may be one (the DTraceToolkit's OPT_x ? printf(...) : 1;) and the
 * result has that operand's type.  Parse-time constants: integer and
 * character constants, integer inlines, enumerators declared in D (DTrace
 * keeps them as inlines), -, +, ~, ! of one, binary
 * arithmetic, bitwise, shift, relational and logical operators on two,
 * casts to an integer type, sizeof of a type or string, offsetof.
 */
#pragma D option quiet

inline int OPT_time = 1;
inline int OPT_dump = 0;
inline int OPT_counts = 1;
inline int OPT_both = OPT_time && !OPT_dump;
inline string COMMAND = "";

struct s {
	int a;
	int b;
};

enum opt {
	OFF,
	ON
};

inline int OPT_enum = ON;

BEGIN
{
	OPT_time ? printf("%-6s", "TIME") : 1;
	OPT_dump ? printf("dump\n") : printf("nodump\n");
	OPT_counts == 1 ? @counts["x"] = count() : 1;
	OPT_dump == 1 ? @counts["y"] = count() : 1;
	OPT_both ? printf("both\n") : 1;
	1 ? printf("one\n") : 1;
	0 ? printf("no\n") : printf("else\n");
	'a' - 'a' ? printf("no\n") : printf("char\n");
	-1 ? printf("minus\n") : 1;
	~0 + 1 ? printf("no\n") : printf("tilde\n");
	(char)256 ? printf("no\n") : printf("cast\n");
	(int)256 ? printf("cast int\n") : 1;
	sizeof (int) == 4 ? printf("sizeof\n") : 1;
	sizeof ("abc") == 4 ? printf("sizeof string\n") : 1;
	offsetof(struct s, b) == 4 ? printf("offsetof\n") : 1;
	(1 << 4) / 2 % 5 == 3 ? printf("arith\n") : 1;
	1 ? (0 ? printf("no\n") : printf("nested\n")) : 1;
	(1 ? 0 : 1) ? printf("no\n") : printf("folded condition\n");
	ON ? printf("enum\n") : 1;
	OFF ? printf("no\n") : printf("enum off\n");
	ON + ON == 2 ? printf("enum sum\n") : 1;
	OPT_enum ? printf("enum inline\n") : 1;
	OPT_time ? trace(7) : 1;
	OPT_dump ? 1 : trace(8);
	printf("\n");

	/* The type is the picked operand's: char here, not long long. */
	printf("%d %d\n", sizeof (1 ? (char)1 : 2LL), sizeof (0 ? (char)1 : 2LL));
	x = 1;
	printf("%d\n", sizeof (x ? (char)1 : 2LL));
	printf("%s|\n", OPT_dump ? "dump" : COMMAND);
	exit(0);
}
