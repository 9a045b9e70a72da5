/*
 * The ip, tcp and udp providers' common arguments (DTrace's net.d and
 * ip.d): pktinfo_t (the packet), csinfo_t (the connection), ipinfo_t
 * (the IP header, either version), ifinfo_t (the network device),
 * ipv4info_t and ipv6info_t (the header of one version, or NULL), each
 * translated from the kernel object the probe has.
 */

typedef uint64_t netstackid_t;		/* a network namespace (struct net *) */
typedef struct in6_addr in6_addr_t;

/* An IPv4 or an IPv6 header: its first 4 bits say which. */
typedef uintptr_t void_ip_t;
/* The same, or NULL for a tcp probe that has the socket and no packet. */
typedef void *__dtrace_tcp_void_ip_t;

typedef struct pktinfo {
	uintptr_t pkt_addr;		/* the packet (its struct sk_buff) */
} pktinfo_t;

typedef struct csinfo {
	uintptr_t cs_addr;		/* the connection's socket (struct sock) */
	uint64_t cs_cid;		/* its id: unique while the socket lives */
} csinfo_t;

typedef struct ipinfo {
	uint8_t ip_ver;			/* IP version (4, 6) */
	uint32_t ip_plength;		/* payload length */
	string ip_saddr;		/* source address */
	string ip_daddr;		/* destination address */
} ipinfo_t;

typedef struct ifinfo {
	string if_name;			/* interface name */
	int8_t if_local;		/* is delivered locally (the loopback device) */
	netstackid_t if_ipstack;	/* its network namespace */
	uintptr_t if_addr;		/* its struct net_device */
} ifinfo_t;

typedef struct ipv4info {
	uint8_t ipv4_ver;		/* IP version (4) */
	uint8_t ipv4_ihl;		/* header length, bytes */
	uint8_t ipv4_tos;		/* type of service */
	uint16_t ipv4_length;		/* length (header and payload) */
	uint16_t ipv4_ident;		/* identification */
	uint8_t ipv4_flags;		/* flags: 0x40 don't fragment, 0x20 more fragments */
	uint16_t ipv4_offset;		/* fragment offset, in 8-byte units */
	uint8_t ipv4_ttl;		/* time to live */
	uint8_t ipv4_protocol;		/* next protocol */
	string ipv4_protostr;		/* next protocol, as a string */
	uint16_t ipv4_checksum;		/* header checksum */
	ipaddr_t ipv4_src;		/* source address */
	ipaddr_t ipv4_dst;		/* destination address */
	string ipv4_saddr;		/* source address, as a string */
	string ipv4_daddr;		/* destination address, as a string */
	struct iphdr *ipv4_hdr;		/* the header */
} ipv4info_t;

typedef struct ipv6info {
	uint8_t ipv6_ver;		/* IP version (6) */
	uint8_t ipv6_tclass;		/* traffic class */
	uint32_t ipv6_flow;		/* flow label */
	uint16_t ipv6_plen;		/* payload length */
	uint8_t ipv6_nexthdr;		/* next header */
	string ipv6_nextstr;		/* next header, as a string */
	uint8_t ipv6_hlim;		/* hop limit */
	in6_addr_t *ipv6_src;		/* source address */
	in6_addr_t *ipv6_dst;		/* destination address */
	string ipv6_saddr;		/* source address, as a string */
	string ipv6_daddr;		/* destination address, as a string */
	struct ipv6hdr *ipv6_hdr;	/* the header */
} ipv6info_t;

/* A protocol number's name, as ipv4_protostr and ipv6_nextstr give it. */
inline string __dtrace_ipproto_string[int p] =
	p == IPPROTO_TCP ? "TCP" :
	p == IPPROTO_UDP ? "UDP" :
	p == IPPROTO_IP ? "IP" :
	p == IPPROTO_ICMP ? "ICMP" :
	p == IPPROTO_IGMP ? "IGMP" :
	p == IPPROTO_EGP ? "EGP" :
	p == IPPROTO_IPV6 ? "IPv6" :
	p == IPPROTO_ROUTING ? "ROUTE" :
	p == IPPROTO_ESP ? "ESP" :
	p == IPPROTO_AH ? "AH" :
	p == IPPROTO_ICMPV6 ? "ICMPv6" :
	p == IPPROTO_OSPF ? "OSPF" :
	p == IPPROTO_SCTP ? "SCTP" :
	p == IPPROTO_RAW ? "RAW" :
	lltostr(p);

