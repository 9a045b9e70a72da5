/*
 * The udp provider's arguments (DTrace's udp.d): udpinfo_t (the UDP
 * header), udpsinfo_t (the socket; its ports and addresses are the
 * datagram's, the local ones the destination of what comes in (arg5
 * NET_PROBE_INBOUND), the source of what goes out).
 */

typedef struct udpinfo {
	uint16_t udp_sport;		/* source port */
	uint16_t udp_dport;		/* destination port */
	uint16_t udp_length;		/* length (header and data) */
	uint16_t udp_checksum;		/* checksum */
	struct udphdr *udp_hdr;		/* the header */
} udpinfo_t;

typedef struct udpsinfo {
	uintptr_t udps_addr;		/* the socket */
	uint16_t udps_lport;		/* local port */
	uint16_t udps_rport;		/* remote port */
	string udps_laddr;		/* local address, as a string */
	string udps_raddr;		/* remote address, as a string */
} udpsinfo_t;

inline int __dtrace_udp_in = arg5 == NET_PROBE_INBOUND;
/* Where the local (l != 0) or remote address is in the IP header (arg2). */
inline uintptr_t __dtrace_udp_addr[int l] =
	(l != 0) == __dtrace_udp_in ?
	(*(uint8_t *)arg2 >> 4 == 4 ? (uintptr_t)&((struct iphdr *)arg2)->daddr :
	(uintptr_t)&((struct ipv6hdr *)arg2)->daddr) :
	(*(uint8_t *)arg2 >> 4 == 4 ? (uintptr_t)&((struct iphdr *)arg2)->saddr :
	(uintptr_t)&((struct ipv6hdr *)arg2)->saddr);

translator udpinfo_t < struct udphdr *U > {
	udp_sport = U != NULL ? ntohs(U->source) : 0;
	udp_dport = U != NULL ? ntohs(U->dest) : 0;
	udp_length = U != NULL ? ntohs(U->len) : 0;
	udp_checksum = U != NULL ? ntohs(U->check) : 0;
	udp_hdr = U;
};

translator udpsinfo_t < struct udp_sock *S > {
	udps_addr = (uintptr_t)S;
	udps_lport = arg4 == NULL ? 0 :
	    ntohs(__dtrace_udp_in ? ((struct udphdr *)arg4)->dest : ((struct udphdr *)arg4)->source);
	udps_rport = arg4 == NULL ? 0 :
	    ntohs(__dtrace_udp_in ? ((struct udphdr *)arg4)->source : ((struct udphdr *)arg4)->dest);
	udps_laddr = arg2 == NULL ? "<unknown>" :
	    *(uint8_t *)arg2 >> 4 == 4 ? inet_ntoa((ipaddr_t *)__dtrace_udp_addr[1]) :
	    *(uint8_t *)arg2 >> 4 == 6 ? inet_ntoa6((in6_addr_t *)__dtrace_udp_addr[1]) :
	    "<unknown>";
	udps_raddr = arg2 == NULL ? "<unknown>" :
	    *(uint8_t *)arg2 >> 4 == 4 ? inet_ntoa((ipaddr_t *)__dtrace_udp_addr[0]) :
	    *(uint8_t *)arg2 >> 4 == 6 ? inet_ntoa6((in6_addr_t *)__dtrace_udp_addr[0]) :
	    "<unknown>";
};
