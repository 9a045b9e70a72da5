/*
 * Packets a stacked device sends again.  A bond, a VLAN, a macvlan or a
 * bridge sends what it is given through the device below it: the kernel
 * queues the same IP packet once per device (net_dev_queue), but IP sent
 * it once.  The device below is called from inside the upper device's
 * transmit routine, which the net_dev_start_xmit and net_dev_xmit
 * tracepoints bracket (xmit_one(), with bottom halves off, so nothing
 * else sends on that CPU meanwhile).  Two helper programs keep, per CPU,
 * the first bytes of the IP header of each packet being transmitted, one
 * entry per device level; a packet queued inside a transmit with the
 * same header bytes is that packet again, and is not reported.  A packet
 * a tunnel makes has a header of its own (another protocol, other
 * addresses and lengths): it is reported.
 */
#include <bpf/libbpf.h>
#include <errno.h>
#include <string.h>

#include "base/core.h"
#include "base/object.h"
#include "base/probe.h"
#include "base/provider.h"
#include "compiler/cg.h"
#include "compiler/cg_impl.h"
#include "compiler/compiler.h"
#include "compiler/pcb.h"
#include "providers/attach.h"
#include "providers/net.h"

#define MAP_XMIT	"dt_net_xmit"
#define PROG_START	"dt_net_xmit_start"
#define PROG_DONE	"dt_net_xmit_done"

/* Per CPU: the depth, then the header bytes of each level (the kernel nests at most 8). */
#define XMIT_LEVELS	8
#define XMIT_HDR	24
#define XMIT_VALUE	(8 + XMIT_LEVELS * XMIT_HDR)

bool net_xmit_built(const struct bo_object *obj)
{
	for (size_t i = 0; i < obj->funcs.n; i++)
		if (strcmp(obj->funcs.v[i]->name, PROG_START) == 0)
			return true;
	return false;
}

/* R0 = this CPU's entry, or skip. */
static void lookup(struct dt_cg *cg, int skip)
{
	int key = net_slot(cg);

	cg_ld_map_fd(cg, BPF_R1, MAP_XMIT);
	cg_emit(cg, I_MOV64_REG(BPF_R2, BPF_FP));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R2, key));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R0, 0, skip);
}

/* net_dev_start_xmit(skb, dev): note the packet's header bytes at the next level. */
static void build_start(struct dt_cg *cg)
{
	int out = cg_label_new(cg), count = cg_label_new(cg), tmp = net_slot(cg);

	cg_emit(cg, I_LDX(BPF_DW, BPF_R8, BPF_R1, 0));
	lookup(cg, out);
	cg_emit(cg, I_MOV64_REG(BPF_R9, BPF_R0));
	cg_emit(cg, I_LDX(BPF_DW, BPF_R1, BPF_R9, 0));
	cg_jmp_imm(cg, BPF_JGE, BPF_R1, XMIT_LEVELS, count);
	net_field(cg, tmp, BPF_R7, BPF_R8, "struct sk_buff", "head");
	net_field(cg, tmp, BPF_R6, BPF_R8, "struct sk_buff", "network_header");
	cg_emit(cg, I_ALU64_REG(BPF_ADD, BPF_R7, BPF_R6));
	cg_emit(cg, I_LDX(BPF_DW, BPF_R1, BPF_R9, 0));
	cg_jmp_imm(cg, BPF_JGE, BPF_R1, XMIT_LEVELS, count);
	cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R1, XMIT_LEVELS - 1));
	cg_emit(cg, I_ALU64_IMM(BPF_MUL, BPF_R1, XMIT_HDR));
	cg_emit(cg, I_ALU64_REG(BPF_ADD, BPF_R1, BPF_R9));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R1, 8));
	cg_emit(cg, I_MOV64_IMM(BPF_R2, XMIT_HDR));
	cg_emit(cg, I_MOV64_REG(BPF_R3, BPF_R7));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_probe_read_kernel));
	cg_label_place(cg, count);
	/* The depth counts every level, noted or not, so that the ends pair up. */
	cg_emit(cg, I_LDX(BPF_DW, BPF_R1, BPF_R9, 0));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R1, 1));
	cg_emit(cg, I_STX(BPF_DW, BPF_R9, BPF_R1, 0));
	cg_label_place(cg, out);
	cg_emit(cg, I_MOV64_IMM(BPF_R0, 0));
	cg_emit(cg, I_EXIT());
}

/* net_dev_xmit: that level is done (a transmit that began before tracing did is not counted). */
static void build_done(struct dt_cg *cg)
{
	int out = cg_label_new(cg);

	lookup(cg, out);
	cg_emit(cg, I_LDX(BPF_DW, BPF_R1, BPF_R0, 0));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R1, 0, out);
	cg_emit(cg, I_ALU64_IMM(BPF_SUB, BPF_R1, 1));
	cg_emit(cg, I_STX(BPF_DW, BPF_R0, BPF_R1, 0));
	cg_label_place(cg, out);
	cg_emit(cg, I_MOV64_IMM(BPF_R0, 0));
	cg_emit(cg, I_EXIT());
}

