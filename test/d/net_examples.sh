#!/bin/bash
# The Dynamic Tracing Guide's ip and tcp examples (examples/net/), run on
# traffic the test makes in a network namespace of its own: ipio.d and
# ipproto.d on UDP datagrams over IPv4 and IPv6 (sent and received in
# turn, one packet each), tcpstate.d and tcpconnections.d on a connection
# and a refused one.  The CPU and time columns are cut off; tcpstate.d's
# lines, of two connections at once, are sorted.
if [ -z "${NET_TEST_NS:-}" ]; then
	for t in unshare ip; do
		command -v $t >/dev/null || { echo "$t is not installed (util-linux, iproute2)" >&2; exit 77; }
	done
	NET_TEST_NS=1 exec unshare -n "$0" "$@"
fi
ip link set lo up || exit 1
ex=$(cd "$(dirname "$0")/../../examples/net" && pwd)
W=$DT_WORKLOADS/net_work
echo "== ipio.d"
"$1" -s "$ex/ipio.d" -c "$W udp 4 5003 udp 6 5003" | cut -c16-
echo "== ipproto.d"
"$1" -s "$ex/ipproto.d" -c "$W udp 4 5003 udp 6 5003"
echo "== tcpstate.d"
"$1" -s "$ex/tcpstate.d" -c "$W tcp 4 5001 refused 6 5002" | cut -c19- | sort
echo "== tcpconnections.d"
"$1" -s "$ex/tcpconnections.d" -c "$W tcp 4 5001 tcp 6 5001 refused 4 5002 refused 6 5002"
