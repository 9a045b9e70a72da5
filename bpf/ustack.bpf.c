/*
 * User stacks (ustack(), ucaller, ustackdepth): the kernel's walk, or
 * dtrace's own at a function's first instruction (pid entry probes), with
 * the return addresses pending uretprobes replaced mapped back.
 */
#include "runtime.h"

/* x86_64 struct pt_regs: the saved %rbp, %rip and %rsp. */
#define PT_BP 32
#define PT_IP 128
#define PT_SP 152

/* The most frames a stack holds (DT_STACK_MAXFRAMES) and one more. */
#define MAXWORDS 128

/* The most return instances a thread has (the kernel's MAX_URETPROBE_DEPTH). */
#define MAXURET 64

/*
 * The kernel offsets the mapping takes, in 8-byte units, packed in one
 * word (cg_stack.c: uret_offsets); 0: no mapping.
 */
#define OFF(w, shift, bits) ((((w) >> (shift)) & ((1ull << (bits)) - 1)) * 8)
#define O_UTASK(w) OFF(w, 0, 13)	/* task_struct.utask */
#define O_MM(w) OFF(w, 13, 13)		/* task_struct.mm */
#define O_XOL(w) OFF(w, 26, 13)		/* mm_struct.uprobes_state.xol_area */
#define O_RIS(w) OFF(w, 39, 5)		/* uprobe_task.return_instances */
#define O_VADDR(w) OFF(w, 44, 5)	/* xol_area.vaddr */
#define O_STACK(w) OFF(w, 49, 5)	/* return_instance.stack */
#define O_ORIG(w) OFF(w, 54, 5)		/* return_instance.orig_ret_vaddr */
#define O_NEXT(w) OFF(w, 59, 5)		/* return_instance.next */

static __always_inline int kread(void *dst, u64 addr)
{
	return bpf_probe_read_kernel(dst, sizeof(u64), (void *)addr);
}

/* The state of one stack's mapping, a bpf_loop() step's argument. */
struct uwalk {
	u64 *d;
	u64 cfg;	/* the buffer's size and the return_instance offsets (CFG_*) */
	u64 i;		/* the word looked at */
	u64 at;		/* dtrace's walk: the trampoline at d[i] was found at this
			 * address; the kernel's: instances below this are passed */
	u64 fp;		/* dtrace's walk: the next frame; the kernel's: the words stored */
	u64 ri;		/* the first return instance not passed */
	u64 tramp;
};

/*
 * cfg: constants of the caller's, so that a step knows the buffer's size:
 * the size in bits 0-15, the offsets of return_instance in offs's places.
 */
#define CFG(size, offs) ((size) | ((offs) & ~((1ull << 49) - 1)))
#define CFG_SIZE(c) ((c) & 0xffff)

/*
 * A pending uretprobe (a pid return probe of a function the thread is in)
 * has replaced its function's return address on the stack with the
 * kernel's [uprobes] trampoline, and keeps the real one in a struct
 * return_instance of current->utask->return_instances, newest first:
 * `stack`, the address of the replaced word, grows along the list.  The
 * kernel maps trampolines back in its own walks since Linux 6.11 (the
 * perf callchain's uretprobe fixup); these are mapped back here.
 *
 * The current thread's newest return instance into x->ri (0 if it has
 * none) and the trampoline's address (mm->uprobes_state.xol_area->vaddr,
 * as uprobe_get_trampoline_vaddr()) into x->tramp; x->fp is changed.  No
 * stack of its own: with the callers of a stack walk, the stack is tight
 * (512 bytes; Linux 6.1 counts each frame in 32-byte units).
 */
static __always_inline void uret_first(u64 offs, struct uwalk *x)
{
	u64 task = bpf_get_current_task();

	x->ri = 0;
	if (offs == 0 || kread(&x->fp, task + O_UTASK(offs)) < 0 || x->fp == 0 ||
	    kread(&x->fp, x->fp + O_RIS(offs)) < 0 || x->fp == 0 ||
	    kread(&x->tramp, task + O_MM(offs)) < 0 || x->tramp == 0 ||
	    kread(&x->tramp, x->tramp + O_XOL(offs)) < 0 || x->tramp == 0 ||
	    kread(&x->tramp, x->tramp + O_VADDR(offs)) < 0)
		return;
	x->ri = x->fp;
}

/*
 * The fields from i to ri as values the verifier knows nothing of
 * (copied onto themselves by a helper): the state a bpf_loop() step
 * starts from then covers every value, so the step is checked once for
 * all, on kernels that check a step once (before 6.7) as on those that
 * check it until its states repeat.
 */
static __always_inline void forget(struct uwalk *x)
{
	bpf_probe_read_kernel(&x->i, 4 * sizeof(u64), &x->i);
}

/*
 * dtrace's walk, for a thread with pending uretprobes: trampolines are
 * mapped back by address, the one found at `at` standing for the
 * original return address of the instance whose `stack` is `at`.  Words
 * come in increasing order of address, so the instances below one (of
 * frames the walk did not see, or left behind by longjmp) are passed for
 * good; instances sharing a word (chained: a tail call) keep the same
 * address.  Each step reads a frame, or passes an instance, or maps a
 * trampoline; 1 stops.
 */
