#!/bin/bash
# tcp provider: a TCP connection the test makes (net_work) over IPv4 and
# IPv6 loopback in a network namespace of its own, and a connection
# refused.  Each socket's states, in order; the bytes each side sends;
# who connects to what, and who is refused (the Guide's examples); the
# connection's initial sequence numbers, which the SYNs sent show; and
# what the connection's socket says agrees with each segment's headers.
# (tcp:::receive needs kprobes: test/kernel-lab/net.sh.)
if [ -z "${NET_TEST_NS:-}" ]; then
	for t in unshare ip; do
		command -v $t >/dev/null || { echo "$t is not installed (util-linux, iproute2)" >&2; exit 77; }
	done
	NET_TEST_NS=1 exec unshare -n "$0" "$@"
fi
ip link set lo up || exit 1
"$1" -q -c "$DT_WORKLOADS/net_work tcp 4 5001 refused 4 5002 tcp 6 5001 refused 6 5002" -s /dev/stdin <<'EOD'
string seq[string];
uint32_t syn[string, int];

BEGIN {
	seq["127.0.0.1 listener"] = seq["127.0.0.1 client"] = seq["127.0.0.1 server"] =
	    seq["127.0.0.1 refused"] = seq["::1 listener"] = seq["::1 client"] =
	    seq["::1 server"] = seq["::1 refused"] = "";
}

tcp:::state-change {
	this->role = args[3]->tcps_rport == 5001 ? "client" : args[3]->tcps_rport == 5002 ? "refused" :
	    args[3]->tcps_rport == 0 ? "listener" : "server";
	this->k = strjoin(args[3]->tcps_laddr, strjoin(" ", this->role));
	seq[this->k] = strjoin(seq[this->k] == "" ? tcp_state_string[args[5]->tcps_state] : seq[this->k],
	    strjoin(" ", tcp_state_string[args[3]->tcps_state]));
}
tcp:::send /args[4]->tcp_sport == 5001 || args[4]->tcp_dport == 5001/ {
	@bytes[args[2]->ip_saddr, args[4]->tcp_sport == 5001 ? "server" : "client"] =
	    sum(args[2]->ip_plength - args[4]->tcp_offset);
}
tcp:::send /args[4]->tcp_flags & TH_SYN/ { syn[args[2]->ip_saddr, args[4]->tcp_sport] = args[4]->tcp_seq; }
tcp:::send /arg3 != NULL/ {
	@agree["send: tcpsinfo_t's ports are the header's", args[3]->tcps_lport == args[4]->tcp_sport &&
	    args[3]->tcps_rport == args[4]->tcp_dport] = max(1);
	@agree["send: the socket is csinfo_t's, no retransmission", args[1]->cs_addr == args[3]->tcps_addr &&
	    args[3]->tcps_retransmit == 0] = max(1);
}
tcp:::send /arg3 != NULL/ {
	@agree["send: tcpsinfo_t's local address is the source", args[3]->tcps_laddr == args[2]->ip_saddr] = max(1);
}
tcp:::send /arg3 != NULL/ {
	@agree["send: tcpsinfo_t's remote address is the destination", args[3]->tcps_raddr == args[2]->ip_daddr] = max(1);
}
tcp:::connect-request {
	@cr[args[2]->ip_saddr, args[2]->ip_daddr, args[4]->tcp_dport, args[4]->tcp_flags,
	    tcp_state_string[args[3]->tcps_state]] = count();
}
tcp:::connect-established, tcp:::accept-established {
	@est[probename, args[3]->tcps_laddr, tcp_state_string[args[3]->tcps_state], args[3]->tcps_local] = count();
}
tcp:::connect-established, tcp:::accept-established {
	@ip[probename, args[2]->ip_saddr, args[2]->ip_daddr] = count();
}
tcp:::connect-established, tcp:::accept-established {
	@isn[probename, args[3]->tcps_iss == syn[args[3]->tcps_laddr, args[3]->tcps_lport] &&
	    args[3]->tcps_irs == syn[args[3]->tcps_raddr, args[3]->tcps_rport]] = count();
}
tcp:::accept-established { @who[args[3]->tcps_raddr, args[3]->tcps_lport] = count(); }
tcp:::connect-established { @to[args[3]->tcps_raddr, args[3]->tcps_rport] = count(); }
tcp:::accept-refused { @closed[args[2]->ip_daddr, args[4]->tcp_sport, args[4]->tcp_flags] = count(); }
tcp:::connect-refused {
	@refused[args[3]->tcps_raddr, args[3]->tcps_rport, tcp_state_string[args[3]->tcps_state]] = count();
}
END {
	printf("127.0.0.1 listener: %s\n", seq["127.0.0.1 listener"]);
	printf("127.0.0.1 client:   %s\n", seq["127.0.0.1 client"]);
	printf("127.0.0.1 server:   %s\n", seq["127.0.0.1 server"]);
	printf("127.0.0.1 refused:  %s\n", seq["127.0.0.1 refused"]);
	printf("::1 listener: %s\n", seq["::1 listener"]);
	printf("::1 client:   %s\n", seq["::1 client"]);
	printf("::1 server:   %s\n", seq["::1 server"]);
	printf("::1 refused:  %s\n", seq["::1 refused"]);
	printa("%s sends %@d bytes (%s)\n", @bytes);
	printa("%s %d\n", @agree);
	printa("connect-request %s -> %s port %d flags %x %s: %@d\n", @cr);
	printa("%s %s %s local=%d: %@d\n", @est);
	printa("%s ip %s -> %s: %@d\n", @ip);
	printa("%s initial sequence numbers are the SYNs': %d (%@d)\n", @isn);
	printa("connected from %s to port %d: %@d\n", @who);
	printa("connected to %s port %d: %@d\n", @to);
	printa("refused for %s at port %d, flags %x: %@d\n", @closed);
	printa("refused by %s port %d in %s: %@d\n", @refused);
}
EOD
