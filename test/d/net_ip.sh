#!/bin/bash
# ip provider: loopback traffic the test makes in a network namespace of
# its own, where nothing else sends (net_work: a TCP connection and two
# UDP datagrams, over IPv4 and IPv6).  Every packet sent on lo is
# received on lo, so the sends and receives of each version and protocol
# balance, whatever TCP's segments are; the datagrams' lengths are
# exact; the headers' fields are those of loopback packets; args[4] and
# args[5] are the header of the packet's version, or none.
if [ -z "${NET_TEST_NS:-}" ]; then
	for t in unshare ip; do
		command -v $t >/dev/null || { echo "$t is not installed (util-linux, iproute2)" >&2; exit 77; }
	done
	NET_TEST_NS=1 exec unshare -n "$0" "$@"
fi
ip link set lo up || exit 1
"$1" -q -c "$DT_WORKLOADS/net_work tcp 4 5001 udp 4 5003 tcp 6 5001 udp 6 5003" -n '
ip:::send, ip:::receive {
	@bal[args[2]->ip_ver, args[2]->ip_ver == 4 ? args[4]->ipv4_protostr : args[5]->ipv6_nextstr] =
	    sum(probename == "send" ? 1 : -1);
}
ip:::send, ip:::receive
/args[2]->ip_ver == 4 ? args[4]->ipv4_protocol == IPPROTO_UDP : args[5]->ipv6_nexthdr == IPPROTO_UDP/ {
	@udp[probename, args[2]->ip_ver, args[2]->ip_saddr, args[2]->ip_daddr] = sum(args[2]->ip_plength);
}
ip:::send, ip:::receive {
	@dev[probename, args[3]->if_name, args[3]->if_local, args[3]->if_ipstack != 0,
	    args[3]->if_addr != 0, args[0]->pkt_addr != 0] = max(1);
}
ip:::send, ip:::receive /args[2]->ip_ver == 4/ {
	@v4[probename, args[4]->ipv4_ver, args[4]->ipv4_ihl, args[4]->ipv4_ttl,
	    args[4]->ipv4_length == args[2]->ip_plength + 20, args[4]->ipv4_offset] = max(1);
	@v4a[probename, args[4]->ipv4_src == htonl(0x7f000001), args[4]->ipv4_daddr,
	    args[4]->ipv4_hdr == (struct iphdr *)arg2, args[5]->ipv6_saddr, args[5]->ipv6_ver] = max(1);
}
ip:::send, ip:::receive /args[2]->ip_ver == 4 && args[4]->ipv4_protocol == IPPROTO_TCP/ {
	@df[probename, args[4]->ipv4_flags] = max(1);
}
ip:::send, ip:::receive /args[2]->ip_ver == 6/ {
	this->b = (uint8_t *)arg2;
	@v6[probename, args[5]->ipv6_ver, args[5]->ipv6_tclass, args[5]->ipv6_hlim,
	    args[5]->ipv6_plen == args[2]->ip_plength,
	    args[5]->ipv6_flow == ((this->b[1] & 0xf) << 16 | this->b[2] << 8 | this->b[3])] = max(1);
	@v6a[probename, args[5]->ipv6_saddr, args[5]->ipv6_daddr, inet_ntoa6(args[5]->ipv6_src),
	    args[5]->ipv6_hdr == (struct ipv6hdr *)arg2] = max(1);
	@v6b[probename, args[4]->ipv4_saddr, args[4]->ipv4_ver, args[4]->ipv4_protostr] = max(1);
}
END {
	printa("balance IPv%d %s %@d\n", @bal);
	printa("udp %s IPv%d %s -> %s %@d bytes\n", @udp);
	printa("device %s %s local=%d ipstack=%d addr=%d pkt=%d\n", @dev);
	printa("ipv4 %s ver=%d ihl=%d ttl=%d length=%d offset=%d\n", @v4);
	printa("ipv4 %s src=%d dst=%s hdr=%d ipv6info: %s %d\n", @v4a);
	printa("ipv4 %s TCP flags %x\n", @df);
	printa("ipv6 %s ver=%d tclass=%d hlim=%d plen=%d flow=%d\n", @v6);
	printa("ipv6 %s %s -> %s src=%s hdr=%d\n", @v6a);
	printa("ipv6 %s ipv4info: %s %d %s\n", @v6b);
}'
