/*
 * Tuples of eight keys (DTrace's tregs), each key an expression that
 * needs registers of its own, while the value and the key buffer are
 * held: associative arrays, thread-local arrays and aggregations.  The
 * values were computed by a C program evaluating the same expressions.
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
	x[a + (b * (c - d)), strjoin(lltostr(e * (a + (b * c))), "k"), a ? b * (c + d) : e,
	    (int64_t)strlen(lltostr(d * (e - a))), b - (c * (d + (e - (a * b)))), lltostr(c * d),
	    d % (a + 4), e * (a + (b * (c + (d * e))))] = a * (b + (c * (d - (e + (a * b)))));
	printf("%d\n", x[a + (b * (c - d)), strjoin(lltostr(e * (a + (b * c))), "k"),
	    a ? b * (c + d) : e, (int64_t)strlen(lltostr(d * (e - a))),
	    b - (c * (d + (e - (a * b)))), lltostr(c * d), d % (a + 4),
	    e * (a + (b * (c + (d * e))))]);
	self->t[b * (c - (d + e)), lltostr(a * (b - c)), c > d ? a : b * (d - (e * c)),
	    (int64_t)strlen(strjoin(lltostr(d * d), lltostr(e * e))), a & (b | (c ^ d)),
	    d - (e * (a - (b * c))), strjoin("v", lltostr(b * (c + (d * e)))), e - (d / (b - c))] =
	    e * (d - (c * (b + (a * (e - d)))));
	printf("%d\n", self->t[b * (c - (d + e)), lltostr(a * (b - c)),
	    c > d ? a : b * (d - (e * c)),
	    (int64_t)strlen(strjoin(lltostr(d * d), lltostr(e * e))), a & (b | (c ^ d)),
	    d - (e * (a - (b * c))), strjoin("v", lltostr(b * (c + (d * e)))), e - (d / (b - c))]);
	@s[a * (b + (c * (d - e))), lltostr(b * (c - (d * (e + a)))), c ? d * (e - (a * b)) : 0,
	    (int64_t)strlen(lltostr(a * (b * (c * (d * e))))), d - (c - (b - (a - e))),
	    strjoin(lltostr(e * d), lltostr(c * b)), a << (c - (b + 16)), (b * c) % (d + e)] =
	    sum(a + (b * (c - (d + (e * (a - (b + (c * d))))))));
	@s[a * (b + (c * (d - e))), lltostr(b * (c - (d * (e + a)))), c ? d * (e - (a * b)) : 0,
	    (int64_t)strlen(lltostr(a * (b * (c * (d * e))))), d - (c - (b - (a - e))),
	    strjoin(lltostr(e * d), lltostr(c * b)), a << (c - (b + 16)), (b * c) % (d + e)] =
	    sum(d * (e + (a * b)));
	printa("%d %s %d %d %d %s %d %d %@d\n", @s);
	exit(0);
}
