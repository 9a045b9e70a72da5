#!/bin/bash
# Every member of every translated argument of the ip, tcp and udp probes
# checks against this kernel's types and loads (the D library leaves out
# what does not check, silently: a member missing here would be an error
# for the programs that use it).  Each probe gets a clause per argument
# that traces all its members, enabled for a moment (tcp:::receive and
# udp:::receive, which have the arguments of send, only where the kernel
# has kprobes).  tcpsinfo_t's tcps_rto has no conversion.
pkt="pkt_addr"
cs="cs_addr cs_cid"
ip="ip_ver ip_plength ip_saddr ip_daddr"
if="if_name if_local if_ipstack if_addr"
v4="ipv4_ver ipv4_ihl ipv4_tos ipv4_length ipv4_ident ipv4_flags ipv4_offset ipv4_ttl
    ipv4_protocol ipv4_protostr ipv4_checksum ipv4_src ipv4_dst ipv4_saddr ipv4_daddr ipv4_hdr"
v6="ipv6_ver ipv6_tclass ipv6_flow ipv6_plen ipv6_nexthdr ipv6_nextstr ipv6_hlim ipv6_src
    ipv6_dst ipv6_saddr ipv6_daddr ipv6_hdr"
tcps="tcps_addr tcps_local tcps_lport tcps_rport tcps_laddr tcps_raddr tcps_state tcps_iss
    tcps_suna tcps_snxt tcps_rnxt tcps_swnd tcps_snd_ws tcps_rwnd tcps_rcv_ws tcps_cwnd
    tcps_cwnd_ssthresh tcps_sack_snxt tcps_mss tcps_retransmit tcps_rtt tcps_rtt_sd tcps_irs"
tcp="tcp_sport tcp_dport tcp_seq tcp_ack tcp_offset tcp_flags tcp_window tcp_checksum
    tcp_urgent tcp_hdr"
udps="udps_addr udps_lport udps_rport udps_laddr udps_raddr"
udp="udp_sport udp_dport udp_length udp_checksum udp_hdr"

# clauses PROBE "i:members" ...: a clause for each argument, tracing its members.
clauses() {
	local p=$1 a m
	shift
	for a in "$@"; do
		echo "$p {"
		for m in ${a#*:}; do
			echo "	trace(args[${a%%:*}]->$m);"
		done
		echo "}"
	done
}
kprobes=$([ -e /sys/bus/event_source/devices/kprobe/type ] && echo yes)
run() {
	local p=$1 n rc
	n=$(clauses "$@" | grep -c trace)
	if [ "$p" = tcp:::receive ] || [ "$p" = udp:::receive ] && [ -z "$kprobes" ]; then
		echo "$p: needs kprobes (its arguments are those of send)"
	else
		clauses "$@" | "$D" -q -c true -s /dev/stdin >/dev/null 2>"$tmp"; rc=$?
		echo "$p: $n members load: exit status $rc"
		[ $rc = 0 ] || cat "$tmp"
	fi
}
D=$1
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for p in ip:::send ip:::receive; do
	run $p "0:$pkt" "1:$cs" "2:$ip" "3:$if" "4:$v4" "5:$v6"
done
for p in accept-established accept-refused connect-established connect-refused \
    connect-request receive send; do
	run tcp:::$p "0:$pkt" "1:$cs" "2:$ip" "3:$tcps" "4:$tcp"
done
run tcp:::state-change "1:$cs" "3:$tcps" "5:tcps_state"
for p in send receive; do
	run udp:::$p "0:$pkt" "1:$cs" "2:$ip" "3:$udps" "4:$udp"
done
"$D" -e -xerrtags -n 'tcp:::send { trace(args[3]->tcps_rto); }' 2>&1
echo "exit status $?"
