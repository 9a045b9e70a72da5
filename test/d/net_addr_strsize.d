/*
 * An address string longer than strsize is the whole text cut at strsize
 * characters: a number the cut falls in keeps its leading digits, and
 * nothing after the cut (no separator) is written.
 */
#pragma D option quiet
#pragma D option strsize=8

BEGIN
{
	v4 = (uint8_t *)alloca(4);
	v4[0] = 10; v4[1] = 200; v4[2] = 30; v4[3] = 4;
	printf("[%s]\n", inet_ntoa((ipaddr_t *)v4));
	printf("[%s]\n", inet_ntop(AF_INET, (void *)v4));

	v6 = (uint8_t *)alloca(16);
	v6[0] = 0x20; v6[1] = 0x01; v6[2] = 0x0d; v6[3] = 0xb8;
	v6[10] = 0xff; v6[13] = 0x42; v6[14] = 0x83; v6[15] = 0x29;
	printf("[%s]\n", inet_ntoa6((struct in6_addr *)v6));

	m = (uint8_t *)alloca(16);
	m[10] = 0xff; m[11] = 0xff; m[12] = 172; m[13] = 16; m[14] = 254; m[15] = 1;
	printf("[%s]\n", inet_ntoa6((struct in6_addr *)m));
	printf("[%s]\n", inet_ntop(AF_INET6, (void *)m));

	mac = (uint8_t *)alloca(6);
	mac[0] = 0x0a; mac[1] = 0x1b; mac[2] = 0x2c; mac[3] = 0x3d; mac[4] = 0x4e; mac[5] = 0x5f;
	printf("[%s]\n", link_ntop(ARPHRD_ETHER, (void *)mac));
	exit(0);
}
