/* Syscall name <-> number, generated at build time from <asm/unistd.h>. */
#ifndef DT_SYSCALL_TABLE_H
#define DT_SYSCALL_TABLE_H

struct dt_syscall_nr {
	const char *name;
	unsigned nr;
};

extern const struct dt_syscall_nr dt_syscall_table[];
extern const unsigned dt_syscall_table_len;

#endif
