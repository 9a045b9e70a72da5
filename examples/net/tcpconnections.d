#!/usr/sbin/dtrace -s
/*
 * tcpconnections.d: who connects to what, until Ctrl-C: connections
 * accepted by remote address and local port, connections made by remote
 * address and port, and connection requests refused, by remote address
 * and the local port nothing listens on (the Dynamic Tracing Guide's tcp
 * provider examples, together).
 */

#pragma D option quiet

tcp:::accept-established
{
	@accepted[args[3]->tcps_raddr, args[3]->tcps_lport] = count();
}

tcp:::connect-established
{
	@connected[args[3]->tcps_raddr, args[3]->tcps_rport] = count();
}

tcp:::accept-refused
{
	@refused[args[2]->ip_daddr, args[4]->tcp_sport] = count();
}

dtrace:::END
{
	printf("%-32s %6s %6s\n", "ACCEPTED FROM", "PORT", "COUNT");
	printa("%-32s %6d %@6d\n", @accepted);
	printf("%-32s %6s %6s\n", "CONNECTED TO", "PORT", "COUNT");
	printa("%-32s %6d %@6d\n", @connected);
	printf("%-32s %6s %6s\n", "REFUSED FOR", "PORT", "COUNT");
	printa("%-32s %6d %@6d\n", @refused);
}
