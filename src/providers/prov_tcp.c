/*
 * The tcp provider (the Dynamic Tracing Guide's), on what this kernel
 * offers:
 *
 *   send                 net_dev_queue: a segment this host made (not one
 *                        it forwards) is queued on its device
 *   connect-request      the same, for a SYN a connecting socket sends
 *   accept-refused       the same, for the reset sent for a SYN that no
 *                        socket takes (its headers are the reset's, as the
 *                        Guide has them)
 *   receive              kprobes: tcp_rcv_established,
 *                        tcp_rcv_state_process and
 *                        tcp_timewait_state_process get a segment for a
 *                        socket, tcp_v4_send_reset and tcp_v6_send_reset
 *                        one for no socket (no tracepoint fires for every
 *                        segment TCP receives)
 *   connect-refused      tcp_receive_reset of a socket in SYN-SENT
 *   connect-established  inet_sock_set_state: SYN-SENT to ESTABLISHED
 *   accept-established   inet_sock_set_state: SYN-RECEIVED to ESTABLISHED
 *   state-change         inet_sock_set_state of a TCP socket
 *
 * args[0] pktinfo_t *, args[1] csinfo_t *, args[2] ipinfo_t *,
 * args[3] tcpsinfo_t *, args[4] tcpinfo_t *; state-change: args[1]
 * csinfo_t *, args[3] tcpsinfo_t *, args[5] tcplsinfo_t * (the previous
 * state).  The probes made from state changes and tcp_receive_reset know
 * the socket, not the segment: their args[2] is made from the socket's
 * addresses, args[0] and args[4] describe no packet (0).
 *
 * Linux leaves a socket that enters TIME-WAIT for a smaller one that
 * takes its place (tcp_time_wait()); the socket's own state goes to
 * CLOSED.  state-change reports that as the change to TIME-WAIT (or no
 * change, for a FIN-WAIT-2 socket that goes on waiting as the smaller
 * one), finding the smaller one where the kernel has just put it.  What
 * happens to the small socket later (FIN-WAIT-2 to TIME-WAIT, and the end
 * of TIME-WAIT) no tracepoint shows.  Before Linux 6.14 the kernel
 * reports a new connection's change to SYN-RECEIVED before it has given
 * the socket its addresses: that state-change has no tcpsinfo_t socket
 * (its addresses are "<unknown>", its ports 0), only the states.
 */
#include "base/core.h"
#include "base/pattr.h"
#include "base/probe.h"
#include "base/provider.h"
#include "base/types.h"
#include "compiler/cg.h"
#include "compiler/compiler.h"
#include "providers/net.h"
#include "providers/providers.h"

/* Linux's TCP states (DTrace for Linux's TCP_STATE_* are the same numbers). */
#define TCP_ESTABLISHED	1
#define TCP_SYN_SENT	2
#define TCP_SYN_RECV	3
#define TCP_FIN_WAIT1	4
#define TCP_FIN_WAIT2	5
#define TCP_TIME_WAIT	6
#define TCP_CLOSE	7
#define TCP_CLOSING	11
#define TCP_NEW_SYN_RECV 12	/* a request socket */

#define IPPROTO_TCP	6
#define SOCK_STREAM	1
#define AF_INET		2
#define AF_INET6	10
#define TH_SYN		0x02
#define TH_RST		0x04
#define TH_ACK		0x10

/* How many sockets of a hash chain to look at for the TIME-WAIT socket just put at its head. */
#define TW_CHAIN	4

#define SK "struct sock *"
#define TSK "struct tcp_sock *"
#define ARGS                                                                                  \
	{ { "struct sk_buff *", "pktinfo_t *" }, { SK, "csinfo_t *" },                          \
	  { "__dtrace_tcp_void_ip_t *", "ipinfo_t *" }, { TSK, "tcpsinfo_t *" },                \
	  { "struct tcphdr *", "tcpinfo_t *" } }

static void ld(struct dt_cg *cg, int reg, int slot)
{
	cg_emit(cg, I_LDX(BPF_DW, reg, BPF_FP, (int16_t)slot));
}

static void st(struct dt_cg *cg, int slot, int reg)
{
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, reg, (int16_t)slot));
}

static void st_imm(struct dt_cg *cg, int slot, int32_t v)
{
	cg_emit(cg, I_ST(BPF_DW, BPF_FP, (int16_t)slot, v));
}

/*
 * The prologues keep their values in the argument slots (net.h): skb
 * arg0, IP header arg2, TCP socket arg3, TCP header arg4, old and new
 * state arg5 and arg7; arg8 and arg9 for the rest, cleared at the end.
 */