/*
 * The IP version of a socket's packets: an IPv6 socket whose peer is an
 * IPv4-mapped address (::ffff:a.b.c.d) sends IPv4.
 */
inline int __dtrace_sock_ipver[struct sock *S] =
	S == NULL ? 0 :
	S->__sk_common.skc_family == AF_INET ? 4 :
	S->__sk_common.skc_family != AF_INET6 ? 0 :
	S->__sk_common.skc_v6_daddr.in6_u.u6_addr32[0] == 0 &&
	S->__sk_common.skc_v6_daddr.in6_u.u6_addr32[1] == 0 &&
	S->__sk_common.skc_v6_daddr.in6_u.u6_addr32[2] == htonl(0xffff) ? 4 : 6;

translator pktinfo_t < struct sk_buff *S > {
	pkt_addr = (uintptr_t)S;
};

translator csinfo_t < struct sock *S > {
	cs_addr = (uintptr_t)S;
	cs_cid = (uint64_t)S;
};

translator ipinfo_t < void_ip_t *I > {
	ip_ver = I != NULL ? *(uint8_t *)I >> 4 : 0;
	ip_plength = I == NULL ? 0 :
	    *(uint8_t *)I >> 4 == 4 ?
	    ntohs(((struct iphdr *)I)->tot_len) - ((*(uint8_t *)I & 0xf) << 2) :
	    *(uint8_t *)I >> 4 == 6 ? ntohs(((struct ipv6hdr *)I)->payload_len) : 0;
	ip_saddr = I == NULL ? "<unknown>" :
	    *(uint8_t *)I >> 4 == 4 ? inet_ntoa(&((struct iphdr *)I)->saddr) :
	    *(uint8_t *)I >> 4 == 6 ? inet_ntoa6(&((struct ipv6hdr *)I)->saddr) : "<unknown>";
	ip_daddr = I == NULL ? "<unknown>" :
	    *(uint8_t *)I >> 4 == 4 ? inet_ntoa(&((struct iphdr *)I)->daddr) :
	    *(uint8_t *)I >> 4 == 6 ? inet_ntoa6(&((struct ipv6hdr *)I)->daddr) : "<unknown>";
};

/*
 * tcp's probes that know the socket and not the packet (arg2 NULL) give
 * the socket's addresses: the peer's is the source of what comes in
 * (arg6 NET_PROBE_INBOUND), the destination of what goes out.  (Each
 * address is chosen first and formatted by one call: the verifier
 * follows fewer paths.)
 */
inline int __dtrace_tcp_ipver[__dtrace_tcp_void_ip_t *I] =
	I != NULL ? *(uint8_t *)I >> 4 : __dtrace_sock_ipver[(struct sock *)arg3];
/* Where the source (s != 0) or destination address is, for that version. */
inline uintptr_t __dtrace_tcp_ipaddr[__dtrace_tcp_void_ip_t *I, int s] =
	I != NULL ?
	(*(uint8_t *)I >> 4 == 4 ?
	(uintptr_t)(s ? &((struct iphdr *)I)->saddr : &((struct iphdr *)I)->daddr) :
	(uintptr_t)(s ? &((struct ipv6hdr *)I)->saddr : &((struct ipv6hdr *)I)->daddr)) :
	(s != 0) == (arg6 == NET_PROBE_INBOUND) ?
	(__dtrace_sock_ipver[(struct sock *)arg3] == 4 ?
	(uintptr_t)&((struct sock *)arg3)->__sk_common.skc_daddr :
	(uintptr_t)&((struct sock *)arg3)->__sk_common.skc_v6_daddr) :
	(__dtrace_sock_ipver[(struct sock *)arg3] == 4 ?
	(uintptr_t)&((struct sock *)arg3)->__sk_common.skc_rcv_saddr :
	(uintptr_t)&((struct sock *)arg3)->__sk_common.skc_v6_rcv_saddr);

