/*
 * Pieces of the network providers' prologues: kernel members read from
 * BTF offsets, and the packet's headers found and checked in its
 * struct sk_buff.  Values are kept in stack slots between helper calls.
 */
#include <bpf/btf.h>
#include <sys/socket.h>
#include <string.h>

#include "base/core.h"
#include "base/insn.h"
#include "base/types.h"
#include "compiler/cg.h"
#include "compiler/compiler.h"
#include "compiler/pcb.h"
#include "providers/net.h"

/* The protocols of skb->protocol, as a little-endian load of the big-endian field. */
#define LE_ETH_P_IP	0x0008
#define LE_ETH_P_IPV6	0xdd86
#define LE_ETH_P_8021Q	0x0081
#define LE_ETH_P_8021AD	0xa888

#define IPV6_FRAGMENT	44	/* IPv6's fragment extension header */

static const struct dt_member *member(struct dt_cg *cg, const char *sou, const char *name,
				      uint32_t *bits)
{
	struct dt_typetab *tt = &cg->cc->core->types;
	struct dt_type *t = dt_type_lookup(tt, sou);
	const struct dt_member *m = t != NULL ? dt_type_member(tt, t, name, bits) : NULL;

	if (m == NULL)
		dt_cerror(cg->pcb, NULL, 0,
			  "the probe needs %s member %s, which this kernel's BTF does not have",
			  sou, name);
	return m;
}

uint32_t net_member(struct dt_cg *cg, const char *sou, const char *name)
{
	uint32_t bits = 0;

	member(cg, sou, name, &bits);
	return bits / 8;
}

int net_slot(struct dt_cg *cg)
{
	int slot = cg_stack_alloc(cg, 8);

	cg_emit(cg, I_ST(BPF_DW, BPF_FP, (int16_t)slot, 0));
	return slot;
}

void net_read(struct dt_cg *cg, int tmp, int reg, int obj, int32_t off, int size)
{
	cg_emit(cg, I_ST(BPF_DW, BPF_FP, (int16_t)tmp, 0));
	cg_emit(cg, I_MOV64_REG(BPF_R3, obj));
	if (off != 0)
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R3, off));
	cg_emit(cg, I_MOV64_REG(BPF_R1, BPF_FP));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R1, tmp));
	cg_emit(cg, I_MOV64_IMM(BPF_R2, size));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_probe_read_kernel));
	cg_emit(cg, I_LDX(cg_size_code((uint32_t)size), reg, BPF_FP, (int16_t)tmp));
}

void net_field(struct dt_cg *cg, int tmp, int reg, int obj, const char *sou, const char *name)
{
	uint32_t bits = 0;
	const struct dt_member *m = member(cg, sou, name, &bits);

	if (m->bitsize == 0) {
		uint32_t size = dt_type_size(m->type);
		if (size != 1 && size != 2 && size != 4 && size != 8)
			dt_cerror(cg->pcb, NULL, 0, "%s member %s is not a scalar", sou, name);
		net_read(cg, tmp, reg, obj, (int32_t)(bits / 8), (int)size);
		return;
	}
	/* A bit-field: the bytes that hold it, shifted and masked (little-endian). */
	uint32_t shift = bits % 8, need = (shift + m->bitsize + 7) / 8;
	int size = need <= 1 ? 1 : need <= 2 ? 2 : need <= 4 ? 4 : 8;
	net_read(cg, tmp, reg, obj, (int32_t)(bits / 8), size);
	if (shift != 0)
		cg_emit(cg, I_ALU64_IMM(BPF_RSH, reg, (int32_t)shift));
	if (m->bitsize < 32) {
		cg_emit(cg, I_ALU64_IMM(BPF_AND, reg, (int32_t)((1u << m->bitsize) - 1)));
	} else if (m->bitsize < 64) {
		cg_emit(cg, I_ALU64_IMM(BPF_LSH, reg, (int32_t)(64 - m->bitsize)));
		cg_emit(cg, I_ALU64_IMM(BPF_RSH, reg, (int32_t)(64 - m->bitsize)));
	}
}

void net_set_arg(struct dt_cg *cg, int dctx, uint32_t used, int i, int reg)
{
	if (used & (1u << i))
		cg_emit(cg, I_STX(BPF_DW, BPF_FP, reg, (int16_t)(dctx + DCTX_ARGS + 8 * i)));
}

