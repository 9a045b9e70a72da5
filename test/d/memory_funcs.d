/* alloca(), bcopy(), stores into alloca'd memory and into variables, the address formatters. */
#pragma D option quiet

uint8_t bytes[4];
struct { int x; int y[3]; } s;

BEGIN
{
	p = (uint32_t *)alloca(16);
	p[0] = htonl(0xc0a80117);
	p[3] = htonl(0x7f000001);
	printf("%s %s\n", inet_ntoa(p), inet_ntoa6((struct in6_addr *)p));
	p[0] = 0;
	printf("%s %s\n", inet_ntoa6((struct in6_addr *)p), inet_ntop(AF_INET6, p));
	c = (char *)alloca(8);
	bcopy("a/b/c", c, 6);
	printf("%s %s %d\n", stringof(c), basename(c), c[2] == 'b');
	e = (uint64_t *)alloca(8);
	*e = htonll(0x0010e08a715e << 16);
	printf("%s\n", link_ntop(ARPHRD_ETHER, e));
	a = alloca(1);
	b = alloca(1);
	printf("%d\n", (uint64_t)b - (uint64_t)a);
	i = 2;
	bytes[1] = 5;
	bytes[i] = 7;
	s.x = 3;
	s.y[i] = 9;
	printf("%d %d %d %d %d\n", bytes[1], bytes[2], bytes[0], s.x, s.y[2]);
}

BEGIN
{
	/* Past what the clause allocated (4 bytes, taken as 8). */
	q = (char *)alloca(4);
	q[8] = 1;
}

ERROR
{
	printf("fault %d\n", arg4);
	exit(0);
}
