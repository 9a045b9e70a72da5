/*
 * Destructive actions and subroutines: raise(), stop(), chill(),
 * copyout() and copyoutstr().  They change the traced system, so a
 * program that uses them is only enabled with -w (or the destructive
 * option); go.c checks that.  panic() and breakpoint() are refused at
 * compile time (sema_call.c): a BPF program can do neither.
 *
 *   raise(sig)   bpf_send_signal(): the signal goes to the current process.
 *                A signal number outside 1..64 is DTrace's illegal
 *                operation fault; 0 sends nothing.
 *   stop()       bpf_send_signal(SIGSTOP): the current process stops, as in
 *                DTrace (it is continued with SIGCONT, e.g. prun(1)/kill).
 *   chill(ns)    spins for ns nanoseconds (bpf_loop() over the clock, in the
 *                run-time library, bpf/chill.bpf.c); more than DTrace's
 *                limit of half a second is an illegal operation.
 *   copyout(buf, addr, n), copyoutstr(str, addr, n)
 *                bpf_probe_write_user() of at most scratchsize bytes (a
 *                string: its bytes and NUL, at most n) staged in scratch.
 */
#include <signal.h>

#include "base/abi.h"
#include "base/core.h"
#include "base/types.h"
#include "compiler/cg.h"
#include "compiler/cg_impl.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/program.h"
#include "compiler/sema_impl.h"

static struct dt_node *arg(struct dt_node *call, int i)
{
	struct dt_node *a = call->call.args;

	while (i-- > 0 && a)
		a = a->next;
	return a;
}

/* bpf_send_signal(sig) for a signal number in a register (freed). */
static void send_signal(struct dt_cg *cg, int sig)
{
	cg_bvar_need_current(cg, "raise( )");
	int done = cg_label_new(cg), ok = cg_label_new(cg);

	cg_jmp_imm(cg, BPF_JEQ, sig, 0, done);
	cg_jmp_imm(cg, BPF_JLE, sig, 64, ok);
	cg_fault(cg, DT_FLT_ILLOP, sig);
	cg_label_place(cg, ok);
	cg_call_helper_void(cg, BPF_FUNC_send_signal, &sig, 1);
	cg_label_place(cg, done);
}

static void check_chill(struct dt_cg *cg, int line)
{
	/* Without bpf_loop() (Linux 5.17) the program would not load: say so now. */
	if (!cg->cc->core->features.bpf_loop)
		dt_cerror(cg->pcb, "D_UNKNOWN", line,
			  "chill( ) needs the kernel's bpf_loop helper (Linux 5.17 or later)");
}

void cg_act_destructive(struct dt_cg *cg, struct dt_node *call)
{
	switch (call->id->code) {
	case ACT_RAISE:
		send_signal(cg, cg_expr(cg, arg(call, 0)));
		break;
	case ACT_STOP: {
		cg_bvar_need_current(cg, "stop( )");
		int sig = cg_reg_alloc(cg);
		cg_emit(cg, I_MOV64_IMM(sig, SIGSTOP));
		cg_call_helper_void(cg, BPF_FUNC_send_signal, &sig, 1);
		break;
	}
	case ACT_CHILL: {
		check_chill(cg, call->line);
		int ns = cg_expr(cg, arg(call, 0));
		int save = cg_reg_alloc(cg);
		cg_emit(cg, I_MOV64_REG(save, ns));
		int rc = cg_call_func(cg, "dt_rt_chill", &ns, 1);
		int ok = cg_label_new(cg);
		cg_jmp_imm(cg, BPF_JEQ, rc, 0, ok);
		cg_fault(cg, DT_FLT_ILLOP, save);
		cg_label_place(cg, ok);
		cg_reg_free(cg, rc);
		cg_reg_free(cg, save);
		break;
	}
	default:
		break;
	}
}

/*
 * Write `len` (a register, known to be 1..cap) bytes of the staging buffer
 * `stage` to user address `dst`; a failure faults on dst.  Frees all three.
 */
static void write_user(struct dt_cg *cg, int dst, int stage, int len)
{
	cg_bvar_need_current(cg, "user memory");
	int save = cg_reg_alloc(cg), ok = cg_label_new(cg);
	int a[3];

	cg_emit(cg, I_MOV64_REG(save, dst));
	a[0] = dst;
	a[1] = stage;
	a[2] = len;
	int rc = cg_call_helper(cg, BPF_FUNC_probe_write_user, a, 3);
	cg_jmp_imm(cg, BPF_JEQ, rc, 0, ok);
	cg_fault(cg, DT_FLT_BADADDR, save);
	cg_label_place(cg, ok);
	cg_reg_free(cg, rc);
	cg_reg_free(cg, save);
}

