int64_t a, b, c, d, e;
BEGIN
{
	a = 3; b = -7; c = 11; d = 100; e = -2;
	trace(a + (b * (c - (d + (e * (a - (b + (c * (d - (e + (a * (b - (c + 1)))))))))))));
	x[a + (b * c), lltostr(d * (e - a)), a ? b : c, e - (d / (b - c)), b * (c + d), lltostr(a), d % 7, e * e] = a * (b + (c * (d - e)));
	@[a * (b + c), lltostr(b * (c - d)), c ? d : e, (int64_t)strlen(lltostr(a * b)), d - c, strjoin(lltostr(e), "x"), a << 2, b % 3] = sum(a + (b * (c - (d + e))));
	trace((int64_t)strlen(substr(strjoin(lltostr(d * d), lltostr(c * (d + (e * (a - (b * (c + d))))))), a - 2, (int)(int64_t)strlen(lltostr(a + (b * (c - (d + (e * 2)))))))));
}