void net_set_arg_imm(struct dt_cg *cg, int dctx, uint32_t used, int i, int32_t imm)
{
	if (used & (1u << i))
		cg_emit(cg, I_ST(BPF_DW, BPF_FP, (int16_t)(dctx + DCTX_ARGS + 8 * i), imm));
}

int64_t net_enum(struct dt_cg *cg, const char *type, const char *name)
{
	struct btf *btf = dt_kernel_btf(&cg->cc->core->types);
	int id = btf != NULL ? btf__find_by_name_kind(btf, type, BTF_KIND_ENUM) : -1;

	if (btf != NULL && id <= 0)
		id = btf__find_by_name_kind(btf, type, BTF_KIND_ENUM64);
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, (uint32_t)id) : NULL;
	for (uint16_t i = 0; t != NULL && i < btf_vlen(t); i++) {
		if (btf_is_enum(t)) {
			const struct btf_enum *e = btf_enum(t) + i;
			if (strcmp(btf__name_by_offset(btf, e->name_off), name) == 0)
				return e->val;
		} else {
			const struct btf_enum64 *e = btf_enum64(t) + i;
			if (strcmp(btf__name_by_offset(btf, e->name_off), name) == 0)
				return (int64_t)btf_enum64_value(e);
		}
	}
	dt_cerror(cg->pcb, NULL, 0, "the probe needs %s of enum %s, which this kernel's BTF "
		  "does not have", name, type);
}

/* reg = the slot's value */
static void ld(struct dt_cg *cg, int reg, int slot)
{
	cg_emit(cg, I_LDX(BPF_DW, reg, BPF_FP, (int16_t)slot));
}

static void st(struct dt_cg *cg, int slot, int reg)
{
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, reg, (int16_t)slot));
}

/*
 * IPv4: the first fragment of a packet of `proto` (any if 0); the header
 * after it follows the IP header's ihl words.  R8 holds the IP header.
 */
static void ipv4(struct dt_cg *cg, int tmp, int proto, int l4, int skip)
{
	if (proto == 0)
		return;
	net_read(cg, tmp, BPF_R7, BPF_R8, 9, 1);
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, proto, skip);
	/* frag_off: a later fragment has no header of its own (the offset is not 0) */
	net_read(cg, tmp, BPF_R7, BPF_R8, 6, 2);
	cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R7, 0xff1f));	/* ntohs(x) & 0x1fff */
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, 0, skip);
	net_read(cg, tmp, BPF_R7, BPF_R8, 0, 1);
	cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R7, 0xf));
	cg_jmp_imm(cg, BPF_JLT, BPF_R7, 5, skip);
	cg_emit(cg, I_ALU64_IMM(BPF_LSH, BPF_R7, 2));
	cg_emit(cg, I_ALU64_REG(BPF_ADD, BPF_R7, BPF_R8));
	st(cg, l4, BPF_R7);
}

/*
 * IPv6: `proto` right after the fixed header, or after a fragment
 * header in the first fragment.  (Other extension headers: not followed.)
 */
static void ipv6(struct dt_cg *cg, int tmp, int proto, int l4, int skip)
{
	int frag = cg_label_new(cg), done = cg_label_new(cg);

	if (proto == 0)
		return;
	net_read(cg, tmp, BPF_R7, BPF_R8, 6, 1);
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, proto, frag);
	cg_emit(cg, I_MOV64_REG(BPF_R7, BPF_R8));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R7, 40));
	st(cg, l4, BPF_R7);
	cg_ja(cg, done);
	cg_label_place(cg, frag);
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, IPV6_FRAGMENT, skip);
	net_read(cg, tmp, BPF_R7, BPF_R8, 40, 1);
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, proto, skip);
	net_read(cg, tmp, BPF_R7, BPF_R8, 42, 2);
	cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R7, 0xf8ff));	/* ntohs(x) & 0xfff8 */
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, 0, skip);
	cg_emit(cg, I_MOV64_REG(BPF_R7, BPF_R8));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R7, 48));
	st(cg, l4, BPF_R7);
	cg_label_place(cg, done);
}