#define A(i) NET_ARG(dctx, i)
#define T NET_TMP(dctx)

/*
 * arg3 = the socket at `sk` if it is a TCP connection's: a TCP socket, or
 * the request or TIME-WAIT socket that stands for one (only their
 * sock_common is there: the translators look no further); else 0.
 */
static void tcp_sock_of(struct dt_cg *cg, int dctx, int sk)
{
	int none = cg_label_new(cg), yes = cg_label_new(cg), full = cg_label_new(cg);

	st_imm(cg, A(3), 0);
	ld(cg, BPF_R8, sk);
	cg_jmp_imm(cg, BPF_JEQ, BPF_R8, 0, none);
	net_field(cg, T, BPF_R7, BPF_R8, "struct sock_common", "skc_state");
	cg_jmp_imm(cg, BPF_JEQ, BPF_R7, TCP_TIME_WAIT, yes);
	cg_jmp_imm(cg, BPF_JEQ, BPF_R7, TCP_NEW_SYN_RECV, yes);
	net_field(cg, T, BPF_R7, BPF_R8, "struct sock_common", "skc_family");
	cg_jmp_imm(cg, BPF_JEQ, BPF_R7, AF_INET, full);
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, AF_INET6, none);
	cg_label_place(cg, full);
	/* Not the kernel's raw socket that sends resets for no connection. */
	net_field(cg, T, BPF_R7, BPF_R8, "struct sock", "sk_protocol");
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, IPPROTO_TCP, none);
	net_field(cg, T, BPF_R7, BPF_R8, "struct sock", "sk_type");
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, SOCK_STREAM, none);
	cg_label_place(cg, yes);
	st(cg, A(3), BPF_R8);
	cg_label_place(cg, none);
}

/* The rest of the arguments of a probe with a segment: the socket (arg1) and direction. */
static void seg_args(struct dt_cg *cg, int dctx, int dir)
{
	ld(cg, BPF_R7, A(3));
	st(cg, A(1), BPF_R7);
	st_imm(cg, A(6), dir);
	st_imm(cg, A(8), 0);
	st_imm(cg, A(9), 0);
}

/* ---- Segments sent: net_dev_queue(skb) ---- */

/* A TCP segment this host sends: skb, IP and TCP headers, the connection's socket. */
static void sent(struct dt_cg *cg, int dctx, int skip)
{
	cg_emit(cg, I_LDX(BPF_DW, BPF_R7, BPF_R6, 0));
	st(cg, A(0), BPF_R7);
	net_ip_headers(cg, T, A(0), false, IPPROTO_TCP, A(2), A(4), A(8), skip);
	net_skip_forwarded(cg, T, A(0), skip);
	ld(cg, BPF_R8, A(0));
	net_field(cg, T, BPF_R7, BPF_R8, "struct sk_buff", "sk");
	st(cg, A(9), BPF_R7);
	net_skip_packet_socket(cg, T, A(9), skip);
	tcp_sock_of(cg, dctx, A(9));
	ld(cg, BPF_R8, A(0));
	net_field(cg, T, BPF_R7, BPF_R8, "struct sk_buff", "dev");
	st(cg, A(9), BPF_R7);
	net_skip_port(cg, T, A(9), skip);
	net_skip_resent(cg, T, A(2), skip);
}

static void send(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	(void)used;
	sent(cg, dctx, skip);
	seg_args(cg, dctx, NET_OUTBOUND);
}

/* A SYN (no ACK) from a socket in SYN-SENT. */
static void connect_request(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	(void)used;
	sent(cg, dctx, skip);
	ld(cg, BPF_R8, A(4));
	net_read(cg, T, BPF_R7, BPF_R8, 13, 1);
	cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R7, TH_SYN | TH_ACK));
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, TH_SYN, skip);
	ld(cg, BPF_R8, A(3));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R8, 0, skip);
	net_field(cg, T, BPF_R7, BPF_R8, "struct sock_common", "skc_state");
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, TCP_SYN_SENT, skip);
	seg_args(cg, dctx, NET_OUTBOUND);
}

/*
 * The reset TCP sends for a SYN no socket takes: RST and ACK, sequence
 * number 0 (the kernel's reply to a segment without ACK), from no
 * connection's socket.  (A firewall's reset for a SYN is one too.)
 */
