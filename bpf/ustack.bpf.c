/* User stacks at a function's first instruction (pid entry probes). */
#include "runtime.h"

/* x86_64 struct pt_regs: the saved %rbp, %rip and %rsp. */
#define PT_BP 32
#define PT_IP 128
#define PT_SP 152

/* The most frames a stack holds (DT_STACK_MAXFRAMES) and one more. */
#define MAXWORDS 128

/*
 * The current thread's user stack when it stands at the first instruction
 * of a function, into dst (nb bytes, zero past the last frame): the pc,
 * then the return address its call left at the top of the stack, then the
 * frame-pointer chain from %rbp.  The function has not pushed its frame
 * yet, so %rbp is still the caller's and a frame-pointer walk alone would
 * skip the caller; DTrace's dtrace_getupcstack() takes *sp the same way
 * at entry probes (CPU_DTRACE_ENTRY).  The kernel's walk cannot be used:
 * whether it adds *sp itself depends on the probed instruction and the
 * kernel version.  Returns the bytes stored.
 */
DT_RT u64 dt_rt_ustack_entry(u64 dst, u64 nb)
{
	u64 *d = (u64 *)dst;
	u64 regs = bpf_task_pt_regs(bpf_get_current_task_btf());
	u64 pc = 0, sp = 0, fp = 0, i;
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
