/*
 * DTrace leaves out the built-ins newer than the D version a program asks
 * for: under version 1.0, strstr (1.1), setopt (1.2), htons (1.3),
 * inet_ntoa (1.5), stddev (1.6) and toupper (1.8) are free names, while
 * 1.0's own (strlen, lltostr) and the D library's inlines stay.
 */
#pragma D option version=1.0
#pragma D option quiet

int strstr;
string setopt;
int htons[int];

BEGIN
{
	strstr = 11;
	setopt = "mine";
	htons[1] = 3;
	inet_ntoa = 5;
	stddev = strlen("abc");
	self->toupper = lltostr(42);
	printf("%d %s %d %d %d %s\n", strstr, setopt, htons[1], inet_ntoa, stddev, self->toupper);
	exit(0);
}