static void accept_refused(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	(void)used;
	sent(cg, dctx, skip);
	ld(cg, BPF_R7, A(3));
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, 0, skip);
	ld(cg, BPF_R8, A(4));
	net_read(cg, T, BPF_R7, BPF_R8, 13, 1);
	cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R7, TH_RST | TH_SYN | TH_ACK));
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, TH_RST | TH_ACK, skip);
	net_read(cg, T, BPF_R7, BPF_R8, 4, 4);
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, 0, skip);
	seg_args(cg, dctx, NET_OUTBOUND);
}

/* ---- Segments received (kprobes): f(sk, skb, ...) ---- */

/* The functions of receive; from RESETS on, those that reset (for no socket only). */
#define RESETS 3

static void receive(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	int ok = cg_label_new(cg);

	(void)used;
	net_kprobe_arg(cg, BPF_R7, 0);
	st(cg, A(9), BPF_R7);
	net_kprobe_arg(cg, BPF_R8, 1);
	st(cg, A(0), BPF_R8);
	/* A reset for a socket answers a segment its own function has reported. */
	cg_jmp_imm(cg, BPF_JLT, BPF_R9, RESETS, ok);
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, 0, skip);
	cg_label_place(cg, ok);
	cg_jmp_imm(cg, BPF_JEQ, BPF_R8, 0, skip);
	/* On the receive path IP has set the network and transport headers. */
	net_field(cg, T, BPF_R9, BPF_R8, "struct sk_buff", "head");
	net_field(cg, T, BPF_R7, BPF_R8, "struct sk_buff", "network_header");
	cg_emit(cg, I_ALU64_REG(BPF_ADD, BPF_R7, BPF_R9));
	st(cg, A(2), BPF_R7);
	net_field(cg, T, BPF_R7, BPF_R8, "struct sk_buff", "transport_header");
	cg_emit(cg, I_ALU64_REG(BPF_ADD, BPF_R7, BPF_R9));
	st(cg, A(4), BPF_R7);
	tcp_sock_of(cg, dctx, A(9));
	seg_args(cg, dctx, NET_INBOUND);
}

/* ---- A socket's state: inet_sock_set_state(sk, oldstate, newstate) ---- */

/* The socket (arg1, arg3), old and new state (arg5, arg7); skip unless a TCP socket. */
static void state_of(struct dt_cg *cg, int dctx, int skip)
{
	cg_emit(cg, I_LDX(BPF_DW, BPF_R8, BPF_R6, 0));
	st(cg, A(1), BPF_R8);
	st(cg, A(3), BPF_R8);
	cg_emit(cg, I_LDX(BPF_W, BPF_R7, BPF_R6, 8));
	st(cg, A(5), BPF_R7);
	cg_emit(cg, I_LDX(BPF_W, BPF_R7, BPF_R6, 16));
	st(cg, A(7), BPF_R7);
	net_field(cg, T, BPF_R7, BPF_R8, "struct sock", "sk_protocol");
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, IPPROTO_TCP, skip);
}

/* A change from one state to another (then arg5 0: these probes have no args[5]). */
static void change(struct dt_cg *cg, int dctx, int from, int to, int skip)
{
	state_of(cg, dctx, skip);
	ld(cg, BPF_R7, A(5));
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, from, skip);
	ld(cg, BPF_R7, A(7));
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, to, skip);
	st_imm(cg, A(5), 0);
	st_imm(cg, A(6), NET_INBOUND);
}

static void connect_established(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	(void)used;
	change(cg, dctx, TCP_SYN_SENT, TCP_ESTABLISHED, skip);
}

static void accept_established(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	(void)used;
	change(cg, dctx, TCP_SYN_RECV, TCP_ESTABLISHED, skip);
}

/* Skip unless the values at a + off and b + off (registers) are equal. */
static void same(struct dt_cg *cg, int dctx, int a, int b, uint32_t off, int size, int differ)
{
	net_read(cg, T, BPF_R0, a, (int32_t)off, size);
	st(cg, NET_TMP2(dctx), BPF_R0);
	net_read(cg, T, BPF_R0, b, (int32_t)off, size);
	ld(cg, BPF_R1, NET_TMP2(dctx));
	cg_jmp_reg(cg, BPF_JNE, BPF_R0, BPF_R1, differ);
}

/*
 * If the socket (arg3), closing, has just left a TIME-WAIT socket in its
 * place, the new state (arg7) is that one's (tw_substate).  tcp_time_wait()
 * puts it at the head of the socket's chain of the established hash
 * before the socket goes to CLOSED; it has the socket's hash, addresses,
 * remote port and network namespace.  arg8 walks the chain, arg9 holds
 * the family.
 */
