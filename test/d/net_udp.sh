#!/bin/bash
# udp provider: datagrams of 100 and 200 bytes the test sends (net_work)
# over IPv4 and IPv6 loopback, in a network namespace of its own: each is
# seen once by udp:::send, with its header, its socket (udpsinfo_t's
# local end is the source) and its IP header.  (udp:::receive needs
# kprobes: test/kernel-lab/net.sh.)
if [ -z "${NET_TEST_NS:-}" ]; then
	for t in unshare ip; do
		command -v $t >/dev/null || { echo "$t is not installed (util-linux, iproute2)" >&2; exit 77; }
	done
	NET_TEST_NS=1 exec unshare -n "$0" "$@"
fi
ip link set lo up || exit 1
"$1" -q -c "$DT_WORKLOADS/net_work udp 4 5003 udp 6 5003" -n '
udp:::send {
	@len[args[2]->ip_ver, args[4]->udp_dport, args[4]->udp_length, args[2]->ip_plength] = count();
	@sock[args[2]->ip_ver, args[1]->cs_addr == args[3]->udps_addr && args[3]->udps_addr != 0,
	    args[3]->udps_lport == args[4]->udp_sport, args[3]->udps_rport == 5003,
	    args[0]->pkt_addr != 0] = count();
}
udp:::send {
	@addr[args[3]->udps_laddr, args[3]->udps_raddr, args[2]->ip_saddr, args[2]->ip_daddr] = count();
}
END {
	printa("IPv%d to port %d: length %d, IP payload %d: %@d\n", @len);
	printa("IPv%d socket=%d lport=%d rport=%d pkt=%d: %@d\n", @sock);
	printa("local %s remote %s, IP %s -> %s: %@d\n", @addr);
}'
