#!/bin/bash
# Stacked devices: each IP packet is IP's once.  In a network namespace
# of its own the test makes a bridge br0 (10.9.0.1) whose port va is one
# end of a veth pair, and a macvlan device mx (10.8.0.1) on vx, one end
# of another; the other ends, vb (10.9.0.2) and vy (10.8.0.2), are in a
# second namespace.  A datagram to 10.9.0.2, where nothing listens, is
# sent on br0 (the bridge sends it again on its port va: not IP's
# sending), received on vb, and answered by an ICMP port unreachable, sent
# on vb, received on va (the port: not IP's receiving) and on br0.  One
# to 10.8.0.2 is sent on mx (the macvlan device sends it again on vx), and
# its answer received on vx (which gives it to mx without another
# receive: ip:::receive names the device it arrived on).  ARP is not IP;
# IPv6 is off.
if [ -z "${NET_TEST_NS:-}" ]; then
	for t in unshare ip nsenter sysctl; do
		command -v $t >/dev/null || { echo "$t is not installed (util-linux, iproute2, procps)" >&2; exit 77; }
	done
	NET_TEST_NS=1 exec unshare -n "$0" "$@"
fi
unshare -n sleep 60 &
peer=$!
trap 'kill $peer' EXIT
sleep 0.1	# (until the child has its namespace; the setup below checks it did)
in_peer() { nsenter -t $peer -n "$@"; }
sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 &&
in_peer sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 &&
ip link add va type veth peer name vb netns /proc/$peer/ns/net &&
ip link add br0 type bridge &&
ip link set va master br0 &&
ip addr add 10.9.0.1/24 dev br0 &&
ip link set va up && ip link set br0 up && ip link set lo up &&
in_peer ip addr add 10.9.0.2/24 dev vb &&
in_peer ip link set vb up && in_peer ip link set lo up || exit 1
# (A bridge's port forwards only once the bridge has learned it: STP is off, forward delay 0.)
ip link set br0 type bridge forward_delay 0 stp_state 0 || exit 1
ip link add vx type veth peer name vy netns /proc/$peer/ns/net &&
ip link add link vx name mx type macvlan mode bridge &&
ip addr add 10.8.0.1/24 dev mx &&
ip link set vx up && ip link set mx up &&
in_peer ip addr add 10.8.0.2/24 dev vy && in_peer ip link set vy up || exit 1
"$1" -q -c "$DT_WORKLOADS/net_work unreach 4 10.9.0.2:5005 unreach 4 10.8.0.2:5005" -n '
ip:::send, ip:::receive {
	@[probename, args[3]->if_name, args[4]->ipv4_protostr, args[2]->ip_saddr, args[2]->ip_daddr] =
	    count();
}
END { printa("%-7s on %-4s %-4s %s -> %s: %@d\n", @); }'