static void time_wait(struct dt_cg *cg, int dctx)
{
	uint32_t common = net_member(cg, "struct sock_common", "skc_net");
	uint32_t hinfo = net_member(cg, "struct net", "ipv4") +
			 net_member(cg, "struct netns_ipv4", "tcp_death_row") +
			 net_member(cg, "struct inet_timewait_death_row", "hashinfo");
	uint32_t node = net_member(cg, "struct sock_common", "skc_nulls_node");
	uint32_t addrs = net_member(cg, "struct sock_common", "skc_addrpair");
	uint32_t hash = net_member(cg, "struct sock_common", "skc_hash");
	uint32_t dport = net_member(cg, "struct sock_common", "skc_dport");
	uint32_t v6d = net_member(cg, "struct sock_common", "skc_v6_daddr");
	uint32_t v6s = net_member(cg, "struct sock_common", "skc_v6_rcv_saddr");
	uint32_t bucket = dt_type_size(dt_type_lookup(&cg->cc->core->types, "struct inet_ehash_bucket"));
	int none = cg_label_new(cg);

	/* The chain: hashinfo->ehash[sk_hash & ehash_mask] */
	ld(cg, BPF_R8, A(3));
	net_read(cg, T, BPF_R9, BPF_R8, (int32_t)common, 8);
	net_read(cg, T, BPF_R9, BPF_R9, (int32_t)hinfo, 8);
	cg_jmp_imm(cg, BPF_JEQ, BPF_R9, 0, none);
	net_field(cg, T, BPF_R7, BPF_R9, "struct inet_hashinfo", "ehash_mask");
	net_field(cg, T, BPF_R0, BPF_R8, "struct sock_common", "skc_hash");
	cg_emit(cg, I_ALU64_REG(BPF_AND, BPF_R7, BPF_R0));
	cg_emit(cg, I_ALU64_IMM(BPF_MUL, BPF_R7, (int32_t)bucket));
	net_field(cg, T, BPF_R9, BPF_R9, "struct inet_hashinfo", "ehash");
	cg_emit(cg, I_ALU64_REG(BPF_ADD, BPF_R9, BPF_R7));
	net_read(cg, T, BPF_R9, BPF_R9, 0, 8);
	st(cg, A(8), BPF_R9);
	net_field(cg, T, BPF_R7, BPF_R8, "struct sock_common", "skc_family");
	st(cg, A(9), BPF_R7);
	for (int i = 0; i < TW_CHAIN; i++) {
		int next = cg_label_new(cg), found = cg_label_new(cg);
		/* A "nulls" end marker has its low bit set. */
		ld(cg, BPF_R9, A(8));
		cg_jmp_imm(cg, BPF_JSET, BPF_R9, 1, none);
		cg_jmp_imm(cg, BPF_JEQ, BPF_R9, 0, none);
		cg_emit(cg, I_ALU64_IMM(BPF_SUB, BPF_R9, (int32_t)node));
		net_field(cg, T, BPF_R7, BPF_R9, "struct sock_common", "skc_state");
		cg_jmp_imm(cg, BPF_JNE, BPF_R7, TCP_TIME_WAIT, next);
		ld(cg, BPF_R8, A(3));
		/* (The socket's own port is 0 by now: it has given it back.) */
		same(cg, dctx, BPF_R8, BPF_R9, hash, 4, next);
		same(cg, dctx, BPF_R8, BPF_R9, dport, 2, next);
		same(cg, dctx, BPF_R8, BPF_R9, addrs, 8, next);
		same(cg, dctx, BPF_R8, BPF_R9, common, 8, next);
		ld(cg, BPF_R7, A(9));
		cg_jmp_imm(cg, BPF_JNE, BPF_R7, AF_INET6, found);
		for (uint32_t k = 0; k < 16; k += 8) {
			same(cg, dctx, BPF_R8, BPF_R9, v6d + k, 8, next);
			same(cg, dctx, BPF_R8, BPF_R9, v6s + k, 8, next);
		}
		cg_label_place(cg, found);
		net_field(cg, T, BPF_R7, BPF_R9, "struct inet_timewait_sock", "tw_substate");
		st(cg, A(7), BPF_R7);
		cg_ja(cg, none);
		cg_label_place(cg, next);
		ld(cg, BPF_R9, A(8));
		net_read(cg, T, BPF_R9, BPF_R9, 0, 8);
		st(cg, A(8), BPF_R9);
	}
	cg_label_place(cg, none);
}

