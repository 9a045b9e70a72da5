/* User stacks at a function's first instruction (pid entry probes). */
#include "runtime.h"

/* x86_64 struct pt_regs: the saved %rbp, %rip and %rsp. */
#define PT_BP 32
#define PT_IP 128
#define PT_SP 152

/* The most frames a stack holds (DT_STACK_MAXFRAMES) and one more. */
#define MAXWORDS 128

/* The most return instances a thread has (the kernel's MAX_URETPROBE_DEPTH). */
#define MAXURET 64

/* One 16-bit field of a packed offset word (cg_stack.c: uret_offsets). */
#define OFF(w, i) (((w) >> (16 * (i))) & 0xffff)

static __always_inline int kread(void *dst, u64 addr)
{
	return bpf_probe_read_kernel(dst, sizeof(u64), (void *)addr);
}

/*
 * v, as a value the verifier knows nothing of: the state bpf_loop()'s
 * step starts from covers every value, so the step is checked for all.
 */
static __always_inline u64 opaque(u64 v)
{
	u64 r = 0;

	bpf_probe_read_kernel(&r, sizeof(r), &v);
	return r;
}

/*
 * The current thread's newest return instance and the trampoline's
 * address (mm->uprobes_state.xol_area->vaddr, as uprobe_get_trampoline_vaddr()),
 * or 0 when it has none or the kernel lacks what it takes (ka == 0).
 */
static __always_inline u64 uret_first(u64 task, u64 ka, u64 kb, u64 *tramp)
{
	u64 utask = 0, ri = 0, mm = 0, area = 0;

	if (ka == 0 || kread(&utask, task + OFF(ka, 0)) < 0 || utask == 0 ||
	    kread(&ri, utask + OFF(ka, 1)) < 0 || ri == 0 ||
	    kread(&mm, task + OFF(ka, 2)) < 0 || mm == 0 ||
	    kread(&area, mm + OFF(ka, 3)) < 0 || area == 0 ||
	    kread(tramp, area + OFF(kb, 0)) < 0)
		return 0;
	return ri;
}

struct uret_walk {
	u64 *d;
	u64 nb;
	u64 i;		/* the word being filled */
	u64 pend;	/* d[i] is the trampoline, found at this address */
	u64 fp;		/* the next frame */
	u64 ri;		/* the first return instance not passed */
	u64 tramp;
	u64 kb;
};

/*
 * The frame-pointer walk below, for a thread with pending uretprobes (pid
 * return probes of functions it is in).  Each has replaced its function's
 * return address on the stack with the kernel's [uprobes] trampoline and
 * keeps the real one in a struct return_instance of
 * current->utask->return_instances, newest first: `stack`, the address of
 * the replaced word, grows along the list.  The kernel maps the
 * trampoline back in its own stack walks (the perf callchain's uretprobe
 * fixup); here it is mapped back by address: the trampoline found at
 * address pend stands for the original return address of the instance
 * whose `stack` is pend.  Words come in increasing order of address, so
 * the instances below one (of frames the walk did not see, or left
 * behind by longjmp) are passed for good; instances that share a word
 * (chained: a tail call) keep the same address.  Each bpf_loop() step
 * reads a frame, or passes an instance, or maps a trampoline; 1 stops.
 */
static long uret_step(u64 n, void *arg)
{
	struct uret_walk *x = arg;
	u64 i = x->i, st = 0, v = 0;
	struct {
		u64 next, ret;
	} fr;

	(void)n;
	if (i >= x->nb / 8 || i >= MAXWORDS)
		return 1;
	if (x->pend != 0) {
		if (x->ri == 0 || kread(&st, x->ri + OFF(x->kb, 1)) < 0) {
			x->ri = 0;
		} else if (st < x->pend) {
			x->ri = kread(&v, x->ri + OFF(x->kb, 3)) < 0 ? 0 : v;
			return 0;
		} else if (st == x->pend && kread(&v, x->ri + OFF(x->kb, 2)) == 0) {
			x->d[i] = v;
		}
		x->pend = 0;
		x->i = i + 1;
		return 0;
	}
	/* As the kernel's walk: until a frame cannot be read. */
	if (bpf_probe_read_user(&fr, sizeof(fr), (void *)x->fp) < 0)
		return 1;
	x->d[i] = fr.ret;
	if (fr.ret == x->tramp)
		x->pend = x->fp + 8;
	else
		x->i = i + 1;
	x->fp = fr.next;
	return 0;
}

