/*
 * Loopback traffic for the ip, tcp and udp providers' tests, in one
 * process and always the same (run it in a network namespace of its own):
 *
 *   net_work tcp 4|6 PORT     a connection to PORT: the client sends 1000
 *                             bytes and shuts its side down, the server
 *                             answers 300 bytes and closes, then the client
 *                             (so the client ends in TIME-WAIT, the server
 *                             in LAST-ACK, then CLOSED)
 *   net_work refused 4|6 PORT a connection attempt to PORT, where nothing
 *                             listens
 *   net_work udp 4|6 PORT     datagrams of 100 and 200 bytes to PORT
 *   net_work big 4|6 PORT     a datagram of 3000 bytes (fragmented where
 *                             the device's MTU is smaller)
 *   net_work unreach 4 A:PORT a datagram of 100 bytes to IPv4 address A,
 *                             where nothing listens: it waits for the
 *                             ICMP error that says so
 *
 * Several of these may follow each other in one command line.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int fam;
static struct sockaddr_storage addr;
static socklen_t addrlen;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void set_addr(int port)
{
	memset(&addr, 0, sizeof(addr));
	if (fam == AF_INET) {
		struct sockaddr_in *a = (struct sockaddr_in *)&addr;
		a->sin_family = AF_INET;
		a->sin_port = htons((uint16_t)port);
		a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		addrlen = sizeof(*a);
	} else {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&addr;
		a->sin6_family = AF_INET6;
		a->sin6_port = htons((uint16_t)port);
		a->sin6_addr = in6addr_loopback;
		addrlen = sizeof(*a);
	}
}

static size_t drain(int fd)
{
	char buf[4096];
	size_t total = 0;
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += (size_t)n;
	if (n < 0)
		die("read");
	return total;
}

static void put(int fd, size_t len)
{
	char buf[1000];

	memset(buf, 'x', sizeof(buf));
	if (len > sizeof(buf) || write(fd, buf, len) != (ssize_t)len)
		die("write");
}

static void tcp(void)
{
	int one = 1;
	int l = socket(fam, SOCK_STREAM, 0), c = socket(fam, SOCK_STREAM, 0);

	if (l < 0 || c < 0)
		die("socket");
	setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(l, (struct sockaddr *)&addr, addrlen) < 0 || listen(l, 8) < 0)
		die("listen");
	if (connect(c, (struct sockaddr *)&addr, addrlen) < 0)
		die("connect");
	int s = accept(l, NULL, NULL);
	if (s < 0)
		die("accept");
	put(c, 1000);
	shutdown(c, SHUT_WR);
	if (drain(s) != 1000)
		die("server read");
	put(s, 300);
	close(s);
	if (drain(c) != 300)
		die("client read");
	close(c);
	close(l);
}

static void refused(void)
{
	int c = socket(fam, SOCK_STREAM, 0);

	if (c < 0)
		die("socket");
	if (connect(c, (struct sockaddr *)&addr, addrlen) == 0) {
		fprintf(stderr, "net_work: something listens on the port\n");
		exit(1);
	}
	close(c);
}

static void big(void)
{
	int r = socket(fam, SOCK_DGRAM, 0), s = socket(fam, SOCK_DGRAM, 0);
	static char buf[3000];

	if (r < 0 || s < 0)
		die("socket");
	if (bind(r, (struct sockaddr *)&addr, addrlen) < 0)
		die("bind");
	memset(buf, 'z', sizeof(buf));
	if (sendto(s, buf, sizeof(buf), 0, (struct sockaddr *)&addr, addrlen) != sizeof(buf))
		die("sendto");
	if (recv(r, buf, sizeof(buf), 0) != sizeof(buf))
		die("recv");
	close(s);
	close(r);
}

static void unreach(void)
{
	int s = socket(fam, SOCK_DGRAM, 0);
	char buf[100];

	if (s < 0)
		die("socket");
	if (connect(s, (struct sockaddr *)&addr, addrlen) < 0)
		die("connect");
	memset(buf, 'u', sizeof(buf));
	if (send(s, buf, sizeof(buf), 0) != sizeof(buf))
		die("send");
	/* The port unreachable error comes back as ECONNREFUSED. */
	if (recv(s, buf, sizeof(buf), 0) >= 0 || errno != ECONNREFUSED)
		die("recv");
	close(s);
}

static void udp(void)
{
	int r = socket(fam, SOCK_DGRAM, 0), s = socket(fam, SOCK_DGRAM, 0);
	char buf[1000];

	if (r < 0 || s < 0)
		die("socket");
	if (bind(r, (struct sockaddr *)&addr, addrlen) < 0)
		die("bind");
	memset(buf, 'y', sizeof(buf));
	for (size_t len = 100; len <= 200; len += 100) {
		if (sendto(s, buf, len, 0, (struct sockaddr *)&addr, addrlen) != (ssize_t)len)
			die("sendto");
		if (recv(r, buf, sizeof(buf), 0) != (ssize_t)len)
			die("recv");
	}
	close(s);
	close(r);
}

int main(int argc, char **argv)
{
	if (argc < 4 || (argc - 1) % 3 != 0) {
		fprintf(stderr, "usage: net_work tcp|refused|udp|big|unreach 4|6 [ADDR:]PORT ...\n");
		return 2;
	}
	for (int i = 1; i < argc; i += 3) {
		if (strcmp(argv[i + 1], "4") != 0 && strcmp(argv[i + 1], "6") != 0)
			return 2;
		fam = argv[i + 1][0] == '4' ? AF_INET : AF_INET6;
		char *colon = strchr(argv[i + 2], ':');
		set_addr(atoi(colon != NULL ? colon + 1 : argv[i + 2]));
		if (colon != NULL) {
			*colon = '\0';
			if (fam != AF_INET ||
			    inet_pton(AF_INET, argv[i + 2], &((struct sockaddr_in *)&addr)->sin_addr) != 1)
				return 2;
		}
		if (strcmp(argv[i], "tcp") == 0)
			tcp();
		else if (strcmp(argv[i], "refused") == 0)
			refused();
		else if (strcmp(argv[i], "udp") == 0)
			udp();
		else if (strcmp(argv[i], "big") == 0)
			big();
		else if (strcmp(argv[i], "unreach") == 0)
			unreach();
		else
			return 2;
	}
	return 0;
}