static void state_change(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	int check = cg_label_new(cg), done = cg_label_new(cg);

	(void)used;
	state_of(cg, dctx, skip);
	ld(cg, BPF_R7, A(7));
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, TCP_CLOSE, done);
	ld(cg, BPF_R7, A(5));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R7, TCP_FIN_WAIT1, check);
	cg_jmp_imm(cg, BPF_JEQ, BPF_R7, TCP_FIN_WAIT2, check);
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, TCP_CLOSING, done);
	cg_label_place(cg, check);
	time_wait(cg, dctx);
	cg_label_place(cg, done);
	ld(cg, BPF_R7, A(5));
	ld(cg, BPF_R8, A(7));
	cg_jmp_reg(cg, BPF_JEQ, BPF_R7, BPF_R8, skip);
	/*
	 * Before Linux 6.14 a new connection's socket goes to SYN-RECEIVED
	 * before it has its addresses (it is still a copy of its listener's,
	 * with no remote port): then tcpsinfo_t has no socket to describe.
	 */
	int known = cg_label_new(cg);
	cg_jmp_imm(cg, BPF_JNE, BPF_R8, TCP_SYN_RECV, known);
	ld(cg, BPF_R8, A(3));
	net_field(cg, T, BPF_R7, BPF_R8, "struct sock_common", "skc_dport");
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, 0, known);
	st_imm(cg, A(3), 0);
	cg_label_place(cg, known);
	st_imm(cg, A(6), NET_STATE);
	st_imm(cg, A(8), 0);
	st_imm(cg, A(9), 0);
}

/* tcp_receive_reset(sk): a reset answers a connection request. */
static void connect_refused(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	(void)used;
	cg_emit(cg, I_LDX(BPF_DW, BPF_R8, BPF_R6, 0));
	st(cg, A(1), BPF_R8);
	st(cg, A(3), BPF_R8);
	net_field(cg, T, BPF_R7, BPF_R8, "struct sock_common", "skc_state");
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, TCP_SYN_SENT, skip);
	st_imm(cg, A(6), NET_INBOUND);
}

#define CSK "const struct sock *"

static const struct net_site site_send = {
	NET_RAW, "net_dev_queue", { "struct sk_buff *" }, { NULL }, send, true,
};
static const struct net_site site_connect_request = {
	NET_RAW, "net_dev_queue", { "struct sk_buff *" }, { NULL }, connect_request, true,
};
static const struct net_site site_receive = {
	NET_KPROBE, NULL, { NULL },
	{ "tcp_rcv_established", "tcp_rcv_state_process", "tcp_timewait_state_process",
	  "tcp_v4_send_reset", "tcp_v6_send_reset" },
	receive, false,
};
static const struct net_site site_accept_refused = {
	NET_RAW, "net_dev_queue", { "struct sk_buff *" }, { NULL }, accept_refused, true,
};
static const struct net_site site_connect_refused = {
	NET_RAW, "tcp_receive_reset", { "struct sock *" }, { NULL }, connect_refused, false,
};
#define SET_STATE(f) \
	{ NET_RAW, "inet_sock_set_state", { CSK, "const int", "const int" }, { NULL }, f, false }
static const struct net_site site_connect_established = SET_STATE(connect_established);
static const struct net_site site_accept_established = SET_STATE(accept_established);
static const struct net_site site_state_change = SET_STATE(state_change);

static const struct net_probe probes[] = {
	{ "accept-established", { &site_accept_established }, ARGS },
	{ "accept-refused", { &site_accept_refused }, ARGS },
	{ "connect-established", { &site_connect_established }, ARGS },
	{ "connect-refused", { &site_connect_refused }, ARGS },
	{ "connect-request", { &site_connect_request }, ARGS },
	{ "receive", { &site_receive }, ARGS },
	{ "send", { &site_send }, ARGS },
	{ "state-change", { &site_state_change },
	  { { "void", NULL }, { SK, "csinfo_t *" }, { "void", NULL }, { TSK, "tcpsinfo_t *" },
	    { "void", NULL }, { "int", "tcplsinfo_t *" } } },
};

static int populate(struct dt_registry *reg)
{
	return net_populate(reg, &dt_prov_tcp, probes, sizeof(probes) / sizeof(probes[0]));
}

const struct dt_provider dt_prov_tcp = {
	.name = "tcp",
	.populate = populate,
	.mech_class = net_mech_class,
	.choose = net_choose,
	.arg_desc = net_arg_desc,
	.arg_count = net_arg_count,
	.unavailable = net_unavailable,
	.probe_unavailable = net_probe_unavailable,
	.pattr = &dt_pattr_sdt_stable,
};
