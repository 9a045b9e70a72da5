/*
 * The tcp provider's arguments (DTrace's tcp.d): tcpinfo_t (the TCP
 * header), tcpsinfo_t (the connection, from its socket: a struct
 * tcp_sock, or the request or TIME-WAIT socket that stands for one,
 * which has only the struct sock_common part), tcplsinfo_t (the state
 * before a state change).  The probe's arguments past args[] tell the
 * translators what they need (prov_tcp.c): arg6 is NET_PROBE_OUTBOUND,
 * NET_PROBE_INBOUND or NET_PROBE_STATE, arg7 the state the socket is in
 * where the probe knows it and the socket does not say yet (a state
 * change's new state), else 0.  Without a socket, tcpsinfo_t's ports and addresses come from
 * the headers (arg2, arg4): the local ones are the destination of what
 * comes in, the source of what goes out.
 *
 * tcps_rto has no conversion: the kernel keeps it in jiffies, whose
 * length is not known here.
 */

typedef struct tcpinfo {
	uint16_t tcp_sport;		/* source port */
	uint16_t tcp_dport;		/* destination port */
	uint32_t tcp_seq;		/* sequence number */
	uint32_t tcp_ack;		/* acknowledgment number */
	uint8_t tcp_offset;		/* data offset, in bytes */
	uint8_t tcp_flags;		/* flags (TH_*) */
	uint16_t tcp_window;		/* window size */
	uint16_t tcp_checksum;		/* checksum */
	uint16_t tcp_urgent;		/* urgent data pointer */
	uintptr_t tcp_hdr;		/* the header */
} tcpinfo_t;

typedef struct tcpsinfo {
	uintptr_t tcps_addr;		/* the socket */
	int tcps_local;			/* is delivered locally, boolean */
	uint16_t tcps_lport;		/* local port */
	uint16_t tcps_rport;		/* remote port */
	string tcps_laddr;		/* local address, as a string */
	string tcps_raddr;		/* remote address, as a string */
	int tcps_state;			/* TCP state (TCP_STATE_*) */
	uint32_t tcps_iss;		/* initial sequence number sent */
	uint32_t tcps_suna;		/* sequence number sent but unacknowledged */
	uint32_t tcps_snxt;		/* next sequence number to send */
	uint32_t tcps_rnxt;		/* next sequence number expected */
	uint32_t tcps_swnd;		/* send window */
	int32_t tcps_snd_ws;		/* send window scaling */
	uint32_t tcps_rwnd;		/* receive window */
	int32_t tcps_rcv_ws;		/* receive window scaling */
	uint32_t tcps_cwnd;		/* congestion window (segments) */
	uint32_t tcps_cwnd_ssthresh;	/* slow start threshold (segments) */
	uint32_t tcps_sack_snxt;	/* next sequence number to retransmit with SACK */
	uint32_t tcps_rto;		/* (no conversion) */
	uint32_t tcps_mss;		/* maximum segment size */
	int tcps_retransmit;		/* the segment sent is a retransmission, boolean */
	uint32_t tcps_rtt;		/* smoothed round-trip time, msec */
	uint32_t tcps_rtt_sd;		/* its mean deviation, msec */
	uint32_t tcps_irs;		/* initial sequence number received */
} tcpsinfo_t;

typedef struct tcplsinfo {
	int tcps_state;			/* the previous TCP state */
} tcplsinfo_t;

/* A request socket: the kernel's TCP_NEW_SYN_RECV (12). */
inline int __dtrace_tcp_request[struct tcp_sock *T] =
	T != NULL && ((struct sock *)T)->__sk_common.skc_state == 12;
/* A TIME-WAIT socket. */
inline int __dtrace_tcp_tw[struct tcp_sock *T] =
	T != NULL && ((struct sock *)T)->__sk_common.skc_state == TCP_STATE_TIME_WAIT;
/* A full socket, whose struct tcp_sock is there. */
inline int __dtrace_tcp_full[struct tcp_sock *T] =
	T != NULL && !__dtrace_tcp_request[T] && !__dtrace_tcp_tw[T];

/* The local port or address is the header's destination in what comes in. */
inline int __dtrace_tcp_in = arg6 == NET_PROBE_INBOUND;

/*
 * The version of a connection's addresses (the socket's family, else the
 * header's) and where its local (l != 0) or remote address is: each is
 * chosen first and formatted by one call (the verifier follows fewer
 * paths).
 */
inline int __dtrace_tcps_ver[struct tcp_sock *T] =
	T != NULL ?
	(((struct sock *)T)->__sk_common.skc_family == AF_INET ? 4 :
	((struct sock *)T)->__sk_common.skc_family == AF_INET6 ? 6 : 0) :
	arg2 != NULL ? *(uint8_t *)arg2 >> 4 : 0;
