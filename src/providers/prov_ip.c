/*
 * The ip provider (the Dynamic Tracing Guide's), on the kernel's device
 * tracepoints:
 *
 *   send     net_dev_queue: an IPv4 or IPv6 packet is queued on the device
 *            IP routed it to (sent, or forwarded)
 *   receive  netif_receive_skb: an IPv4 or IPv6 packet arrives on a device
 *            args[0] pktinfo_t *, args[1] csinfo_t *, args[2] ipinfo_t *,
 *            args[3] ifinfo_t *, args[4] ipv4info_t *, args[5] ipv6info_t *
 *
 * A frame a bridge or Open vSwitch port carries is not IP's (the bridge
 * device's own receive or send is), nor is a packet a stacked device
 * (bond, VLAN, macvlan) queues again below itself, nor a packet socket's
 * frame, nor a frame not addressed to this host.  Loopback packets are
 * seen once sent and once received, as on any other device.  A packet is
 * received on the device it arrives on: a bond's, VLAN's or macvlan's
 * packets on the device below, which gives them to the upper one without
 * another receive tracepoint.
 */
#include "base/pattr.h"
#include "base/probe.h"
#include "base/provider.h"
#include "compiler/cg.h"
#include "providers/net.h"
#include "providers/providers.h"

#define PACKET_OTHERHOST 3	/* skb->pkt_type of a frame for another host */

#define ARGS                                                                                  \
	{ { "struct sk_buff *", "pktinfo_t *" }, { "struct sock *", "csinfo_t *" },            \
	  { "void_ip_t *", "ipinfo_t *" }, { "struct net_device *", "ifinfo_t *" },              \
	  { "struct iphdr *", "ipv4info_t *" }, { "struct ipv6hdr *", "ipv6info_t *" } }

/* arg4 or arg5: the header of its version; arg8 (the version) back to 0. */
static void by_version(struct dt_cg *cg, int dctx)
{
	int not4 = cg_label_new(cg), done = cg_label_new(cg);

	cg_emit(cg, I_LDX(BPF_DW, BPF_R7, BPF_FP, (int16_t)NET_ARG(dctx, 2)));
	cg_emit(cg, I_LDX(BPF_DW, BPF_R8, BPF_FP, (int16_t)NET_ARG(dctx, 8)));
	cg_emit(cg, I_ST(BPF_DW, BPF_FP, (int16_t)NET_ARG(dctx, 8), 0));
	cg_jmp_imm(cg, BPF_JNE, BPF_R8, 4, not4);
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R7, (int16_t)NET_ARG(dctx, 4)));
	cg_ja(cg, done);
	cg_label_place(cg, not4);
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R7, (int16_t)NET_ARG(dctx, 5)));
	cg_label_place(cg, done);
}

/* arg3 = skb->dev (the skb in arg0); skip a port's frames. */
static void device(struct dt_cg *cg, int dctx, int skip)
{
	cg_emit(cg, I_LDX(BPF_DW, BPF_R8, BPF_FP, (int16_t)NET_ARG(dctx, 0)));
	net_field(cg, NET_TMP(dctx), BPF_R7, BPF_R8, "struct sk_buff", "dev");
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R7, (int16_t)NET_ARG(dctx, 3)));
	net_skip_port(cg, NET_TMP(dctx), NET_ARG(dctx, 3), skip);
}

/* net_dev_queue(skb) */
static void send(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	(void)used;
	cg_emit(cg, I_LDX(BPF_DW, BPF_R7, BPF_R6, 0));
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R7, (int16_t)NET_ARG(dctx, 0)));
	net_ip_headers(cg, NET_TMP(dctx), NET_ARG(dctx, 0), false, 0, NET_ARG(dctx, 2), -1, NET_ARG(dctx, 8),
		       skip);
	cg_emit(cg, I_LDX(BPF_DW, BPF_R8, BPF_FP, (int16_t)NET_ARG(dctx, 0)));
	net_field(cg, NET_TMP(dctx), BPF_R7, BPF_R8, "struct sk_buff", "sk");
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R7, (int16_t)NET_ARG(dctx, 1)));
	net_skip_packet_socket(cg, NET_TMP(dctx), NET_ARG(dctx, 1), skip);
	device(cg, dctx, skip);
	net_skip_resent(cg, NET_TMP(dctx), NET_ARG(dctx, 2), skip);
	by_version(cg, dctx);
}

/*
 * netif_receive_skb(skb).  A frame for another host's address is IP's
 * only where a macvlan device takes frames for its own address from the
 * device below (and then gives them to IP without another receive).
 */
static void receive(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	int mine = cg_label_new(cg);
	int64_t macvlan = net_enum(cg, "netdev_priv_flags", "IFF_MACVLAN_PORT");

	(void)used;
	cg_emit(cg, I_LDX(BPF_DW, BPF_R8, BPF_R6, 0));
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R8, (int16_t)NET_ARG(dctx, 0)));
	net_field(cg, NET_TMP(dctx), BPF_R7, BPF_R8, "struct sk_buff", "sk");
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R7, (int16_t)NET_ARG(dctx, 1)));
	net_ip_headers(cg, NET_TMP(dctx), NET_ARG(dctx, 0), true, 0, NET_ARG(dctx, 2), -1,
		       NET_ARG(dctx, 8), skip);
	device(cg, dctx, skip);
	cg_emit(cg, I_LDX(BPF_DW, BPF_R8, BPF_FP, (int16_t)NET_ARG(dctx, 0)));
	net_field(cg, NET_TMP(dctx), BPF_R7, BPF_R8, "struct sk_buff", "pkt_type");
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, PACKET_OTHERHOST, mine);
	cg_emit(cg, I_LDX(BPF_DW, BPF_R8, BPF_FP, (int16_t)NET_ARG(dctx, 3)));
	net_field(cg, NET_TMP(dctx), BPF_R7, BPF_R8, "struct net_device", "priv_flags");
	cg_jmp_imm(cg, BPF_JSET, BPF_R7, (int32_t)macvlan, mine);
	cg_ja(cg, skip);
	cg_label_place(cg, mine);
	by_version(cg, dctx);
}

static const struct net_site site_send = {
	NET_RAW, "net_dev_queue", { "struct sk_buff *" }, { NULL }, send, true,
};

static const struct net_site site_receive = {
	NET_RAW, "netif_receive_skb", { "struct sk_buff *" }, { NULL }, receive, false,
};

static const struct net_probe probes[] = {
	{ "receive", { &site_receive }, ARGS },
	{ "send", { &site_send }, ARGS },
};

static int populate(struct dt_registry *reg)
{
	return net_populate(reg, &dt_prov_ip, probes, sizeof(probes) / sizeof(probes[0]));
}

const struct dt_provider dt_prov_ip = {
	.name = "ip",
	.populate = populate,
	.mech_class = net_mech_class,
	.choose = net_choose,
	.arg_desc = net_arg_desc,
	.arg_count = net_arg_count,
	.unavailable = net_unavailable,
	.probe_unavailable = net_probe_unavailable,
	.pattr = &dt_pattr_sdt_stable,
};