static void build(struct dt_cg *cg, const char *name, const char *section,
		  void (*body)(struct dt_cg *cg))
{
	struct dt_pcb *pcb = cg->pcb;
	struct dt_cg *outer = pcb->cg;
	struct bo_func *fn = dt_cg_new_func(cg->cc, name, section, 1);
	struct dt_cg hcg;

	if (fn == NULL)
		dt_cnomem(pcb);
	cg_init(&hcg, pcb, cg->cc->obj, fn);
	body(&hcg);
	cg_resolve(&hcg);
	cg_fini(&hcg);
	pcb->cg = outer;
}

void net_xmit_programs(struct dt_cg *cg)
{
	if (net_xmit_built(cg->cc->obj))
		return;
	build(cg, PROG_START, "raw_tp/net_dev_start_xmit", build_start);
	build(cg, PROG_DONE, "raw_tp/net_dev_xmit", build_done);
}

int net_xmit_add_maps(struct dt_registry *reg, struct bo_object *obj)
{
	struct bo_map m = {
		.name = MAP_XMIT,
		.type = BPF_MAP_TYPE_PERCPU_ARRAY,
		.key_size = 4,
		.value_size = XMIT_VALUE,
		.max_entries = 1,
	};

	for (size_t i = 0; i < obj->maps.n; i++)
		if (strcmp(obj->maps.v[i].name, MAP_XMIT) == 0)
			return 0;
	if (dt_vec_push(&obj->maps, m) < 0)
		return dt_set_error(reg->core, -ENOMEM, "out of memory");
	return 0;
}

void net_skip_resent(struct dt_cg *cg, int tmp, int iph, int skip)
{
	int ok = cg_label_new(cg);

	net_xmit_programs(cg);
	/* R9 = this CPU's entry (the key is the slot's 0) */
	cg_emit(cg, I_ST(BPF_DW, BPF_FP, (int16_t)tmp, 0));
	cg_ld_map_fd(cg, BPF_R1, MAP_XMIT);
	cg_emit(cg, I_MOV64_REG(BPF_R2, BPF_FP));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R2, tmp));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R0, 0, ok);
	/* Inside a transmit at level d (1..8): compare with the entry of level d - 1. */
	cg_emit(cg, I_LDX(BPF_DW, BPF_R1, BPF_R0, 0));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R1, 0, ok);
	cg_jmp_imm(cg, BPF_JGT, BPF_R1, XMIT_LEVELS, ok);
	cg_emit(cg, I_ALU64_IMM(BPF_SUB, BPF_R1, 1));
	/* (No change: it bounds the index for verifiers that do not follow the tests.) */
	cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R1, XMIT_LEVELS - 1));
	cg_emit(cg, I_ALU64_IMM(BPF_MUL, BPF_R1, XMIT_HDR));
	cg_emit(cg, I_ALU64_REG(BPF_ADD, BPF_R0, BPF_R1));
	cg_emit(cg, I_MOV64_REG(BPF_R9, BPF_R0));
	for (int i = 0; i < XMIT_HDR; i += 8) {
		cg_emit(cg, I_LDX(BPF_DW, BPF_R8, BPF_FP, (int16_t)iph));
		net_read(cg, tmp, BPF_R7, BPF_R8, i, 8);
		cg_emit(cg, I_LDX(BPF_DW, BPF_R1, BPF_R9, (int16_t)(8 + i)));
		cg_jmp_reg(cg, BPF_JNE, BPF_R1, BPF_R7, ok);
	}
	cg_ja(cg, skip);
	cg_label_place(cg, ok);
}

/* Attach the helpers: the end of a transmit before its start, so that they pair up. */
int net_xmit_attach(struct dt_registry *reg, struct dt_group *g, struct bpf_object *obj)
{
	static const char *const progs[][2] = {
		{ PROG_DONE, "net_dev_xmit" }, { PROG_START, "net_dev_start_xmit" },
	};
	int rc;

	for (size_t i = 0; i < ARRAY_SIZE(progs); i++) {
		struct bpf_program *p = bpf_object__find_program_by_name(obj, progs[i][0]);
		if (p == NULL)
			errno = ENOENT;
		struct bpf_link *l = p != NULL ? bpf_program__attach_raw_tracepoint(p, progs[i][1])
					       : NULL;
		if ((rc = dt_group_link(reg, g, l, "failed to attach %s to the %s raw tracepoint",
					progs[i][0], progs[i][1])) < 0)
			return rc;
	}
	return 0;
}