/* The walk with uret_step() from d[1] (the word at sp) on: the words stored. */
static __always_inline u64 walk_uret(u64 *d, u64 nb, u64 sp, u64 fp, u64 ri, u64 tramp,
				     u64 kb)
{
	struct uret_walk x = {
		.d = d, .nb = nb, .i = opaque(2), .pend = opaque(0), .fp = opaque(fp),
		.ri = opaque(ri), .tramp = tramp, .kb = kb,
	};

	if (d[1] == tramp) {
		x.i = opaque(1);
		x.pend = opaque(sp);
	}
	/* Frames, trampolines (one per instance at most) and instances passed. */
	bpf_loop(MAXWORDS + 2 * MAXURET, uret_step, &x, 0);
	/* Out of steps (not for a stack the kernel allows): keep what is there. */
	return x.pend != 0 && x.i < MAXWORDS ? x.i + 1 : x.i;
}

/*
 * The current thread's user stack when it stands at the first instruction
 * of a function, into dst (nb bytes, zero past the last frame): the pc,
 * then the return address its call left at the top of the stack, then the
 * frame-pointer chain from %rbp.  The function has not pushed its frame
 * yet, so %rbp is still the caller's and a frame-pointer walk alone would
 * skip the caller; DTrace's dtrace_getupcstack() takes *sp the same way
 * at entry probes (CPU_DTRACE_ENTRY).  The kernel's walk cannot be used:
 * whether it adds *sp itself depends on the probed instruction and the
 * kernel version.  Return addresses that pending uretprobes replaced are
 * mapped back (walk_uret); ka and kb are the kernel offsets that takes,
 * packed by 16 bits:
 *   ka: task_struct.utask, uprobe_task.return_instances, task_struct.mm,
 *       mm_struct.uprobes_state.xol_area (ka == 0: no mapping)
 *   kb: xol_area.vaddr, return_instance.stack, .orig_ret_vaddr, .next
 * Returns the bytes stored.
 */
DT_RT u64 dt_rt_ustack_entry(u64 dst, u64 nb, u64 ka, u64 kb)
{
	u64 *d = (u64 *)dst;
	u64 regs = bpf_task_pt_regs(bpf_get_current_task_btf());
	u64 pc = 0, sp = 0, fp = 0, i, tramp = 0, ri;
	struct {
		u64 next, ret;
	} fr;

	if (nb < 8 || nb > 8 * MAXWORDS)
		return 0;
	/* Zero-filled: a read from address 0 fails and clears the buffer. */
	bpf_probe_read_kernel(d, nb, (void *)0);
	if (bpf_probe_read_kernel(&pc, sizeof(pc), (void *)(regs + PT_IP)) < 0 ||
	    bpf_probe_read_kernel(&sp, sizeof(sp), (void *)(regs + PT_SP)) < 0 ||
	    bpf_probe_read_kernel(&fp, sizeof(fp), (void *)(regs + PT_BP)) < 0)
		return 0;
	d[0] = pc;
	if (nb < 16 || bpf_probe_read_user(&d[1], sizeof(d[1]), (void *)sp) < 0)
		return 8;
	ri = uret_first(bpf_get_current_task(), ka, kb, &tramp);
	if (ri != 0)
		return 8 * walk_uret(d, nb, sp, fp, ri, tramp, kb);
	for (i = 2; i < nb / 8 && i < MAXWORDS; i++) {
		/* As the kernel's walk: until a frame cannot be read. */
		if (bpf_probe_read_user(&fr, sizeof(fr), (void *)fp) < 0)
			break;
		d[i] = fr.ret;
		fp = fr.next;
	}
	return 8 * i;
}

char LICENSE[] SEC("license") = "GPL";
