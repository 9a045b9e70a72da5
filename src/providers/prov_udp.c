/*
 * The udp provider (the Dynamic Tracing Guide's):
 *
 *   send     net_dev_queue: a datagram this host made (not one it
 *            forwards) is queued on its device; a fragmented one once,
 *            with its first fragment, which holds the UDP header
 *   receive  kprobes: udp_queue_rcv_skb and udpv6_queue_rcv_skb give a
 *            datagram to a socket (no tracepoint fires there)
 *            args[0] pktinfo_t *, args[1] csinfo_t *, args[2] ipinfo_t *,
 *            args[3] udpsinfo_t *, args[4] udpinfo_t *
 */
#include "base/pattr.h"
#include "base/probe.h"
#include "base/provider.h"
#include "compiler/cg.h"
#include "providers/net.h"
#include "providers/providers.h"

#define IPPROTO_UDP	17
#define AF_INET		2
#define AF_INET6	10

#define ARGS                                                                                  \
	{ { "struct sk_buff *", "pktinfo_t *" }, { "struct sock *", "csinfo_t *" },            \
	  { "void_ip_t *", "ipinfo_t *" }, { "struct udp_sock *", "udpsinfo_t *" },             \
	  { "struct udphdr *", "udpinfo_t *" } }

static void ld(struct dt_cg *cg, int reg, int slot)
{
	cg_emit(cg, I_LDX(BPF_DW, reg, BPF_FP, (int16_t)slot));
}

static void st(struct dt_cg *cg, int slot, int reg)
{
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, reg, (int16_t)slot));
}

/*
 * The prologues keep their values in the argument slots (net.h): skb
 * arg0, IP header arg2, UDP socket arg3, UDP header arg4; arg8 and arg9
 * for the rest, cleared at the end.
 */
#define A(i) NET_ARG(dctx, i)
#define T NET_TMP(dctx)

/* arg1 = arg3 = the socket at `sk` if it is a UDP socket, else 0; the direction. */
static void finish(struct dt_cg *cg, int dctx, int sk, int dir)
{
	int none = cg_label_new(cg), inet = cg_label_new(cg);

	ld(cg, BPF_R8, sk);
	cg_emit(cg, I_ST(BPF_DW, BPF_FP, (int16_t)A(3), 0));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R8, 0, none);
	net_field(cg, T, BPF_R7, BPF_R8, "struct sock_common", "skc_family");
	cg_jmp_imm(cg, BPF_JEQ, BPF_R7, AF_INET, inet);
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, AF_INET6, none);
	cg_label_place(cg, inet);
	net_field(cg, T, BPF_R7, BPF_R8, "struct sock", "sk_protocol");
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, IPPROTO_UDP, none);
	st(cg, A(3), BPF_R8);
	cg_label_place(cg, none);
	ld(cg, BPF_R7, A(3));
	st(cg, A(1), BPF_R7);
	cg_emit(cg, I_ST(BPF_DW, BPF_FP, (int16_t)A(5), dir));
	cg_emit(cg, I_ST(BPF_DW, BPF_FP, (int16_t)A(8), 0));
	cg_emit(cg, I_ST(BPF_DW, BPF_FP, (int16_t)A(9), 0));
}

/* net_dev_queue(skb) */
static void send(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	(void)used;
	cg_emit(cg, I_LDX(BPF_DW, BPF_R7, BPF_R6, 0));
	st(cg, A(0), BPF_R7);
	net_ip_headers(cg, T, A(0), false, IPPROTO_UDP, A(2), A(4), A(8), skip);
	net_skip_forwarded(cg, T, A(0), skip);
	ld(cg, BPF_R8, A(0));
	net_field(cg, T, BPF_R7, BPF_R8, "struct sk_buff", "dev");
	st(cg, A(9), BPF_R7);
	net_skip_port(cg, T, A(9), skip);
	net_skip_resent(cg, T, A(2), skip);
	ld(cg, BPF_R8, A(0));
	net_field(cg, T, BPF_R7, BPF_R8, "struct sk_buff", "sk");
	st(cg, A(9), BPF_R7);
	net_skip_packet_socket(cg, T, A(9), skip);
	finish(cg, dctx, A(9), NET_OUTBOUND);
}

/* udp_queue_rcv_skb(sk, skb), udpv6_queue_rcv_skb(sk, skb) */
static void receive(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	(void)used;
	net_kprobe_arg(cg, BPF_R7, 0);
	st(cg, A(9), BPF_R7);
	net_kprobe_arg(cg, BPF_R8, 1);
	st(cg, A(0), BPF_R8);
	cg_jmp_imm(cg, BPF_JEQ, BPF_R8, 0, skip);
	/* On the receive path IP has set the network and transport headers. */
	net_field(cg, T, BPF_R9, BPF_R8, "struct sk_buff", "head");
	net_field(cg, T, BPF_R7, BPF_R8, "struct sk_buff", "network_header");
	cg_emit(cg, I_ALU64_REG(BPF_ADD, BPF_R7, BPF_R9));
	st(cg, A(2), BPF_R7);
	net_field(cg, T, BPF_R7, BPF_R8, "struct sk_buff", "transport_header");
	cg_emit(cg, I_ALU64_REG(BPF_ADD, BPF_R7, BPF_R9));
	st(cg, A(4), BPF_R7);
	finish(cg, dctx, A(9), NET_INBOUND);
}

static const struct net_site site_send = {
	NET_RAW, "net_dev_queue", { "struct sk_buff *" }, { NULL }, send, true,
};

static const struct net_site site_receive = {
	NET_KPROBE, NULL, { NULL }, { "udp_queue_rcv_skb", "udpv6_queue_rcv_skb" }, receive,
	false,
};

static const struct net_probe probes[] = {
	{ "receive", { &site_receive }, ARGS },
	{ "send", { &site_send }, ARGS },
};

static int populate(struct dt_registry *reg)
{
	return net_populate(reg, &dt_prov_udp, probes, sizeof(probes) / sizeof(probes[0]));
}

const struct dt_provider dt_prov_udp = {
	.name = "udp",
	.populate = populate,
	.mech_class = net_mech_class,
	.choose = net_choose,
	.arg_desc = net_arg_desc,
	.arg_count = net_arg_count,
	.unavailable = net_unavailable,
	.probe_unavailable = net_probe_unavailable,
	.pattr = &dt_pattr_sdt_stable,
};
