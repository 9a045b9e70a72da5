/*
 * Expressions deep and wide enough that the code generator runs out of
 * BPF's registers and spills (cg_reg.c): right-deep arithmetic (every
 * level holds its left operand while its right one is evaluated), signed
 * division and modulo, ?: && || ! inside, string functions inside
 * arithmetic, calls nested as arguments.  The values were computed by a
 * C program evaluating the same expressions.
 */
#pragma D option quiet

int64_t a, b, c, d, e;

BEGIN
{
	a = 3;
	b = -7;
	c = 11;
	d = 100;
	e = -2;
	printf("%d\n", a + (b * (c - (d + (e * (a - (b + (c * (d - (e + (a * (b - (c + (d * (e - (a + (b * (c - (d + (e * (a + (b - (c + (d * e))))))))))))))))))))))));
	printf("%d\n", d / (a + (b % (c - (d / (e + (a * (b - (c / (d % (e - 7)))))))))));
	printf("%d\n", a + (b > 0 ? c : (d - (e < 0 && (a || b) ? (c * (d + (e ? a - (b + (c > d ? 1 : (d - (e * (a + !b))))) : 5))) : 9))));
	printf("%d\n", (a > 0 && (b < 0 || c == 0) && !(d == (e + (a * (b - (c + (d * (e - a))))))) && (c ^ (d | (e & (a + 1))))) ? c - (d * (e + (a || (b && (c || (d && e)))))) : -1);
	printf("%d\n", a * ((int64_t)strlen(lltostr(b * (c + (int64_t)strlen(strjoin(lltostr(d), lltostr(e * (a + (int64_t)strlen(lltostr(b * c)))))))))));
	printf("%s\n", strjoin(lltostr(a + (b * c)), strjoin("-", substr(lltostr(d * (e + (a * (b - c)))), 1, 3))));
	printf("%s\n", lltostr((int64_t)strlen(strjoin(lltostr(a), strjoin(lltostr(b), strjoin(lltostr(c), lltostr(d * (e + (a * (b - (c + (d * (e - a)))))))))))));
	printf("%d\n", (int64_t)index(strjoin(lltostr(a * b * c * d * e), strjoin("x", lltostr(e - (d * (c + (b * a)))))), strjoin("x", lltostr(e - (d * (c + (b * a)))))));
	printf("%d\n", (int64_t)strlen(substr(strjoin(lltostr(d * d * d), lltostr(c * (d + (e * (a - (b * (c + d))))))), a - 2, (int)(int64_t)strlen(lltostr(a + (b * (c - (d + (e * 2)))))))) + (a * (b + (c * (d - (e + (a * (b - (c + 1)))))))));
	printf("%s\n", toupper(strjoin(substr("abcdefghij", (int)(a - (b + (c - (d / (e * (a - 20)))))), 3), lltostr(a ? (b ? (c ? (d ? (e ? a * b * c * d * e : 1) : 2) : 3) : 4) : 5))));
	printf("%d\n", a - (b - (c - (d - (e - (a - (b - (c - (d - (e - (a - (b - (c - (d - (e - (a - (b - (c - (d - (e - (a - (b - (c - (d - (e - (a - (b - (c - (d - (e - 1))))))))))))))))))))))))))))));
}

/* The same in a predicate, and in assignments (the value is held while a key is built). */
BEGIN
/a + (b * (c - (d + (e * (a - (b + (c * (d - (e + (a * (b - (c + 1)))))))))))) != 0 &&
 ((a < b) || (c > d) || ((int64_t)strlen(lltostr(d * (e + (a * (b - (c + (d * e)))))))) == 5)/
{
	x[a + (b * (c - (d + (e * (a - (b + 1))))))] = b * (c - (d + (e * (a - (b + (c * (d - (e + 9))))))));
	self->y[lltostr(c * (d - (e + (a * b))))] = (int64_t)strlen(strjoin(lltostr(a * (b + (c * d))), lltostr(e)));
	printf("%d %d\n", x[a + (b * (c - (d + (e * (a - (b + 1))))))],
	    self->y[lltostr(c * (d - (e + (a * b))))]);
	exit(0);
}
