/*
 * A string compared for equality with a literal, inlined as word
 * compares: literals shorter, longer and as long as the string, empty,
 * with bytes above 0x7f, literals of each chunk size (1 to 17 bytes with
 * the NUL), NULL strings, execname, globals, clause-locals,
 * thread-locals and associative arrays, in values, predicates and ?:.
 */
#pragma D option quiet

string never;
self string none;

BEGIN
{
	printf("execname: %d %d %d %d %d %d %d\n", execname == "dtrace", execname != "dtrace",
	    execname == "dtrac", execname == "dtracex", execname == "", "dtrace" == execname,
	    execname == "a literal longer than execname's sixteen bytes");
	s = "abc";
	printf("global: %d %d %d %d %d %d\n", s == "abc", s == "ab", s == "abcd", s == "",
	    s != "abd", "abc" != s);
	printf("never set: %d %d %d\n", never == "x", never != "x", never == "");
	this->t = "\xff\xfe\xfd\xfc\x80";
	printf("high bytes: %d %d %d %d\n", this->t == "\xff\xfe\xfd\xfc\x80",
	    this->t == "\xff\xfe\xfd\xfc\x81", this->t == "\xff\xfe\xfd\xfc", this->t == "\xff");
	self->u = "0123456789abcdef";
	printf("sizes: %d%d%d%d%d%d%d%d %d%d%d%d%d%d%d%d %d\n",
	    self->u == "", self->u == "0", self->u == "01", self->u == "012", self->u == "0123",
	    self->u == "01234", self->u == "012345", self->u == "0123456",
	    self->u == "01234567", self->u == "012345678", self->u == "0123456789",
	    self->u == "0123456789a", self->u == "0123456789ab", self->u == "0123456789abc",
	    self->u == "0123456789abcd", self->u == "0123456789abcde",
	    self->u == "0123456789abcdef");
	printf("unset thread-local: %d %d\n", self->none == "x", self->none != "x");
	a["k"] = "value";
	printf("array: %d %d %d\n", a["k"] == "value", a["k"] == "valu", a["missing"] == "value");
	x = 0;
	x += s == "abc" ? 1 : 10;
	x += s != "abc" ? 100 : 1000;
	x += execname == "dtrace" && s == "abc" ? 10000 : 0;
	x += execname == "nope" || s == "abc" ? 100000 : 0;
	x += !(s == "abc") ? 1000000 : 0;
	printf("conditions: %d\n", x);
}

BEGIN
/s == "abc"/
{
	printf("predicate == true\n");
}

BEGIN
/s == "abd"/
{
	printf("predicate == false: never printed\n");
}

BEGIN
/execname != "dtrace"/
{
	printf("predicate != false: never printed\n");
}

BEGIN
/self->none == "x"/
{
	printf("predicate on NULL: never printed\n");
}

BEGIN
/self->u == "0123456789abcdef" && execname == "dtrace"/
{
	printf("predicate && true\n");
}

BEGIN
{
	exit(0);
}