inline uintptr_t __dtrace_tcps_addr[struct tcp_sock *T, int l] =
	T != NULL ?
	(__dtrace_tcps_ver[T] == 4 ?
	(uintptr_t)(l ? &((struct sock *)T)->__sk_common.skc_rcv_saddr :
	&((struct sock *)T)->__sk_common.skc_daddr) :
	(uintptr_t)(l ? &((struct sock *)T)->__sk_common.skc_v6_rcv_saddr :
	&((struct sock *)T)->__sk_common.skc_v6_daddr)) :
	(l != 0) == __dtrace_tcp_in ?
	(__dtrace_tcps_ver[T] == 4 ? (uintptr_t)&((struct iphdr *)arg2)->daddr :
	(uintptr_t)&((struct ipv6hdr *)arg2)->daddr) :
	(__dtrace_tcps_ver[T] == 4 ? (uintptr_t)&((struct iphdr *)arg2)->saddr :
	(uintptr_t)&((struct ipv6hdr *)arg2)->saddr);

translator tcpinfo_t < struct tcphdr *T > {
	tcp_sport = T != NULL ? ntohs(T->source) : 0;
	tcp_dport = T != NULL ? ntohs(T->dest) : 0;
	tcp_seq = T != NULL ? ntohl(T->seq) : 0;
	tcp_ack = T != NULL ? ntohl(T->ack_seq) : 0;
	tcp_offset = T != NULL ? (*((uint8_t *)T + 12) & 0xf0) >> 2 : 0;
	tcp_flags = T != NULL ? *((uint8_t *)T + 13) : 0;
	tcp_window = T != NULL ? ntohs(T->window) : 0;
	tcp_checksum = T != NULL ? ntohs(T->check) : 0;
	tcp_urgent = T != NULL ? ntohs(T->urg_ptr) : 0;
	tcp_hdr = (uintptr_t)T;
};

