#!/bin/bash
# A datagram of 3000 bytes over loopback with an MTU of 1500 (in a network
# namespace of the test's own) travels in three IP fragments, IPv4 and
# IPv6 alike: ip:::send and ip:::receive see each fragment (the offsets
# and lengths of IPv4's); udp:::send sees the datagram once, with its UDP
# header (in the first fragment).
if [ -z "${NET_TEST_NS:-}" ]; then
	for t in unshare ip; do
		command -v $t >/dev/null || { echo "$t is not installed (util-linux, iproute2)" >&2; exit 77; }
	done
	NET_TEST_NS=1 exec unshare -n "$0" "$@"
fi
ip link set lo mtu 1500 up || exit 1
"$1" -q -c "$DT_WORKLOADS/net_work big 4 5004 big 6 5004" -n '
ip:::send, ip:::receive /args[2]->ip_ver == 4/ {
	@v4[probename, args[4]->ipv4_offset * 8, args[4]->ipv4_flags, args[2]->ip_plength] = count();
}
ip:::send, ip:::receive /args[2]->ip_ver == 6/ {
	@v6[probename, args[5]->ipv6_nextstr, args[2]->ip_plength] = count();
}
udp:::send {
	@udp[args[2]->ip_ver, args[4]->udp_dport, args[4]->udp_length, args[3]->udps_lport != 0] = count();
}
END {
	printa("IPv4 %s offset %d flags %x payload %d: %@d\n", @v4);
	printa("IPv6 %s next %s payload %d: %@d\n", @v6);
	printa("udp:::send IPv%d to port %d length %d lport=%d: %@d\n", @udp);
}'
