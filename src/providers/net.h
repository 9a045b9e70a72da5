/*
 * The network providers (ip, tcp, udp) as DTrace documents them, made
 * from what the running kernel offers: raw tracepoints where one fires at
 * the right place with what the probe needs, kprobes (the kernel lab's)
 * where none does.  A probe names its sites in order of preference; it
 * fires on the first one this kernel has.
 *
 * Every probe's arguments are set as DTrace for Linux sets them, for the
 * translators of the D library (dlib/kernel/net.d, tcp.d, udp.d):
 *
 *   ip    arg0 skb, arg1 its socket, arg2 IP header, arg3 net_device,
 *         arg4 IPv4 header or NULL, arg5 IPv6 header or NULL
 *   tcp   arg0 skb, arg1 socket, arg2 IP header, arg3 TCP socket,
 *         arg4 TCP header, arg5 previous state (state-change),
 *         arg6 NET_PROBE_OUTBOUND, _INBOUND or _STATE, arg7 the state the
 *         socket is in, where the probe knows it better than the socket
 *         (which a state change has not changed yet), else 0
 *   udp   arg0 skb, arg1 socket, arg2 IP header, arg3 UDP socket,
 *         arg4 UDP header, arg5 NET_PROBE_OUTBOUND or _INBOUND
 */
#ifndef DT_NET_H
#define DT_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bo_object;
struct bpf_object;
struct dt_cg;
struct dt_registry;
struct dt_group;
struct dt_probe;
struct dt_provider;
struct dt_mech;

/* The direction a probe's packet travels, as net.d's NET_PROBE_* say. */
#define NET_OUTBOUND	0
#define NET_INBOUND	1
#define NET_STATE	2

enum net_kind {
	NET_RAW,	/* a raw tracepoint: ctx is the u64 arguments of TP_PROTO */
	NET_KPROBE,	/* kprobes on kernel functions: ctx is pt_regs */
};

/*
 * Where a probe fires.  The prologue fills the probe's arguments (bit i
 * of `used`: argi is read) and may jump to `skip`; R6 is the context,
 * R7-R9 are free.  For kprobes, R9 holds the index in funcs[] of the
 * function that fired.
 */
struct net_site {
	enum net_kind kind;
	const char *event;		/* NET_RAW: the tracepoint */
	const char *params[4];		/* NET_RAW: TP_PROTO's parameter types, as BTF has them */
	const char *funcs[6];		/* NET_KPROBE: the kernel functions */
	void (*prologue)(struct dt_cg *cg, int dctx, uint32_t used, int skip);
	/* It needs to know which packets a stacked device sends again (net_xmit.c). */
	bool xmit;
};

struct net_arg {
	const char *native;		/* type of the value in argN */
	const char *xlate;		/* what args[N] is translated to, or NULL */
};

struct net_probe {
	const char *name;
	const struct net_site *sites[3];	/* by preference, NULL-terminated */
	struct net_arg args[6];
};

/* Register the probes of a provider (every probe: the sites are chosen when enabled). */
int net_populate(struct dt_registry *reg, const struct dt_provider *prov,
		 const struct net_probe *probes, size_t n);

/* The dt_provider functions of every network provider. */
const char *net_mech_class(const struct dt_probe *prp);
const struct dt_mech *net_choose(struct dt_registry *reg, struct dt_group *g);
bool net_arg_desc(struct dt_registry *reg, const struct dt_probe *prp, int i, const char **native,
		  const char **xlate);
int net_arg_count(struct dt_registry *reg, const struct dt_probe *prp);
const char *net_unavailable(struct dt_registry *reg);
/* Why a listed probe cannot be enabled here (no kprobes, a tracepoint that differs), or NULL. */
const char *net_probe_unavailable(struct dt_registry *reg, const struct dt_probe *prp);

/* ---- Prologue pieces (net_skb.c) ---- */

/* Byte offset of a kernel struct member (a build error if BTF has none). */
uint32_t net_member(struct dt_cg *cg, const char *sou, const char *member);
/* reg = the member (an integer, a bit-field, or a pointer) of the object at reg `obj`. */
void net_field(struct dt_cg *cg, int tmp, int reg, int obj, const char *sou, const char *member);
/*
 * reg = the `size`-byte value at obj + off, read with probe_read_kernel
 * (0 if unreadable) through the stack slot `tmp`.
 */
void net_read(struct dt_cg *cg, int tmp, int reg, int obj, int32_t off, int size);
/* argi = reg, if `used` asks for it. */
void net_set_arg(struct dt_cg *cg, int dctx, uint32_t used, int i, int reg);
/* argi = imm, if `used` asks for it. */
void net_set_arg_imm(struct dt_cg *cg, int dctx, uint32_t used, int i, int32_t imm);
/* reg = the kprobe's argument i (0-5) from its pt_regs (R6). */
void net_kprobe_arg(struct dt_cg *cg, int reg, int i);
/* A stack slot of 8 bytes, set to 0. */
int net_slot(struct dt_cg *cg);
/*
 * The slot of argi in the probe context: prologues keep their values in
 * the argument slots (and arg8, arg9 for the rest, which they clear),
 * since the program's frame has little room besides the context.
 */
#define NET_ARG(dctx, i) ((dctx) + DCTX_ARGS + 8 * (i))
/* Two slots of the context free until the clauses run (cleared after the prologue). */
#define NET_TMP(dctx) ((dctx) + DCTX_EPID)
#define NET_TMP2(dctx) ((dctx) + DCTX_ERRNO)
/* The value of an enumerator of the kernel's BTF (a build error if none). */
int64_t net_enum(struct dt_cg *cg, const char *type, const char *name);

/*
 * The packet at `skb` (a slot holding the struct sk_buff *): skip unless
 * its network header is IPv4 or IPv6 carrying `proto` (0: any) in its
 * first fragment; set `iph` (slot) to the IP header and, with proto,
 * `l4` (slot) to the header after it; `ver` (slot) to 4 or 6.  The IP
 * header is at skb->data when `at_data` (a device's receive path, where
 * the network header is not set yet), else at the network header.
 */
void net_ip_headers(struct dt_cg *cg, int tmp, int skb, bool at_data, int proto, int iph,
		    int l4, int ver, int skip);
/* Skip if the device at `dev` (slot) only forwards frames (a bridge or Open vSwitch port). */
void net_skip_port(struct dt_cg *cg, int tmp, int dev, int skip);
/* Skip if the packet (IP header at `iph`) is one a stacked device sends again (net_xmit.c). */
void net_skip_resent(struct dt_cg *cg, int tmp, int iph, int skip);
/* Skip unless the skb at `skb` (slot) was made on this host (not received, then forwarded). */
void net_skip_forwarded(struct dt_cg *cg, int tmp, int skb, int skip);

/* Skip if the socket at `sk` (slot; none: 0) is a packet socket (it sends frames, not IP). */
void net_skip_packet_socket(struct dt_cg *cg, int tmp, int sk, int skip);

/* The helper programs that follow stacked devices' sends (net_xmit.c). */
void net_xmit_programs(struct dt_cg *cg);
/* Whether the object being built has them. */
bool net_xmit_built(const struct bo_object *obj);
int net_xmit_add_maps(struct dt_registry *reg, struct bo_object *obj);
/* Attach them, from the loaded object, keeping the links in g. */
int net_xmit_attach(struct dt_registry *reg, struct dt_group *g, struct bpf_object *obj);

#endif