static long walk_step(u64 n, void *arg)
{
	struct uwalk *x = arg;
	u64 i = x->i, st = 0, v = 0;
	struct {
		u64 next, ret;
	} fr;

	(void)n;
	if (i >= CFG_SIZE(x->cfg) / 8 || i >= MAXWORDS)
		return 1;
	if (x->at != 0) {
		if (x->ri == 0 || kread(&st, x->ri + O_STACK(x->cfg)) < 0) {
			x->ri = 0;
		} else if (st < x->at) {
			x->ri = kread(&v, x->ri + O_NEXT(x->cfg)) < 0 ? 0 : v;
			return 0;
		} else if (st == x->at && kread(&v, x->ri + O_ORIG(x->cfg)) == 0) {
			x->d[i] = v;
		}
		x->at = 0;
		x->i = i + 1;
		return 0;
	}
	/* As the kernel's walk: until a frame cannot be read. */
	if (bpf_probe_read_user(&fr, sizeof(fr), (void *)x->fp) < 0)
		return 1;
	x->d[i] = fr.ret;
	if (fr.ret == x->tramp)
		x->at = x->fp + 8;
	else
		x->i = i + 1;
	x->fp = fr.next;
	return 0;
}

/*
 * The current thread's user stack when it stands at the first
 * instruction of a function, into x->d (CFG_SIZE bytes, zero past the
 * last frame): the pc, then the return address its call left at the top
 * of the stack, then the frame-pointer chain from %rbp.  The function
 * has not pushed its frame yet, so %rbp is still the caller's and a
 * frame-pointer walk alone would skip the caller; DTrace's
 * dtrace_getupcstack() takes *sp the same way at entry probes
 * (CPU_DTRACE_ENTRY).  The kernel's walk cannot be used: whether it adds
 * *sp itself depends on the probed instruction and the kernel version.
 * Returns the bytes stored.
 */
static __always_inline u64 entry_walk(struct uwalk *x, u64 offs)
{
	u64 regs = bpf_task_pt_regs(bpf_get_current_task_btf());

	/* Zero-filled: a read from address 0 fails and clears the buffer. */
	bpf_probe_read_kernel(x->d, CFG_SIZE(x->cfg), (void *)0);
	if (bpf_probe_read_kernel(&x->d[0], sizeof(u64), (void *)(regs + PT_IP)) < 0 ||
	    bpf_probe_read_kernel(&x->at, sizeof(u64), (void *)(regs + PT_SP)) < 0 ||
	    bpf_probe_read_kernel(&x->i, sizeof(u64), (void *)(regs + PT_BP)) < 0)
		return 0;
	if (CFG_SIZE(x->cfg) < 16 || bpf_probe_read_user(&x->d[1], sizeof(u64), (void *)x->at) < 0)
		return 8;
	uret_first(offs, x);
	/* No instances: no word is the trampoline. */
	if (x->ri == 0)
		x->tramp = 1;
	x->fp = x->i;
	x->i = 2;
	if (x->d[1] == x->tramp)
		x->i = 1;	/* at: the word at sp */
	else
		x->at = 0;
	forget(x);
	/* Frames, trampolines (one per instance at most) and instances passed. */
	bpf_loop(MAXWORDS + 2 * MAXURET, walk_step, x, 0);
	/* Out of steps (not for a stack the kernel allows): keep what is there. */
	return 8 * (x->at != 0 && x->i < MAXWORDS ? x->i + 1 : x->i);
}

/*
 * The kernel's walk keeps the trampolines before Linux 6.11: mapped back
 * in the same way as the kernel does since, in order: the first
 * trampoline is the newest instance's that is still on the stack (not
 * below sp; at a return probe the one returning is below it), each next
 * one the next instance's, after those sharing a word with it (chained:
 * a tail call).  Each step passes an instance or looks at a word; 1
 * stops.
 */
static long fix_step(u64 n, void *arg)
{
	struct uwalk *x = arg;
	u64 i = x->i, st = 0, v = 0;

	(void)n;
	if (i >= x->fp || i >= CFG_SIZE(x->cfg) / 8 || i >= MAXWORDS)
		return 1;
	if (x->ri != 0) {
		if (kread(&st, x->ri + O_STACK(x->cfg)) < 0)
			return 1;
		if (st < x->at) {
			x->ri = kread(&v, x->ri + O_NEXT(x->cfg)) < 0 ? 0 : v;
			return 0;
		}
		if (x->d[i] == x->tramp && kread(&v, x->ri + O_ORIG(x->cfg)) == 0) {
			x->d[i] = v;
			x->at = st + 1;
		}
	}
	x->i = i + 1;
	return 0;
}

/*
 * The current thread's user stack into dst (size bytes, zero past the
 * last frame) when it stands at a function's first instruction (pid entry
 * and offset-0 probes): dtrace's own walk.  offs as uret_first() takes
 * them.  Returns the bytes stored.
 */
DT_RT u64 dt_rt_ustack_entry(u64 dst, u64 size, u64 offs)
{
	struct uwalk x = { .d = (u64 *)dst, .cfg = CFG(size, offs) };

	if (size < 8 || size > 8 * MAXWORDS)
		return 0;
	return entry_walk(&x, offs);
}

/*
 * bpf_get_stack()'s user stack, stored (nb bytes, from the helper) in the
 * size bytes at dst: its trampolines mapped back.  Returns nb.
 */
DT_RT u64 dt_rt_ustack_fix(u64 dst, u64 size, u64 nb, u64 offs)
{
	struct uwalk x = { .d = (u64 *)dst, .cfg = CFG(size, offs) };
	u64 regs;

	if ((__s64)nb <= 0 || nb > size || size > 8 * MAXWORDS)
		return nb;
	uret_first(offs, &x);
	regs = bpf_task_pt_regs(bpf_get_current_task_btf());
	if (x.ri == 0 || bpf_probe_read_kernel(&x.at, sizeof(x.at), (void *)(regs + PT_SP)) < 0)
		return nb;
	x.fp = nb / 8;
	forget(&x);
	bpf_loop(MAXWORDS + MAXURET, fix_step, &x, 0);
	return nb;
}

char LICENSE[] SEC("license") = "GPL";