translator tcpsinfo_t < struct tcp_sock *T > {
	tcps_addr = (uintptr_t)T;
	tcps_local = T != NULL ?
	    (__dtrace_tcp_full[T] && ((struct sock *)T)->sk_dst_cache != NULL ?
	    (((struct sock *)T)->sk_dst_cache->dev->flags & 0x8) != 0 :
	    ((struct sock *)T)->__sk_common.skc_family == AF_INET ?
	    ((struct sock *)T)->__sk_common.skc_rcv_saddr ==
	    ((struct sock *)T)->__sk_common.skc_daddr ||
	    (ntohl(((struct sock *)T)->__sk_common.skc_daddr) >> 24) == 127 :
	    ((struct sock *)T)->__sk_common.skc_family == AF_INET6 ?
	    ((struct sock *)T)->__sk_common.skc_v6_rcv_saddr.in6_u.u6_addr32[0] ==
	    ((struct sock *)T)->__sk_common.skc_v6_daddr.in6_u.u6_addr32[0] &&
	    ((struct sock *)T)->__sk_common.skc_v6_rcv_saddr.in6_u.u6_addr32[1] ==
	    ((struct sock *)T)->__sk_common.skc_v6_daddr.in6_u.u6_addr32[1] &&
	    ((struct sock *)T)->__sk_common.skc_v6_rcv_saddr.in6_u.u6_addr32[2] ==
	    ((struct sock *)T)->__sk_common.skc_v6_daddr.in6_u.u6_addr32[2] &&
	    ((struct sock *)T)->__sk_common.skc_v6_rcv_saddr.in6_u.u6_addr32[3] ==
	    ((struct sock *)T)->__sk_common.skc_v6_daddr.in6_u.u6_addr32[3] : 0) :
	    arg2 == NULL ? 0 :
	    *(uint8_t *)arg2 >> 4 == 4 ?
	    ((struct iphdr *)arg2)->saddr == ((struct iphdr *)arg2)->daddr ||
	    (ntohl(((struct iphdr *)arg2)->saddr) >> 24) == 127 :
	    *(uint8_t *)arg2 >> 4 == 6 ?
	    ((struct ipv6hdr *)arg2)->saddr.in6_u.u6_addr32[0] ==
	    ((struct ipv6hdr *)arg2)->daddr.in6_u.u6_addr32[0] &&
	    ((struct ipv6hdr *)arg2)->saddr.in6_u.u6_addr32[1] ==
	    ((struct ipv6hdr *)arg2)->daddr.in6_u.u6_addr32[1] &&
	    ((struct ipv6hdr *)arg2)->saddr.in6_u.u6_addr32[2] ==
	    ((struct ipv6hdr *)arg2)->daddr.in6_u.u6_addr32[2] &&
	    ((struct ipv6hdr *)arg2)->saddr.in6_u.u6_addr32[3] ==
	    ((struct ipv6hdr *)arg2)->daddr.in6_u.u6_addr32[3] : 0;
	/* A closing socket has given its port back (inet_num is 0); inet_sport keeps it. */
	tcps_lport = __dtrace_tcp_full[T] && ((struct inet_sock *)T)->inet_sport != 0 ?
	    ntohs(((struct inet_sock *)T)->inet_sport) :
	    T != NULL ? ((struct sock *)T)->__sk_common.skc_num :
	    arg4 == NULL ? 0 :
	    ntohs(__dtrace_tcp_in ? ((struct tcphdr *)arg4)->dest : ((struct tcphdr *)arg4)->source);
	tcps_rport = T != NULL ? ntohs(((struct sock *)T)->__sk_common.skc_dport) :
	    arg4 == NULL ? 0 :
	    ntohs(__dtrace_tcp_in ? ((struct tcphdr *)arg4)->source : ((struct tcphdr *)arg4)->dest);
	tcps_laddr = __dtrace_tcps_ver[T] == 4 ? inet_ntoa((ipaddr_t *)__dtrace_tcps_addr[T, 1]) :
	    __dtrace_tcps_ver[T] == 6 ? inet_ntoa6((in6_addr_t *)__dtrace_tcps_addr[T, 1]) :
	    "<unknown>";
	tcps_raddr = __dtrace_tcps_ver[T] == 4 ? inet_ntoa((ipaddr_t *)__dtrace_tcps_addr[T, 0]) :
	    __dtrace_tcps_ver[T] == 6 ? inet_ntoa6((in6_addr_t *)__dtrace_tcps_addr[T, 0]) :
	    "<unknown>";
	/* A state change's new state; a request socket's is SYN-RECEIVED, a TIME-WAIT one's its own. */
	tcps_state = arg7 != 0 ? arg7 :
	    T == NULL ? 0 :
	    __dtrace_tcp_request[T] ? TCP_STATE_SYN_RECEIVED :
	    __dtrace_tcp_tw[T] ? ((struct inet_timewait_sock *)T)->tw_substate :
	    ((struct sock *)T)->__sk_common.skc_state;
	/*
	 * snd_una less what has been acknowledged: bytes_acked counts the
	 * SYN of an active open, not that of a passive one, whose socket is
	 * a copy of its listener's (and so has a listen backlog).
	 */
	tcps_iss = __dtrace_tcp_full[T] ?
	    (((struct sock *)T)->__sk_common.skc_state == TCP_STATE_LISTEN ? 0 :
	    T->snd_una - (uint32_t)T->bytes_acked -
	    (((struct sock *)T)->sk_max_ack_backlog != 0 ? 1 : 0)) :
	    __dtrace_tcp_request[T] ? ((struct tcp_request_sock *)T)->snt_isn : 0;
	tcps_suna = __dtrace_tcp_full[T] ? T->snd_una : 0;
	tcps_snxt = __dtrace_tcp_full[T] ? T->snd_nxt : 0;
	tcps_rnxt = __dtrace_tcp_full[T] ? T->rcv_nxt : 0;
	tcps_swnd = __dtrace_tcp_full[T] ? T->snd_wnd : 0;
	tcps_snd_ws = __dtrace_tcp_full[T] ? T->rx_opt.snd_wscale : 0;
	tcps_rwnd = __dtrace_tcp_full[T] ? T->rcv_wnd : 0;
	tcps_rcv_ws = __dtrace_tcp_full[T] ? T->rx_opt.rcv_wscale : 0;
	tcps_cwnd = __dtrace_tcp_full[T] ? T->snd_cwnd : 0;
	tcps_cwnd_ssthresh = __dtrace_tcp_full[T] ? T->snd_ssthresh : 0;
	tcps_sack_snxt = !__dtrace_tcp_full[T] ? 0 :
	    T->sacked_out == 0 ? T->snd_una :
	    T->highest_sack == NULL ? T->snd_nxt :
	    ((struct tcp_skb_cb *)&T->highest_sack->cb[0])->seq;
	tcps_mss = __dtrace_tcp_full[T] ? T->mss_cache : 0;
	/* A segment sent below snd_nxt (which the kernel advances after sending new data). */
	tcps_retransmit = arg6 == NET_PROBE_OUTBOUND && arg4 != NULL && __dtrace_tcp_full[T] ?
	    (int32_t)(ntohl(((struct tcphdr *)arg4)->seq) - T->snd_nxt) < 0 : 0;
	tcps_rtt = __dtrace_tcp_full[T] ? (T->srtt_us >> 3) / 1000 : 0;
	tcps_rtt_sd = __dtrace_tcp_full[T] ? (T->mdev_us >> 2) / 1000 : 0;
	/* rcv_nxt counts the SYN received; bytes_received what came after it. */
	tcps_irs = __dtrace_tcp_full[T] ?
	    (T->rcv_nxt == 0 ? 0 : T->rcv_nxt - (uint32_t)T->bytes_received - 1) :
	    __dtrace_tcp_request[T] ? ((struct tcp_request_sock *)T)->rcv_isn : 0;
};

translator tcplsinfo_t < int I > {
	tcps_state = I;
};
