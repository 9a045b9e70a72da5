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
#include "compiler/cg.h"
#include "providers/net.h"
#include "providers/pattr.h"
#include "providers/probe.h"
#include "providers/provider.h"

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

/* usk = the socket at `sk` if it is a UDP socket, else 0. */
static void udp_sock_of(struct dt_cg *cg, int sk, int usk)
{
	int none = cg_label_new(cg), inet = cg_label_new(cg);

	ld(cg, BPF_R8, sk);
	cg_jmp_imm(cg, BPF_JEQ, BPF_R8, 0, none);
	net_field(cg, BPF_R7, BPF_R8, "struct sock_common", "skc_family");
	cg_jmp_imm(cg, BPF_JEQ, BPF_R7, AF_INET, inet);
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, AF_INET6, none);
	cg_label_place(cg, inet);
	net_field(cg, BPF_R7, BPF_R8, "struct sock", "sk_protocol");
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, IPPROTO_UDP, none);
	st(cg, usk, BPF_R8);
	cg_label_place(cg, none);
}

static void args(struct dt_cg *cg, int dctx, uint32_t used, int skb, int iph, int uh, int usk,
		 int dir)
{
	ld(cg, BPF_R7, skb);
	net_set_arg(cg, dctx, used, 0, BPF_R7);
	ld(cg, BPF_R7, usk);
	net_set_arg(cg, dctx, used, 1, BPF_R7);
	net_set_arg(cg, dctx, used, 3, BPF_R7);
	/* The translators read arg2, arg4 and arg5. */
	ld(cg, BPF_R7, iph);
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R7, (int16_t)(dctx + DCTX_ARGS + 16)));
	ld(cg, BPF_R7, uh);
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R7, (int16_t)(dctx + DCTX_ARGS + 32)));
	cg_emit(cg, I_ST(BPF_DW, BPF_FP, (int16_t)(dctx + DCTX_ARGS + 40), dir));
}

/* net_dev_queue(skb) */
static void send(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	int skb = net_slot(cg), iph = net_slot(cg), uh = net_slot(cg), ver = net_slot(cg);
	int sk = net_slot(cg), dev = net_slot(cg), usk = net_slot(cg);

	cg_emit(cg, I_LDX(BPF_DW, BPF_R7, BPF_R6, 0));
	st(cg, skb, BPF_R7);
	net_ip_headers(cg, skb, false, IPPROTO_UDP, iph, uh, ver, skip);
	net_skip_forwarded(cg, skb, skip);
	ld(cg, BPF_R8, skb);
	net_field(cg, BPF_R7, BPF_R8, "struct sk_buff", "sk");
	st(cg, sk, BPF_R7);
	net_skip_packet_socket(cg, sk, skip);
	ld(cg, BPF_R8, skb);
	net_field(cg, BPF_R7, BPF_R8, "struct sk_buff", "dev");
	st(cg, dev, BPF_R7);
	net_skip_port(cg, dev, skip);
	net_skip_resent(cg, iph, skip);
	udp_sock_of(cg, sk, usk);
	args(cg, dctx, used, skb, iph, uh, usk, NET_OUTBOUND);
}

/* udp_queue_rcv_skb(sk, skb), udpv6_queue_rcv_skb(sk, skb) */
static void receive(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	int skb = net_slot(cg), iph = net_slot(cg), uh = net_slot(cg), sk = net_slot(cg);
	int usk = net_slot(cg);

	net_kprobe_arg(cg, BPF_R7, 0);
	st(cg, sk, BPF_R7);
	net_kprobe_arg(cg, BPF_R8, 1);
	st(cg, skb, BPF_R8);
	cg_jmp_imm(cg, BPF_JEQ, BPF_R8, 0, skip);
	net_field(cg, BPF_R9, BPF_R8, "struct sk_buff", "head");
	net_field(cg, BPF_R7, BPF_R8, "struct sk_buff", "network_header");
	cg_emit(cg, I_ALU64_REG(BPF_ADD, BPF_R7, BPF_R9));
	st(cg, iph, BPF_R7);
	net_field(cg, BPF_R7, BPF_R8, "struct sk_buff", "transport_header");
	cg_emit(cg, I_ALU64_REG(BPF_ADD, BPF_R7, BPF_R9));
	st(cg, uh, BPF_R7);
	udp_sock_of(cg, sk, usk);
	args(cg, dctx, used, skb, iph, uh, usk, NET_INBOUND);
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

static int populate(dtrace_hdl_t *dtp)
{
	return net_populate(dtp, &dt_prov_udp, probes, sizeof(probes) / sizeof(probes[0]));
}

const struct dt_provider dt_prov_udp = {
	.name = "udp",
	.populate = populate,
	.mech_class = net_mech_class,
	.choose = net_choose,
	.arg_desc = net_arg_desc,
	.arg_count = net_arg_count,
	.unavailable = net_unavailable,
	.pattr = &dt_pattr_sdt_stable,
};
