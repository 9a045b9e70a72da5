/* The library usym_late loads: lib_outer() -> lib_inner() -> getppid. */
__asm__(".text\n"
	".globl lib_inner\n.type lib_inner, @function\nlib_inner:\n"
	"\tpush %rbp\n\tmov %rsp, %rbp\n"
	"\tmov $110, %eax\n"	/* __NR_getppid */
	"\tsyscall\n"		/* returns to 0xb */
	"\tpop %rbp\n\tret\n.size lib_inner, .-lib_inner\n"
	".globl lib_outer\n.type lib_outer, @function\nlib_outer:\n"
	"\tpush %rbp\n\tmov %rsp, %rbp\n\tcall lib_inner\n"	/* returns to 0x9 */
	"\tpop %rbp\n\tret\n.size lib_outer, .-lib_outer\n");