void net_ip_headers(struct dt_cg *cg, int tmp, int skb, bool at_data, int proto, int iph,
		    int l4, int ver, int skip)
{
	int v6 = cg_label_new(cg), check = cg_label_new(cg), done = cg_label_new(cg);
	int prot = ver;		/* skb->protocol, until the version is known */

	ld(cg, BPF_R9, skb);
	net_field(cg, tmp, BPF_R7, BPF_R9, "struct sk_buff", "protocol");
	st(cg, prot, BPF_R7);
	if (at_data) {
		net_field(cg, tmp, BPF_R8, BPF_R9, "struct sk_buff", "data");
		/*
		 * A frame whose VLAN tag the device left in it: the tag is
		 * taken out after the tracepoint, the IP header follows it.
		 */
		int untagged = cg_label_new(cg), tagged = cg_label_new(cg);
		cg_jmp_imm(cg, BPF_JEQ, BPF_R7, LE_ETH_P_8021Q, tagged);
		cg_jmp_imm(cg, BPF_JNE, BPF_R7, LE_ETH_P_8021AD, untagged);
		cg_label_place(cg, tagged);
		net_read(cg, tmp, BPF_R7, BPF_R8, 2, 2);
		st(cg, prot, BPF_R7);
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R8, 4));
		cg_label_place(cg, untagged);
	} else {
		net_field(cg, tmp, BPF_R8, BPF_R9, "struct sk_buff", "head");
		net_field(cg, tmp, BPF_R7, BPF_R9, "struct sk_buff", "network_header");
		cg_emit(cg, I_ALU64_REG(BPF_ADD, BPF_R8, BPF_R7));
	}
	st(cg, iph, BPF_R8);
	/* The version in the header must be the one skb->protocol says. */
	net_read(cg, tmp, BPF_R9, BPF_R8, 0, 1);
	cg_emit(cg, I_ALU64_IMM(BPF_RSH, BPF_R9, 4));
	ld(cg, BPF_R7, prot);
	cg_jmp_imm(cg, BPF_JEQ, BPF_R7, LE_ETH_P_IPV6, v6);
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, LE_ETH_P_IP, skip);
	cg_jmp_imm(cg, BPF_JNE, BPF_R9, 4, skip);
	cg_ja(cg, check);
	cg_label_place(cg, v6);
	cg_jmp_imm(cg, BPF_JNE, BPF_R9, 6, skip);
	cg_label_place(cg, check);
	st(cg, ver, BPF_R9);
	int is6 = cg_label_new(cg);
	cg_jmp_imm(cg, BPF_JEQ, BPF_R9, 6, is6);
	ipv4(cg, tmp, proto, l4, skip);
	cg_ja(cg, done);
	cg_label_place(cg, is6);
	ld(cg, BPF_R8, iph);
	ipv6(cg, tmp, proto, l4, skip);
	cg_label_place(cg, done);
}

void net_skip_port(struct dt_cg *cg, int tmp, int dev, int skip)
{
	int64_t ports = net_enum(cg, "netdev_priv_flags", "IFF_BRIDGE_PORT") |
			net_enum(cg, "netdev_priv_flags", "IFF_OVS_DATAPATH");

	ld(cg, BPF_R8, dev);
	cg_jmp_imm(cg, BPF_JEQ, BPF_R8, 0, skip);
	net_field(cg, tmp, BPF_R7, BPF_R8, "struct net_device", "priv_flags");
	cg_jmp_imm(cg, BPF_JSET, BPF_R7, (int32_t)ports, skip);
}

void net_skip_forwarded(struct dt_cg *cg, int tmp, int skb, int skip)
{
	ld(cg, BPF_R8, skb);
	net_field(cg, tmp, BPF_R7, BPF_R8, "struct sk_buff", "skb_iif");
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, 0, skip);
}

void net_kprobe_arg(struct dt_cg *cg, int reg, int i)
{
#if defined(__x86_64__)
	static const char *const regs[] = { "di", "si", "dx", "cx", "r8", "r9" };
	uint32_t off = net_member(cg, "struct pt_regs", regs[i]);
#elif defined(__aarch64__)
	uint32_t off = net_member(cg, "struct user_pt_regs", "regs") + 8 * (uint32_t)i;
#else
#error "the argument registers of this architecture are not known"
#endif
	cg_emit(cg, I_LDX(BPF_DW, reg, BPF_R6, (int16_t)off));
}

void net_skip_packet_socket(struct dt_cg *cg, int tmp, int sk, int skip)
{
	int none = cg_label_new(cg);

	ld(cg, BPF_R8, sk);
	cg_jmp_imm(cg, BPF_JEQ, BPF_R8, 0, none);
	net_field(cg, tmp, BPF_R7, BPF_R8, "struct sock_common", "skc_family");
	cg_jmp_imm(cg, BPF_JEQ, BPF_R7, AF_PACKET, skip);
	cg_label_place(cg, none);
}
