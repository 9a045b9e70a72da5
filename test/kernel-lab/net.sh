#!/bin/sh
# ip, tcp and udp on a stock distribution kernel, run inside the kernel
# lab by run-lab-tests: `net.sh DTRACE`, stdout compared with net.out.
# Here kprobes work: tcp:::receive and udp:::receive (which need them)
# are tested, with the probes the tracepoints make, on the loopback
# traffic of net_work ($DT_WORKLOADS): a TCP connection, a refused one and
# two UDP datagrams over IPv4 and IPv6.  The guest's only network is lo,
# where nothing else sends.
d=$1
W=$DT_WORKLOADS/net_work
ip link set lo up || exit 1

echo "== tcp:::receive: the bytes each side receives, the SYNs, what the socket says"
"$d" -q -c "$W tcp 4 5001 refused 4 5002 tcp 6 5001 refused 6 5002" -n '
tcp:::receive /args[4]->tcp_sport == 5001 || args[4]->tcp_dport == 5001/ {
	@bytes[args[2]->ip_daddr, args[4]->tcp_dport == 5001 ? "server" : "client"] =
	    sum(args[2]->ip_plength - args[4]->tcp_offset);
}
tcp:::receive /(args[4]->tcp_flags & (TH_SYN | TH_ACK)) == TH_SYN/ {
	@syn[args[4]->tcp_dport, args[3]->tcps_state, arg3 != NULL] = count();
}
tcp:::receive /arg3 != NULL/ {
	@agree["tcpsinfo_t ports are the header'"'"'s", args[3]->tcps_lport == args[4]->tcp_dport &&
	    (args[3]->tcps_rport == args[4]->tcp_sport || args[3]->tcps_rport == 0)] = max(1);
}
tcp:::accept-refused { @refused[args[2]->ip_daddr, args[4]->tcp_sport, args[4]->tcp_flags] = count(); }
tcp:::connect-refused { @cr[args[3]->tcps_raddr, args[3]->tcps_rport] = count(); }
END {
	printa("%s receives %@d bytes (%s)\n", @bytes);
	printa("SYN to port %d in state %d, socket=%d: %@d\n", @syn);
	printa("%s: %d\n", @agree);
	printa("refused for %s at port %d, flags %x: %@d\n", @refused);
	printa("refused by %s port %d: %@d\n", @cr);
}'

echo "== tcp:::state-change (before Linux 6.14, SYN-RECEIVED comes before the socket has its peer)"
"$d" -q -c "$W tcp 4 5001" -n '
tcp:::state-change {
	printf("%s:%d %s -> %s\n", args[3]->tcps_laddr, args[3]->tcps_lport == 5001 ? 5001 : 0,
	    tcp_state_string[args[5]->tcps_state], tcp_state_string[args[3]->tcps_state]);
}' | sort

echo "== udp:::send and udp:::receive"
"$d" -q -c "$W udp 4 5003 udp 6 5003" -n '
udp:::send, udp:::receive {
	@[probename, args[2]->ip_ver, args[4]->udp_length, args[3]->udps_lport == (probename == "send" ?
	    args[4]->udp_sport : 5003), args[3]->udps_rport == (probename == "send" ? 5003 :
	    args[4]->udp_sport)] = count();
}
END { printa("%s IPv%d length %d lport=%d rport=%d: %@d\n", @); }'

echo "== udp:::receive addresses"
"$d" -q -c "$W udp 4 5003 udp 6 5003" -n '
udp:::receive { @[args[3]->udps_laddr, args[3]->udps_raddr, args[1]->cs_addr != 0] = count(); }
END { printa("local %s remote %s socket=%d: %@d\n", @); }'

echo "== ip: sends and receives balance"
"$d" -q -c "$W tcp 4 5001 udp 6 5003" -n '
ip:::send, ip:::receive {
	@[args[2]->ip_ver, args[2]->ip_ver == 4 ? args[4]->ipv4_protostr : args[5]->ipv6_nextstr,
	    args[3]->if_name] = sum(probename == "send" ? 1 : -1);
}
END { printa("IPv%d %s on %s: %@d\n", @); }'