/* copyout(buf, addr, n): n bytes of kernel or scratch memory at buf. */
static int copyout(struct dt_cg *cg, struct dt_node *n)
{
	uint32_t cap = cg_alloca_size(cg->cc);
	int src = cg_expr(cg, arg(n, 0));
	int dst = cg_expr(cg, arg(n, 1));
	int len = cg_expr(cg, arg(n, 2));
	int done = cg_label_new(cg), fits = cg_label_new(cg), ok = cg_label_new(cg);

	cg_jmp_imm(cg, BPF_JEQ, len, 0, done);
	cg_jmp_imm(cg, BPF_JLE, len, (int32_t)cap, fits);
	cg_fault(cg, DT_FLT_BADSIZE, len);
	cg_label_place(cg, fits);
	int stage = cg_scratch_alloc(cg, cap);
	int keep = cg_reg_alloc(cg), klen = cg_reg_alloc(cg), ssrc = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_REG(keep, stage));
	cg_emit(cg, I_MOV64_REG(klen, len));
	cg_emit(cg, I_MOV64_REG(ssrc, src));
	int a[3] = { stage, len, src };
	int rc = cg_call_helper(cg, BPF_FUNC_probe_read_kernel, a, 3);
	cg_jmp_imm(cg, BPF_JEQ, rc, 0, ok);
	cg_fault(cg, DT_FLT_BADADDR, ssrc);
	cg_label_place(cg, ok);
	cg_reg_free(cg, rc);
	cg_reg_free(cg, ssrc);
	/* The verifier lost klen's bounds in the copy: check them again. */
	cg_jmp_imm(cg, BPF_JEQ, klen, 0, done);
	cg_jmp_imm(cg, BPF_JGT, klen, (int32_t)cap, done);
	write_user(cg, dst, keep, klen);
	cg_label_place(cg, done);
	return cg_reg_alloc(cg);
}

/* copyoutstr(str, addr, n): the string and its NUL, at most n bytes. */
static int copyoutstr(struct dt_cg *cg, struct dt_node *n)
{
	uint32_t cap = dt_str_bytes(cg->cc);
	int src = cg_expr_string(cg, arg(n, 0));
	int dst = cg_expr(cg, arg(n, 1));
	int max = cg_expr(cg, arg(n, 2));
	int stage = cg_scratch_alloc(cg, cap);
	int keep = cg_reg_alloc(cg);
	int done = cg_label_new(cg), ok = cg_label_new(cg);

	cg_emit(cg, I_MOV64_REG(keep, stage));
	int a[3] = { stage, cg_reg_alloc(cg), src };
	cg_emit(cg, I_MOV64_IMM(a[1], (int32_t)cap));
	int len = cg_call_helper(cg, BPF_FUNC_probe_read_kernel_str, a, 3);
	/* len: bytes with the NUL (or an error); at most n of them go out. */
	cg_jmp_imm(cg, BPF_JSLE, len, 0, done);
	cg_jmp_reg(cg, BPF_JLE, len, max, ok);
	cg_emit(cg, I_MOV64_REG(len, max));
	cg_label_place(cg, ok);
	cg_reg_free(cg, max);
	cg_jmp_imm(cg, BPF_JEQ, len, 0, done);
	cg_jmp_imm(cg, BPF_JGT, len, (int32_t)cap, done);
	write_user(cg, dst, keep, len);
	cg_label_place(cg, done);
	return cg_reg_alloc(cg);
}

/* bpf_probe_write_user() is refused under kernel lockdown (integrity mode or more). */
static void check_write_user(struct dt_cg *cg, struct dt_node *n)
{
	if (!cg->cc->core->features.probe_write_user)
		dt_cerror(cg->pcb, "D_UNKNOWN", n->line,
			  "%s( ) needs the kernel's bpf_probe_write_user helper, which this kernel "
			  "does not allow (see /sys/kernel/security/lockdown)", n->id->name);
}

int cg_copyout_subr(struct dt_cg *cg, struct dt_node *n)
{
	if (n->id->code == SUB_COPYOUT || n->id->code == SUB_COPYOUTSTR)
		check_write_user(cg, n);
	switch (n->id->code) {
	case SUB_COPYOUT:
		return copyout(cg, n);
	case SUB_COPYOUTSTR:
		return copyoutstr(cg, n);
	default:
		return -1;
	}
}
