/*
 * Stacks under pending uretprobes (pid return probes of the functions a
 * stack goes through).  The functions are written in assembly with frame
 * pointers, so that their return addresses are known to the byte:
 *   ua() -> ub() -> uc(): uc makes the getppid system call (returning
 *       to uc+0xb) and calls uleaf(1); return addresses ua+0x9, ub+0x9,
 *       uc+0x15
 *   urec(2) -> urec(1) -> urec(0): the last calls uleaf(2); return
 *       addresses urec+0x10 (recursion) and urec+0x1c
 *   utwrap() -> utail(), which jumps to ud() (a tail call: ud returns to
 *       utwrap+0x9); ud calls uleaf(4), returning to ud+0xe
 *   uwrap() (C): setjmp, ujump(1), which longjmps back, then uleaf(3)
 * uleaf() is a leaf that sets up no frame.  Modes:
 *   uret_work       each of the above once, then exit
 *   uret_work spin  uspinwrap() -> uspin(), which spins at uspin+0x4
 *                   until killed
 */
#include <setjmp.h>
#include <string.h>

int uleaf(int);
void ua(void);
void urec(int);
void utwrap(void);
void uspinwrap(void);
__asm__(".text\n"
	".globl uleaf\n.type uleaf, @function\nuleaf:\n"
	"\tmov %edi, %eax\n\tadd $1, %eax\n\tret\n.size uleaf, .-uleaf\n"
	".globl uc\n.type uc, @function\nuc:\n"
	"\tpush %rbp\n\tmov %rsp, %rbp\n"
	"\tmov $110, %eax\n"		/* __NR_getppid */
	"\tsyscall\n"			/* offset 0x9 */
	"\tmov $1, %edi\n\tcall uleaf\n"	/* returns to 0x15 */
	"\tpop %rbp\n\tret\n.size uc, .-uc\n"
	".globl ub\n.type ub, @function\nub:\n"
	"\tpush %rbp\n\tmov %rsp, %rbp\n\tcall uc\n"	/* returns to 0x9 */
	"\tpop %rbp\n\tret\n.size ub, .-ub\n"
	".globl ua\n.type ua, @function\nua:\n"
	"\tpush %rbp\n\tmov %rsp, %rbp\n\tcall ub\n"	/* returns to 0x9 */
	"\tpop %rbp\n\tret\n.size ua, .-ua\n"
	".globl urec\n.type urec, @function\nurec:\n"
	"\tpush %rbp\n\tmov %rsp, %rbp\n"
	"\ttest %edi, %edi\n\tjz 1f\n"
	"\tsub $1, %edi\n\tcall urec\n"		/* returns to 0x10 */
	"\tpop %rbp\n\tret\n"
	"1:\tmov $2, %edi\n\tcall uleaf\n"	/* returns to 0x1c */
	"\tpop %rbp\n\tret\n.size urec, .-urec\n"
	".globl ud\n.type ud, @function\nud:\n"
	"\tpush %rbp\n\tmov %rsp, %rbp\n"
	"\tmov $4, %edi\n\tcall uleaf\n"	/* returns to 0xe */
	"\tpop %rbp\n\tret\n.size ud, .-ud\n"
	".globl utail\n.type utail, @function\nutail:\n"
	"\tjmp ud\n.size utail, .-utail\n"
	".globl utwrap\n.type utwrap, @function\nutwrap:\n"
	"\tpush %rbp\n\tmov %rsp, %rbp\n\tcall utail\n"	/* returns to 0x9 */
	"\tpop %rbp\n\tret\n.size utwrap, .-utwrap\n"
	".globl uspin\n.type uspin, @function\nuspin:\n"
	"\tpush %rbp\n\tmov %rsp, %rbp\n"
	"1:\tjmp 1b\n"
	"\tpop %rbp\n\tret\n.size uspin, .-uspin\n"
	".globl uspinwrap\n.type uspinwrap, @function\nuspinwrap:\n"
	"\tpush %rbp\n\tmov %rsp, %rbp\n\tcall uspin\n"	/* returns to 0x9 */
	"\tpop %rbp\n\tret\n.size uspinwrap, .-uspinwrap\n");

static jmp_buf env;

__attribute__((noinline)) void ujump(int x)
{
	if (x)
		longjmp(env, 1);
}

__attribute__((noinline)) void uwrap(void)
{
	if (setjmp(env) == 0)
		ujump(1);
	uleaf(3);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "spin") == 0) {
		uspinwrap();
		return 0;
	}
	ua();
	urec(2);
	utwrap();
	uwrap();
	return 0;
}
