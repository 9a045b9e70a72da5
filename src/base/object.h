/*
 * An in-memory BPF object as the code generator produces it: functions
 * (programs and subprograms) with their relocations and line info, maps,
 * global data.  The ELF writer (bpf/elf_writer.h) turns it into a
 * relocatable BPF ELF object with BTF and BTF.ext; the loader links that
 * with the run-time library (bpf/) and loads it with libbpf.
 */
#ifndef DT_OBJECT_H
#define DT_OBJECT_H

#include <linux/bpf.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

enum bo_reloc_kind {
	BO_RELOC_MAP_FD,	/* ld_imm64: fd of map `target` (BPF_PSEUDO_MAP_FD) */
	BO_RELOC_CALL,		/* call: BPF-to-BPF call of function `target`, defined in
				 * this object or (if not) in the run-time library */
	BO_RELOC_BSS,		/* ld_imm64: address of .bss + insn imm (offset) */
	BO_RELOC_RODATA,	/* ld_imm64: address of .rodata + insn imm (offset) */
};

struct bo_reloc {
	uint32_t insn;		/* index of the instruction in the function */
	enum bo_reloc_kind kind;
	const char *target;	/* map or function name (MAP_FD, CALL) */
};

/* Source position of an instruction (BTF line info). */
struct bo_line {
	uint32_t insn;
	uint32_t line;
	uint32_t col;
};

struct bo_func {
	const char *name;
	/*
	 * ELF section of a program ("raw_tp", "tracepoint", "perf_event",
	 * "kprobe", "uprobe", ...) or NULL for a subprogram (in .text).
	 */
	const char *section;
	unsigned nargs;		/* 0..5; every argument and the result are u64 in BTF */
	DT_VEC(struct bpf_insn) insns;
	DT_VEC(struct bo_reloc) relocs;
	DT_VEC(struct bo_line) lines;
};

struct bo_map {
	const char *name;
	uint32_t type;		/* BPF_MAP_TYPE_* */
	uint32_t key_size;
	uint32_t value_size;
	uint32_t max_entries;
	uint32_t flags;
};

/*
 * A run-time library function (in bpf/) that generated code calls.
 * Every BO_RELOC_CALL whose target is not a function of this object must
 * name one: the static linker matches it against the run-time definition
 * by name and prototype (nargs u64 arguments, u64 result).
 */
struct bo_extern {
	const char *name;
	unsigned nargs;		/* 0..5 */
};

/* A named variable in .bss (for the consumer to find by name after linking). */
struct bo_var {
	const char *name;
	uint32_t offset;
	uint32_t size;
};

struct bo_object {
	const char *license;		/* "GPL" */
	const char *source_name;	/* file name for line info */
	const char *const *source_lines;	/* line text by line number - 1 (may be NULL) */
	size_t nsource_lines;
	DT_VEC(struct bo_func *) funcs;
	DT_VEC(struct bo_map) maps;
	DT_VEC(struct bo_extern) externs;
	DT_VEC(struct bo_var) bss_vars;
	uint32_t bss_size;
	DT_VEC(uint8_t) rodata;
	/* Every function made for this object, in funcs or not (bo_object_free frees them). */
	DT_VEC(struct bo_func *) owned;
};

/*
 * Note that `fn` (allocated by the caller, e.g. in an arena) belongs to
 * the object: bo_object_free() frees its vectors.  0 or -ENOMEM.
 */
int bo_func_own(struct bo_object *obj, struct bo_func *fn);

/* Free what the object's vectors and its functions' vectors hold (not obj itself). */
void bo_object_free(struct bo_object *obj);

#endif
