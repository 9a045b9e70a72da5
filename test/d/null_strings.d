/*
 * NULL strings: what strchr()/strstr()/strtok() return when they find
 * nothing, a dynamic variable that is not there, a string variable
 * assigned NULL.  They compare equal only to NULL, and reading them
 * faults (ERROR at address 0, or 0 + i for the i-th character).
 */
#pragma D option quiet

BEGIN
{
	g = strchr("abc", 'z');
	printf("global: %d %d\n", g == NULL, g != NULL);
	g = "";
	printf("empty after NULL: %d [%s]\n", g == NULL, g);
	g = strstr("abc", "b");
	printf("found: %d [%s]\n", g == NULL, g);
	g = NULL;
	this->l = g;
	self->t = g;
	a["k"] = g;
	printf("copies: %d %d %d\n", this->l == NULL, self->t == NULL, a["k"] == NULL);
	printf("unset element: %d, NULL == NULL: %d, NULL != \"\": %d\n", a["none"] == NULL,
	    g == this->l, g != "");
	printf("ternary: %d\n", (1 ? g : "x") == NULL);
	self->t = "set";
	self->t = NULL;
	printf("deleted: %d\n", self->t == NULL);
	x = "a,b";
	printf("strtok: %s %s %d\n", strtok(x, ","), strtok(NULL, ","), strtok(NULL, ",") == NULL);
}

BEGIN
{
	trace(g[2]);
}

BEGIN
{
	trace(self->t);
}

ERROR
{
	printf("ERROR: fault %d at address %d\n", arg4, arg5);
}

BEGIN
{
	exit(0);
}
