/*
 * DTrace's LP64 floating-point intrinsics (dt_open.c) have gcc's x86-64
 * sizes, each aligned as its size: float 4, double 8, long double 16.
 */
#pragma D option quiet

struct ld {
	char c;
	long double d;
	float f;
};

struct fd {
	char c;
	double d;
	float f;
	_Bool b;
};

long double g;

BEGIN
{
	printf("float %d double %d long double %d _Bool %d\n", sizeof (float),
	    sizeof (double), sizeof (long double), sizeof (_Bool));
	printf("struct ld %d: d at %d, f at %d\n", sizeof (struct ld),
	    offsetof(struct ld, d), offsetof(struct ld, f));
	printf("struct fd %d: d at %d, f at %d, b at %d\n", sizeof (struct fd),
	    offsetof(struct fd, d), offsetof(struct fd, f), offsetof(struct fd, b));
	printf("global %d, array %d, pointer %d\n", sizeof (g), sizeof (long double[3]),
	    sizeof (long double *));
	exit(0);
}
