/*
 * ^^ is D's logical exclusive or: both operands are evaluated, each as
 * true or false.  An operand that calls a function (a string comparison)
 * inside another expression needs no register to live across the call:
 * the result's register once was, uninitialized, and the verifier refused
 * to save it.
 */
#pragma D option quiet

int x;

BEGIN
{
	printf("%d\n", 0 == (("a" > "") ^^ 0));
}

BEGIN
{
	printf("%d\n", (("a" > "") ^^ ("b" > "")) == 0);
}

BEGIN
{
	x = 2;
	printf("%d %d %d %d\n", 1 ^^ 2, 0 ^^ 3, 0 ^^ 0, x ^^ -x);
	printf("%d %d\n", x + (("abc" == "abc") ^^ (x > 5)), ("a" < "b") ^^ strlen("xy"));
	exit(0);
}
