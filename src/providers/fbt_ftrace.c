/*
 * ftrace call sites, read from the kernel's text by a small BPF program
 * run with BPF_PROG_TEST_RUN: for each address in an mmap'ed array it
 * copies the first bytes of the function with probe_read_kernel.
 *
 * On x86-64 a traceable function starts (after an optional endbr64, or
 * the 4-byte nop FineIBT leaves in its place) with the 5-byte nop ftrace
 * patches, or with the call ftrace put there while something traces it
 * (to ftrace_caller, ftrace_regs_caller, or a trampoline outside the
 * kernel's text).  A function compiled without ftrace (notrace, or a file
 * built without -mfentry such as much of lib/) starts with its own code,
 * which may be a call of its own.  A few such functions start with a
 * 5-byte nop of another kind (a CPU-feature alternative, patched once at
 * boot): they pass this test; kprobes refuse them when they are attached
 * (see fbt_mech.c), and a trampoline's call takes that nop's place as it
 * would take ftrace's.  Other architectures are not checked.
 */
#include "providers/fbt_ftrace.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/insn.h"
#include "base/util.h"

#define CHUNK 256	/* functions per program run (a bounded loop) */
#define CODE_BYTES 16

struct site {
	uint64_t addr;
	uint8_t code[CODE_BYTES];
};

#if defined(__x86_64__)
static bool traceable(const struct dt_fbt_text *text, uint64_t addr, const uint8_t *p)
{
	static const uint8_t endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };
	static const uint8_t nop4[4] = { 0x66, 0x0f, 0x1f, 0x00 };
	static const uint8_t nop5[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

	if (memcmp(p, endbr64, 4) == 0 || memcmp(p, nop4, 4) == 0) {
		p += 4;
		addr += 4;
	}
	if (memcmp(p, nop5, 5) == 0)
		return true;
	if (p[0] != 0xe8)
		return false;
	/* A call: ftrace's, or the function's own? */
	int32_t rel;
	memcpy(&rel, p + 1, 4);
	uint64_t to = addr + 5 + (uint64_t)(int64_t)rel;
	if (to == text->callers[0] || to == text->callers[1])
		return true;
	return text->end != 0 && (to < text->start || to >= text->end);
}

/* r6 = first index, r7 = count, r8 = i; each element: probe_read_kernel(code, 16, addr). */
static int load_reader(int map_fd)
{
	struct bpf_insn insns[] = {
		I_LDX(BPF_DW, BPF_R6, BPF_R1, 0),
		I_LDX(BPF_DW, BPF_R7, BPF_R1, 8),
		I_MOV64_IMM(BPF_R8, 0),
		/* loop: */
		I_JMP_REG(BPF_JGE, BPF_R8, BPF_R7, 17),
		I_JMP_IMM(BPF_JGE, BPF_R8, CHUNK, 16),
		I_MOV64_REG(BPF_R1, BPF_R6),
		I_ALU64_REG(BPF_ADD, BPF_R1, BPF_R8),
		I_STX(BPF_W, BPF_FP, BPF_R1, -4),
		I_LD_IMM64_LO(BPF_R1, BPF_PSEUDO_MAP_FD, (uint32_t)map_fd),
		I_LD_IMM64_HI(0),
		I_MOV64_REG(BPF_R2, BPF_FP),
		I_ALU64_IMM(BPF_ADD, BPF_R2, -4),
		I_CALL_HELPER(BPF_FUNC_map_lookup_elem),
		I_JMP_IMM(BPF_JEQ, BPF_R0, 0, 7),
		I_MOV64_REG(BPF_R1, BPF_R0),
		I_ALU64_IMM(BPF_ADD, BPF_R1, 8),
		I_MOV64_IMM(BPF_R2, CODE_BYTES),
		I_LDX(BPF_DW, BPF_R3, BPF_R0, 0),
		I_CALL_HELPER(BPF_FUNC_probe_read_kernel),
		I_ALU64_IMM(BPF_ADD, BPF_R8, 1),
		I_JA(-18),
		/* out: */
		I_MOV64_IMM(BPF_R0, 0),
		I_EXIT(),
	};

	return bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "dt_fbt_sites", "GPL", insns,
			     ARRAY_SIZE(insns), NULL);
}

int dt_fbt_ftrace_sites(const struct dt_fbt_text *text, const uint64_t *addrs, size_t n,
			bool *ok)
{
	LIBBPF_OPTS(bpf_map_create_opts, mo, .map_flags = BPF_F_MMAPABLE);
	size_t size = DT_ALIGN(n * sizeof(struct site), (size_t)sysconf(_SC_PAGESIZE));
	struct site *s = MAP_FAILED;
	int map = -1, prog = -1, rc = 0;

	if (n == 0)
		return 0;
	if (n > UINT32_MAX / sizeof(struct site))
		return -E2BIG;
	map = bpf_map_create(BPF_MAP_TYPE_ARRAY, "dt_fbt_sites", 4, sizeof(struct site),
			     (uint32_t)n, &mo);
	if (map < 0)
		return -errno;
	s = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, map, 0);
	if (s == MAP_FAILED) {
		rc = -errno;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		s[i].addr = addrs[i];
	prog = load_reader(map);
	if (prog < 0) {
		rc = -errno;
		goto out;
	}
	for (size_t first = 0; first < n; first += CHUNK) {
		uint64_t args[2] = { first, DT_MIN(n - first, (size_t)CHUNK) };
		LIBBPF_OPTS(bpf_test_run_opts, to, .ctx_in = args, .ctx_size_in = sizeof(args));
		if (bpf_prog_test_run_opts(prog, &to) < 0) {
			rc = -errno;
			goto out;
		}
	}
	/* Nothing read at all (kernel text hidden): no answer rather than "none". */
	size_t seen = 0;
	for (size_t i = 0; i < n; i++)
		seen += s[i].code[0] != 0;
	if (seen == 0) {
		rc = -EPERM;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		ok[i] = traceable(text, s[i].addr, s[i].code);
out:
	if (prog >= 0)
		close(prog);
	if (s != MAP_FAILED)
		munmap(s, size);
	close(map);
	return rc;
}
#else
int dt_fbt_ftrace_sites(const struct dt_fbt_text *text, const uint64_t *addrs, size_t n,
			bool *ok)
{
	(void)text;
	(void)addrs;
	(void)n;
	(void)ok;
	return -ENOTSUP;
}
#endif