translator ipinfo_t < __dtrace_tcp_void_ip_t *I > {
	ip_ver = __dtrace_tcp_ipver[I];
	ip_plength = I == NULL ? 0 :
	    *(uint8_t *)I >> 4 == 4 ?
	    ntohs(((struct iphdr *)I)->tot_len) - ((*(uint8_t *)I & 0xf) << 2) :
	    *(uint8_t *)I >> 4 == 6 ? ntohs(((struct ipv6hdr *)I)->payload_len) : 0;
	ip_saddr = __dtrace_tcp_ipver[I] == 4 ? inet_ntoa((ipaddr_t *)__dtrace_tcp_ipaddr[I, 1]) :
	    __dtrace_tcp_ipver[I] == 6 ? inet_ntoa6((in6_addr_t *)__dtrace_tcp_ipaddr[I, 1]) :
	    "<unknown>";
	ip_daddr = __dtrace_tcp_ipver[I] == 4 ? inet_ntoa((ipaddr_t *)__dtrace_tcp_ipaddr[I, 0]) :
	    __dtrace_tcp_ipver[I] == 6 ? inet_ntoa6((in6_addr_t *)__dtrace_tcp_ipaddr[I, 0]) :
	    "<unknown>";
};

/* IFF_LOOPBACK (0x8): what a loopback device carries stays on this host. */
translator ifinfo_t < struct net_device *N > {
	if_name = N != NULL ? stringof(N->name) : "<unknown>";
	if_local = N != NULL && (N->flags & 0x8) != 0;
	if_ipstack = N != NULL ? (uint64_t)N->nd_net.net : 0;
	if_addr = (uintptr_t)N;
};

/* ipv4_flags and ipv4_offset as DTrace has them: the flags' 3 bits are the byte's top bits. */
translator ipv4info_t < struct iphdr *I > {
	ipv4_ver = I != NULL ? 4 : 0;
	ipv4_ihl = I != NULL ? (*(uint8_t *)I & 0xf) << 2 : 0;
	ipv4_tos = I != NULL ? I->tos : 0;
	ipv4_length = I != NULL ? ntohs(I->tot_len) : 0;
	ipv4_ident = I != NULL ? ntohs(I->id) : 0;
	ipv4_flags = I != NULL ? (ntohs(I->frag_off) & 0xe000) >> 8 : 0;
	ipv4_offset = I != NULL ? ntohs(I->frag_off) & 0x1fff : 0;
	ipv4_ttl = I != NULL ? I->ttl : 0;
	ipv4_protocol = I != NULL ? I->protocol : 0;
	ipv4_protostr = I != NULL ? __dtrace_ipproto_string[I->protocol] : "<null>";
	ipv4_checksum = I != NULL ? ntohs(I->check) : 0;
	ipv4_src = I != NULL ? I->saddr : 0;
	ipv4_dst = I != NULL ? I->daddr : 0;
	ipv4_saddr = I != NULL ? inet_ntoa(&I->saddr) : "<null>";
	ipv4_daddr = I != NULL ? inet_ntoa(&I->daddr) : "<null>";
	ipv4_hdr = I;
};

translator ipv6info_t < struct ipv6hdr *I > {
	ipv6_ver = I != NULL ? *(uint8_t *)I >> 4 : 0;
	ipv6_tclass = I != NULL ? (ntohl(*(uint32_t *)I) >> 20) & 0xff : 0;
	ipv6_flow = I != NULL ? ntohl(*(uint32_t *)I) & 0xfffff : 0;
	ipv6_plen = I != NULL ? ntohs(I->payload_len) : 0;
	ipv6_nexthdr = I != NULL ? I->nexthdr : 0;
	ipv6_nextstr = I != NULL ? __dtrace_ipproto_string[I->nexthdr] : "<null>";
	ipv6_hlim = I != NULL ? I->hop_limit : 0;
	ipv6_src = I != NULL ? &I->saddr : NULL;
	ipv6_dst = I != NULL ? &I->daddr : NULL;
	ipv6_saddr = I != NULL ? inet_ntoa6(&I->saddr) : "<null>";
	ipv6_daddr = I != NULL ? inet_ntoa6(&I->daddr) : "<null>";
	ipv6_hdr = I;
};
