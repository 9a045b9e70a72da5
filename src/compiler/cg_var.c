/*
 * Variables: globals in .bss, thread-locals and associative arrays in
 * one hash map each (keyed by thread / key tuple), clause-locals in the
 * per-CPU scratch area.  Reading a missing dynamic variable gives 0 (or
 * ""); assigning 0 to one deletes it.
 */
#include <string.h>

#include "base/core.h"
#include "base/types.h"
#include "compiler/cg.h"
#include "compiler/cg_impl.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/program.h"
#include "compiler/sema_impl.h"
#include "compiler/vars.h"

/* Bytes a variable of type t occupies. */
uint32_t dt_var_size(struct dt_compiler *cc, struct dt_type *t)
{
	if (dt_type_is_string(t))
		return dt_str_bytes(cc);
	if (cg_is_byref(t))
		return DT_ALIGN(dt_type_size(t), 8);
	return 8;
}

static void global_storage(struct dt_cg *cg, struct dt_ident *id)
{
	struct dt_compiler *cc = cg->cc;

	if (id->size != 0)
		return;
	if (cc->bss_size < dt_cg_bss_base())
		cc->bss_size = dt_cg_bss_base();
	id->size = dt_var_size(cc, id->type);
	id->offset = DT_ALIGN(cc->bss_size, 8);
	cc->bss_size = id->offset + id->size;
}

static void local_storage(struct dt_cg *cg, struct dt_ident *id)
{
	struct dt_compiler *cc = cg->cc;

	if (id->size != 0)
		return;
	id->size = dt_var_size(cc, id->type);
	id->offset = DT_ALIGN(cc->locals_size, 8);
	cc->locals_size = id->offset + id->size;
}

const char *dt_var_map_name(struct dt_compiler *cc, struct dt_ident *id)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%s_%u", id->kind == IDK_TLS ? "dt_tls" : "dt_arr", id->id);
	return dt_arena_strdup(&cc->core->arena, buf);
}

/* Key layout of an associative array: each component 8-aligned. */
uint32_t dt_var_key_size(struct dt_compiler *cc, struct dt_ident *id)
{
	/* Thread-locals: the thread (tid, start time), then (self->a[k]) the tuple. */
	uint32_t off = id->kind == IDK_TLS ? 16 : 0;
	for (int i = 0; i < id->nkeys; i++)
		off = DT_ALIGN(off, 8) + dt_var_size(cc, id->keys[i]);
	return off ? DT_ALIGN(off, 8) : 8;
}

/* Register the dynamic variable's map with the object. */
static const char *dyn_map(struct dt_cg *cg, struct dt_ident *id)
{
	struct dt_compiler *cc = cg->cc;

	if (id->size == 0) {
		id->size = dt_var_size(cc, id->type);
		if (dt_vars_register(cc, id) < 0)
			dt_cnomem(cg->pcb);
	}
	return dt_var_map_name(cc, id);
}

/*
 * A register pointing at a stack slot holding the key of the thread the
 * probe describes (its tid: the kernel's pid of the thread, and its start
 * time), the one its built-in variables describe.
 */
static int tls_key(struct dt_cg *cg)
{
	int slot = cg->tls_key_slot;

	if (slot == 0) {
		slot = cg_stack_alloc(cg, 16);
		cg_bvar_thread_key_at(cg, BPF_FP, (int16_t)slot);
	}
	int r = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_REG(r, BPF_FP));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, r, slot));
	return r;
}

/*
 * Build an associative array key (for a thread-local array, the thread
 * first); returns a register pointing at it.
 */
void cg_check_tuple(struct dt_cg *cg, struct dt_node *keys)
{
	/* DTrace passes a tuple in its tuple registers: tregs (default 8) of them. */
	if (dt_node_list_len(keys) > cg->cc->core->opts.tregs)
		dt_cerror(cg->pcb, NULL, 0, "Insufficient tuple registers to generate code");
}

static int array_key(struct dt_cg *cg, struct dt_ident *id, struct dt_node *keys)
{
	struct dt_compiler *cc = cg->cc;
	uint32_t ksize = dt_var_key_size(cc, id);

	cg_check_tuple(cg, keys);
	int base = cg_scratch_alloc(cg, ksize);
	uint32_t off = 0;
	int i = 0;

	/* Zero the key: padding and string tails are part of it. */
	for (uint32_t z = 0; z + 8 <= DT_ALIGN(ksize, 8); z += 8)
		cg_emit(cg, I_ST(BPF_DW, base, (int16_t)z, 0));
	if (id->kind == IDK_TLS) {
		cg_bvar_thread_key_at(cg, base, 0);
		off = 16;
	}
	for (struct dt_node *k = keys; k != NULL; k = k->next, i++) {
		struct dt_type *kt = id->keys[i];
		uint32_t ks = dt_var_size(cc, kt);
		off = DT_ALIGN(off, 8);
		if (dt_type_is_string(kt)) {
			int s = cg_expr_string(cg, k);
			int dst = cg_reg_alloc(cg);
			cg_emit(cg, I_MOV64_REG(dst, base));
			cg_emit(cg, I_ALU64_IMM(BPF_ADD, dst, (int32_t)off));
			cg_strcpy(cg, dst, s, ks);
		} else if (cg_is_byref(kt)) {
			/* A struct or union key: its bytes, not its address. */
			int v = cg_expr(cg, k);
			int dst = cg_reg_alloc(cg);
			cg_emit(cg, I_MOV64_REG(dst, base));
			cg_emit(cg, I_ALU64_IMM(BPF_ADD, dst, (int32_t)off));
			const struct cg_arg a[3] = {
				{ CG_ARG_REG, dst }, { CG_ARG_IMM, (int32_t)dt_type_size(kt) },
				{ CG_ARG_REG, v },
			};
			int rc = cg_call_helper_args(cg, BPF_FUNC_probe_read_kernel, a, 3);
			cg_reg_free(cg, rc);
		} else {
			int v = cg_expr(cg, k);
			cg_normalize(cg, v, kt);
			cg_emit(cg, I_STX(BPF_DW, base, v, (int16_t)off));
			cg_reg_free(cg, v);
		}
		off += ks;
	}
	return base;
}

/* Look up a dynamic variable: returns a register with the value pointer or 0. */
static int dyn_lookup(struct dt_cg *cg, struct dt_node *n, struct dt_ident *id)
{
	const char *map = dyn_map(cg, id);
	/*
	 * The key (on the stack, or in string temporaries) is needed only by
	 * the lookup: `self->a + self->b + ...` or `a["x"] + a["y"] + ...` of
	 * any length fits.
	 */
	int mark = cg_stack_mark(cg);
	uint32_t smark = cg->scratch_off;
	int key = id->kind == IDK_TLS && id->nkeys == 0 ? tls_key(cg)
						       : array_key(cg, id, n->call.args);
	int a[2];

	a[0] = cg_reg_alloc(cg);
	cg_ld_map_fd(cg, a[0], map);
	a[1] = key;
	int r = cg_call_helper(cg, BPF_FUNC_map_lookup_elem, a, 2);
	cg_stack_release(cg, mark);
	cg->scratch_off = smark;
	return r;
}

static int load_from(struct dt_cg *cg, int ptr, struct dt_type *t, int16_t off)
{
	if (cg_is_byref(t)) {
		if (off)
			cg_emit(cg, I_ALU64_IMM(BPF_ADD, ptr, off));
		return ptr;
	}
	cg_emit(cg, I_LDX(BPF_DW, ptr, ptr, off));
	cg_normalize(cg, ptr, t);
	return ptr;
}

/*
 * The predicate's first operand, evaluated whenever the clause runs (the
 * left of any binary operator, && and || included; the condition of ?:).
 */
static const struct dt_node *pred_first(const struct dt_node *n)
{
	while (n != NULL) {
		switch (n->kind) {
		case N_OP1:
		case N_OP2:
		case N_CAST:
			n = n->l;
			break;
		case N_OP3:
			n = n->cond;
			break;
		default:
			return n;
		}
	}
	return NULL;
}

/*
 * A scalar thread-local the predicate reads first is read once: its value
 * waits in a stack slot, and later reads in the clause take it from
 * there until something stores to the variable (code is generated in the
 * order it runs, without loops, so a store generated after the first
 * read and before another is the only way one runs between them).  No
 * other thread stores to this thread's variables, and a clause runs
 * whole, as DTrace's do.
 */
void cg_var_tls_cache_plan(struct dt_cg *cg, struct dt_node *clause)
{
	const struct dt_node *n = pred_first(clause->clause.pred);

	if (cg->cc->core->opts.nooptimize || n == NULL || n->kind != N_VAR || n->id == NULL ||
	    n->id->kind != IDK_TLS || n->id->nkeys != 0 || cg_is_byref(n->id->type))
		return;
	cg->tls_cache_node = n;
	cg->tls_cache_id = n->id;
	cg->tls_cache_slot = cg_stack_alloc(cg, 8);
	cg->tls_cache_valid = false;
}

/* A store to id: a kept value of it is stale. */
static void tls_cache_forget(struct dt_cg *cg, const struct dt_ident *id)
{
	if (cg->tls_cache_id == id)
		cg->tls_cache_valid = false;
}

int cg_var_load(struct dt_cg *cg, struct dt_node *n)
{
	struct dt_ident *id = n->id;
	int r;

	switch (id->kind) {
	case IDK_GLOBAL:
		global_storage(cg, id);
		r = cg_reg_alloc(cg);
		cg_ld_bss(cg, r, id->offset);
		r = load_from(cg, r, id->type, 0);
		if (dt_type_is_string(id->type))
			cg_str_null_mark_load(cg, r);
		return r;
	case IDK_LOCAL:
		local_storage(cg, id);
		r = cg_reg_alloc(cg);
		cg_emit(cg, I_MOV64_REG(r, REG_SCRATCH));
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, r, (int32_t)(cg_locals_base(cg->cc) + id->offset)));
		r = load_from(cg, r, id->type, 0);
		if (dt_type_is_string(id->type))
			cg_str_null_mark_load(cg, r);
		return r;
	case IDK_TLS:
	case IDK_ARRAY: {
		if (id == cg->tls_cache_id && cg->tls_cache_valid) {
			r = cg_reg_alloc(cg);
			cg_emit(cg, I_LDX(BPF_DW, r, BPF_FP, (int16_t)cg->tls_cache_slot));
			return r;
		}
		int p = dyn_lookup(cg, n, id);
		int found = cg_label_new(cg), done = cg_label_new(cg);
		cg_jmp_imm(cg, BPF_JNE, p, 0, found);
		/* Missing: 0 (a NULL string), or zeros for a struct. */
		if (!dt_type_is_string(id->type) && cg_is_byref(id->type))
			cg_ld_rodata(cg, p, cg_rodata_zeros(cg, id->size));
		else
			cg_emit(cg, I_MOV64_IMM(p, 0));
		cg_ja(cg, done);
		cg_label_place(cg, found);
		if (!cg_is_byref(id->type)) {
			cg_emit(cg, I_LDX(BPF_DW, p, p, 0));
			cg_normalize(cg, p, id->type);
		}
		cg_label_place(cg, done);
		if (n == cg->tls_cache_node) {
			cg_emit(cg, I_STX(BPF_DW, BPF_FP, p, (int16_t)cg->tls_cache_slot));
			cg->tls_cache_valid = true;
		}
		return p;
	}
	default:
		dt_cerror(cg->pcb, NULL, n->line, "variable %s cannot be read here",
			  id->name);
	}
}

/* Store `val` (value or string pointer) into memory at `dst` + off. */
static void store_to(struct dt_cg *cg, int dst, int16_t off, int val, struct dt_type *t,
		     uint32_t size)
{
	if (dt_type_is_string(t)) {
		int d = cg_reg_alloc(cg), copy = cg_label_new(cg), done = cg_label_new(cg);
		cg_emit(cg, I_MOV64_REG(d, dst));
		if (off)
			cg_emit(cg, I_ALU64_IMM(BPF_ADD, d, off));
		cg_jmp_imm(cg, BPF_JNE, val, 0, copy);
		cg_str_null_mark_store(cg, d);
		cg_ja(cg, done);
		cg_label_place(cg, copy);
		/*
		 * cg_strcpy zeroes what follows the string, and with it an
		 * earlier NULL mark, unless the string moves within this
		 * storage (s = s + 2): an empty result then must not leave
		 * a mark behind.  (Not cleared before the copy: s = s would
		 * copy an emptied string.)
		 */
		int slot = cg_stack_alloc(cg, 8);
		cg_emit(cg, I_STX(BPF_DW, BPF_FP, d, (int16_t)slot));
		cg_strcpy(cg, d, val, size);
		if (size >= 2) {
			int p = cg_reg_alloc(cg), c = cg_reg_alloc(cg);
			cg_emit(cg, I_LDX(BPF_DW, p, BPF_FP, (int16_t)slot));
			cg_emit(cg, I_LDX(BPF_B, c, p, 0));
			cg_jmp_imm(cg, BPF_JNE, c, 0, done);
			cg_emit(cg, I_ST(BPF_B, p, 1, 0));
			cg_reg_free(cg, c);
			cg_reg_free(cg, p);
		}
		cg_label_place(cg, done);
		return;
	}
	if (cg_is_byref(t)) {
		/* Structs and arrays are copied from where they are. */
		int a[3];
		a[0] = cg_reg_alloc(cg);
		cg_emit(cg, I_MOV64_REG(a[0], dst));
		if (off)
			cg_emit(cg, I_ALU64_IMM(BPF_ADD, a[0], off));
		a[1] = cg_reg_alloc(cg);
		cg_emit(cg, I_MOV64_IMM(a[1], (int32_t)dt_type_size(t)));
		a[2] = val;
		cg_call_helper_void(cg, BPF_FUNC_probe_read_kernel, a, 3);
		return;
	}
	cg_normalize(cg, val, t);
	cg_emit(cg, I_STX(BPF_DW, dst, val, off));
	cg_reg_free(cg, val);
}

/*
 * How many dynamic variables dynvarsize holds: as many as fit when each
 * takes the largest one's value and key tuple (DTrace's dvars map; a
 * thread-local's key is no tuple there).  Every variable of the program
 * counts, known from sema before any clause is built.  (DTrace's are all
 * in that one map; ours have a map each, of this many.)
 */
int32_t dt_var_room(struct dt_compiler *cc)
{
	uint64_t most = 1;
	const char *k;
	void *v;

	for (size_t i = 0; dt_htab_next(&cc->idents, &i, &k, &v);) {
		struct dt_ident *id = v;
		if ((id->kind != IDK_TLS && id->kind != IDK_ARRAY) || id->type == NULL)
			continue;
		/* DTrace counts a value at its type's size (an int: 4), a string at strsize. */
		uint64_t sz = dt_type_is_string(id->type) ? dt_var_size(cc, id->type)
							  : dt_type_size(id->type);
		if (sz == 0)
			sz = 8;
		if (id->nkeys > 0)
			sz += dt_var_key_size(cc, id) - (id->kind == IDK_TLS ? 16 : 0);
		if (sz > most)
			most = sz;
	}
	uint64_t n = (uint64_t)cc->core->opts.dynvarsize / most;
	return n > INT32_MAX ? INT32_MAX : (int32_t)n;
}

/* DTrace's dynamic variable drop: counted, and the clause is given up. */
static void dyn_drop(struct dt_cg *cg)
{
	cg_count_drop(cg, CPU_DYN_DROPS);
	cg_clause_drop(cg);
}

/* map_delete_elem(map, key) */
static void dyn_remove(struct dt_cg *cg, const char *map, int key)
{
	int a[2];

	a[0] = cg_reg_alloc(cg);
	cg_ld_map_fd(cg, a[0], map);
	a[1] = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_REG(a[1], key));
	cg_call_helper_void(cg, BPF_FUNC_map_delete_elem, a, 2);
}

/* map_update_elem(map, key, vbuf, flags): the helper's result. */
static int dyn_update(struct dt_cg *cg, const char *map, int key, int vbuf, int32_t flags)
{
	int a[4];

	a[0] = cg_reg_alloc(cg);
	cg_ld_map_fd(cg, a[0], map);
	a[1] = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_REG(a[1], key));
	a[2] = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_REG(a[2], vbuf));
	a[3] = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_IMM(a[3], flags));
	return cg_call_helper(cg, BPF_FUNC_map_update_elem, a, 4);
}

/* lhs = 0 for a struct or union thread-local or array element: delete it. */
static void dyn_delete(struct dt_cg *cg, struct dt_node *lhs, struct dt_ident *id)
{
	tls_cache_forget(cg, id);
	const char *map = dyn_map(cg, id);
	int key = id->kind == IDK_TLS && id->nkeys == 0 ? tls_key(cg)
						       : array_key(cg, id, lhs->call.args);

	dyn_remove(cg, map, key);
	cg_reg_free(cg, key);
}

static void dyn_store(struct dt_cg *cg, struct dt_node *lhs, struct dt_ident *id, int val)
{
	tls_cache_forget(cg, id);
	const char *map = dyn_map(cg, id);
	int key = id->kind == IDK_TLS && id->nkeys == 0 ? tls_key(cg)
						       : array_key(cg, id, lhs->call.args);
	bool byref = cg_is_byref(id->type);
	int done = cg_label_new(cg);

	if (!byref || dt_type_is_string(id->type)) {
		/* Assigning zero (a NULL string) deletes the variable. */
		int upd = cg_label_new(cg);
		cg_jmp_imm(cg, BPF_JNE, val, 0, upd);
		dyn_remove(cg, map, key);
		cg_ja(cg, done);
		cg_label_place(cg, upd);
	}
	/* The value travels through a buffer of the map's value size. */
	int vbuf;
	if (byref) {
		vbuf = cg_scratch_alloc(cg, id->size);
		store_to(cg, vbuf, 0, val, id->type, id->size);
	} else {
		int slot = cg_stack_alloc(cg, 8);
		cg_normalize(cg, val, id->type);
		cg_emit(cg, I_STX(BPF_DW, BPF_FP, val, slot));
		cg_reg_free(cg, val);
		vbuf = cg_reg_alloc(cg);
		cg_emit(cg, I_MOV64_REG(vbuf, BPF_FP));
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, vbuf, slot));
	}
	int rc = dyn_update(cg, map, key, vbuf, BPF_ANY);
	cg_jmp_imm(cg, BPF_JEQ, rc, 0, done);
	cg_reg_free(cg, rc);
	dyn_drop(cg);
	cg_label_place(cg, done);
	cg_reg_free(cg, vbuf);
	cg_reg_free(cg, key);
}

/* Store val in alloca()'d memory (lhs is a member, element or *p there). */
static void store_alloca(struct dt_cg *cg, struct dt_node *lhs, int val)
{
	bool user = false;
	uint32_t size = dt_type_size(lhs->type);

	if (lhs->kind == N_MEMBER) {
		struct dt_type *st = dt_type_base(lhs->l->type);
		uint32_t off_bits;
		if (lhs->op == T_PTR)
			st = dt_type_base(st->base);
		const struct dt_member *m = dt_type_member(&cg->cc->core->types, st, lhs->member,
							   &off_bits);
		if (m != NULL && m->bitsize != 0)
			dt_cerror(cg->pcb, NULL, lhs->line,
				  "assigning to a bit-field is not supported");
	}
	bool byval = !cg_is_byref(lhs->type) && !dt_type_is_string(lhs->type);
	if (size == 0 || (byval && size > 8))
		dt_cerror(cg->pcb, NULL, lhs->line,
			  "only scalars can be assigned to alloca( )'d memory");
	int addr = cg_lvalue_addr(cg, lhs, &user);
	int p = cg_alloca_ptr(cg, addr, size);
	cg_reg_free(cg, addr);
	if (!byval) {
		/* As DTrace's dt_cg_store: a string or struct is copied in. */
		store_to(cg, p, 0, val, lhs->type, size);
		cg_reg_free(cg, p);
		return;
	}
	cg_emit(cg, I_STX(cg_size_code(size), p, val, 0));
	cg_reg_free(cg, p);
	cg_reg_free(cg, val);
}

/*
 * The global or clause-local variable whose storage an element or member
 * lvalue (a[i], s.m, a[i].m ...) is part of, or NULL.
 */
static struct dt_ident *storage_root(struct dt_node *n)
{
	for (;;) {
		if (n->kind == N_MEMBER && n->op == T_DOT) {
			n = n->l;
		} else if (n->kind == N_INDEX && (n->id == NULL || n->id->kind != IDK_ARRAY) &&
			   dt_type_is_array(n->l->type)) {
			n = n->l;
		} else if (n->kind == N_IDENT || n->kind == N_VAR) {
			struct dt_ident *id = n->id;
			return id != NULL && (id->kind == IDK_GLOBAL || id->kind == IDK_LOCAL) ? id
											: NULL;
		} else {
			return NULL;
		}
	}
}

/*
 * A bit-field of a variable's storage: read the bytes it spans, replace
 * its bits, write them back.
 */
static void store_bitfield(struct dt_cg *cg, struct dt_node *lhs, const struct dt_member *m,
			   uint32_t off_bits, int val)
{
	bool user = false;
	uint32_t shift = off_bits % 8, nbytes = (shift + m->bitsize + 7) / 8;

	if (nbytes > 8)
		dt_cerror(cg->pcb, NULL, lhs->line, "bit-field %s spans more than 8 bytes",
			  lhs->member);
	int addr = cg_lvalue_addr(cg, lhs, &user);
	int old = cg_reg_alloc(cg), t = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_IMM(old, 0));
	for (uint32_t k = 0; k < nbytes; k++) {
		cg_emit(cg, I_LDX(BPF_B, t, addr, (int16_t)k));
		if (k)
			cg_emit(cg, I_ALU64_IMM(BPF_LSH, t, (int32_t)(8 * k)));
		cg_emit(cg, I_ALU64_REG(BPF_OR, old, t));
	}
	uint64_t mask = (m->bitsize < 64 ? (1ULL << m->bitsize) - 1 : ~0ULL) << shift;
	cg_mov_imm64(cg, t, ~mask);
	cg_emit(cg, I_ALU64_REG(BPF_AND, old, t));
	if (shift)
		cg_emit(cg, I_ALU64_IMM(BPF_LSH, val, (int32_t)shift));
	cg_mov_imm64(cg, t, mask);
	cg_emit(cg, I_ALU64_REG(BPF_AND, val, t));
	cg_emit(cg, I_ALU64_REG(BPF_OR, old, val));
	for (uint32_t k = 0; k < nbytes; k++) {
		cg_emit(cg, I_MOV64_REG(t, old));
		if (k)
			cg_emit(cg, I_ALU64_IMM(BPF_RSH, t, (int32_t)(8 * k)));
		cg_emit(cg, I_STX(BPF_B, addr, t, (int16_t)k));
	}
	cg_reg_free(cg, t);
	cg_reg_free(cg, old);
	cg_reg_free(cg, addr);
	cg_reg_free(cg, val);
}

/* Store a scalar into an element or member of a global or clause-local. */
static void store_in_var(struct dt_cg *cg, struct dt_node *lhs, int val)
{
	bool user = false;
	uint32_t size = dt_type_size(lhs->type);

	if (dt_type_is_sou(lhs->type)) {
		int dst = cg_lvalue_addr(cg, lhs, &user);
		store_to(cg, dst, 0, val, lhs->type, size);
		cg_reg_free(cg, dst);
		return;
	}
	if (size == 0 || size > 8 || cg_is_byref(lhs->type) || dt_type_is_string(lhs->type))
		dt_cerror(cg->pcb, NULL, lhs->line,
			  "only scalars can be assigned to a member or element");
	if (lhs->kind == N_MEMBER) {
		uint32_t off_bits;
		const struct dt_member *m = dt_type_member(&cg->cc->core->types,
							   dt_type_base(lhs->l->type), lhs->member,
							   &off_bits);
		if (m != NULL && m->bitsize != 0) {
			store_bitfield(cg, lhs, m, off_bits, val);
			return;
		}
	}
	int addr = cg_lvalue_addr(cg, lhs, &user);
	cg_normalize(cg, val, lhs->type);
	cg_emit(cg, I_STX(cg_size_code(size), addr, val, 0));
	cg_reg_free(cg, addr);
	cg_reg_free(cg, val);
}

static bool is_dyn(const struct dt_node *n)
{
	return n->id != NULL && (n->id->kind == IDK_ARRAY || n->id->kind == IDK_TLS);
}

/*
 * The thread-local or associative array element (a struct, union or
 * array) whose storage a member or element lvalue (a[k].m, self->s.m[i]
 * ...) is part of, or NULL.
 */
static struct dt_node *dyn_root(struct dt_node *n)
{
	if (n->kind != N_MEMBER && n->kind != N_INDEX)
		return NULL;
	for (;;) {
		if (n->kind == N_MEMBER && n->op == T_DOT && n->aux == NULL)
			n = n->l;
		else if (n->kind == N_INDEX && !is_dyn(n) && dt_type_is_array(n->l->type))
			n = n->l;
		else
			break;
	}
	if ((n->kind == N_INDEX || n->kind == N_VAR || n->kind == N_IDENT) && is_dyn(n) &&
	    cg_is_byref(n->type) && !dt_type_is_string(n->type))
		return n;
	return NULL;
}

/*
 * The address of a dynamic variable's storage, created (zeroed) if it is
 * not there, as assigning a whole element creates it; 0 (a dynamic
 * variable drop counted) if there is no room for it.
 */
static int dyn_value_ptr(struct dt_cg *cg, struct dt_node *root)
{
	tls_cache_forget(cg, root->id);
	struct dt_ident *id = root->id;
	const char *map = dyn_map(cg, id);
	int key = id->kind == IDK_TLS && id->nkeys == 0 ? tls_key(cg)
						       : array_key(cg, id, root->call.args);
	int kslot = cg_stack_alloc(cg, 8), slot = cg_stack_alloc(cg, 8), done = cg_label_new(cg);
	int a[4];

	cg_emit(cg, I_STX(BPF_DW, BPF_FP, key, (int16_t)kslot));
	cg_reg_free(cg, key);
	for (int pass = 0; pass < 2; pass++) {
		a[0] = cg_reg_alloc(cg);
		cg_ld_map_fd(cg, a[0], map);
		a[1] = cg_reg_alloc(cg);
		cg_emit(cg, I_LDX(BPF_DW, a[1], BPF_FP, (int16_t)kslot));
		int p = cg_call_helper(cg, BPF_FUNC_map_lookup_elem, a, 2);
		cg_emit(cg, I_STX(BPF_DW, BPF_FP, p, (int16_t)slot));
		cg_jmp_imm(cg, BPF_JNE, p, 0, done);
		cg_reg_free(cg, p);
		if (pass == 1) {
			dyn_drop(cg);
			cg_label_place(cg, done);
			int r = cg_reg_alloc(cg);
			cg_emit(cg, I_LDX(BPF_DW, r, BPF_FP, (int16_t)slot));
			return r;
		}
		/* Not there: insert zeros (another CPU may have been first). */
		a[0] = cg_reg_alloc(cg);
		cg_ld_map_fd(cg, a[0], map);
		a[1] = cg_reg_alloc(cg);
		cg_emit(cg, I_LDX(BPF_DW, a[1], BPF_FP, (int16_t)kslot));
		a[2] = cg_reg_alloc(cg);
		cg_ld_rodata(cg, a[2], cg_rodata_zeros(cg, id->size));
		a[3] = cg_reg_alloc(cg);
		cg_emit(cg, I_MOV64_IMM(a[3], BPF_NOEXIST));
		cg_call_helper_void(cg, BPF_FUNC_map_update_elem, a, 4);
	}
	return -1;
}

/*
 * Store into a member or element of a thread-local or associative array
 * element: D storage like a global's (DTrace allocates the variable when
 * a by-reference one is modified), so the element is created if absent.
 */
static void store_in_dyn(struct dt_cg *cg, struct dt_node *lhs, struct dt_node *root, int val)
{
	int p = dyn_value_ptr(cg, root), skip = cg_label_new(cg);
	int slot = cg_stack_alloc(cg, 8);

	cg_jmp_imm(cg, BPF_JEQ, p, 0, skip);
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, p, (int16_t)slot));
	cg_reg_free(cg, p);
	struct dt_node *outer = cg->lv_root;
	int outer_slot = cg->lv_root_slot;
	cg->lv_root = root;
	cg->lv_root_slot = slot;
	store_in_var(cg, lhs, val);
	cg->lv_root = outer;
	cg->lv_root_slot = outer_slot;
	cg_label_place(cg, skip);
}

void cg_var_store(struct dt_cg *cg, struct dt_node *lhs, int val)
{
	struct dt_ident *id = lhs->id;

	if (lhs->flags & DN_AMEM) {
		store_alloca(cg, lhs, val);
		return;
	}
	if ((lhs->kind == N_MEMBER || lhs->kind == N_INDEX) && storage_root(lhs) != NULL) {
		store_in_var(cg, lhs, val);
		return;
	}
	struct dt_node *root = dyn_root(lhs);
	if (root != NULL && root != lhs) {
		store_in_dyn(cg, lhs, root, val);
		return;
	}
	if (lhs->kind == N_MEMBER || (lhs->kind == N_OP1 && lhs->op == T_DEREF) ||
	    (lhs->kind == N_INDEX && (id == NULL || (id->kind != IDK_ARRAY && id->kind != IDK_TLS))))
		dt_cerror(cg->pcb, NULL, lhs->line,
			  "assigning to kernel memory is not supported (use copyout( ) for user memory)");
	switch (id->kind) {
	case IDK_GLOBAL: {
		global_storage(cg, id);
		int p = cg_reg_alloc(cg);
		cg_ld_bss(cg, p, id->offset);
		store_to(cg, p, 0, val, id->type, id->size);
		cg_reg_free(cg, p);
		return;
	}
	case IDK_LOCAL: {
		local_storage(cg, id);
		int p = cg_reg_alloc(cg);
		cg_emit(cg, I_MOV64_REG(p, REG_SCRATCH));
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, p, (int32_t)(cg_locals_base(cg->cc) + id->offset)));
		store_to(cg, p, 0, val, id->type, id->size);
		cg_reg_free(cg, p);
		return;
	}
	case IDK_TLS:
	case IDK_ARRAY:
		dyn_store(cg, lhs, id, val);
		return;
	default:
		dt_cerror(cg->pcb, "D_OP_WRITE", lhs->line,
			  "operator = can only be applied to a writable variable");
	}
}

/*
 * An assignment; with `keep`, its value (the value assigned) in a register
 * of its own.  A statement's assignment keeps none: a register held
 * through the store would leave the store's helper calls one callee-saved
 * register fewer for their results.
 */
static int assign(struct dt_cg *cg, struct dt_node *n, bool keep_value)
{
	struct dt_node *l = n->l, *r = n->r;
	int v;

	if (l->kind == N_AGG) {
		cg_agg_assign(cg, n);
		return keep_value ? cg_reg_alloc(cg) : -1;
	}
	/* A struct variable assigned 0 is deleted (thread-locals and arrays). */
	if (n->op == T_ASGN && dt_type_is_sou(l->type) && (r->flags & DN_CONST) &&
	    l->id != NULL && (l->id->kind == IDK_TLS || l->id->kind == IDK_ARRAY)) {
		dyn_delete(cg, l, l->id);
		if (!keep_value)
			return -1;
		int z = cg_reg_alloc(cg);
		cg_emit(cg, I_MOV64_IMM(z, 0));
		return z;
	}
	/*
	 * A scalar thread-local or array element assigned the constant 0 is
	 * deleted, as any assigned 0 is (dyn_store): no value to test.
	 */
	if (n->op == T_ASGN && (r->flags & DN_CONST) && r->cval == 0 && !(l->flags & DN_AMEM) &&
	    (l->kind == N_VAR || l->kind == N_INDEX) && l->id != NULL &&
	    (l->id->kind == IDK_TLS || l->id->kind == IDK_ARRAY) && !cg_is_byref(l->type)) {
		dyn_delete(cg, l, l->id);
		if (!keep_value)
			return -1;
		int z = cg_reg_alloc(cg);
		cg_emit(cg, I_MOV64_IMM(z, 0));
		return z;
	}
	if (n->op == T_ASGN) {
		/* A string variable takes NULL (from NULL itself or a NULL string). */
		if (dt_type_is_string(l->type) && !dt_type_is_string(r->type) &&
		    !dt_type_is_charptr(r->type))
			v = cg_expr(cg, r);
		else
			v = dt_type_is_string(l->type) ? cg_expr_string_nullable(cg, r) : cg_expr(cg, r);
	} else {
		enum dt_tok base;
		switch (n->op) {
		case T_ADD_EQ: base = T_ADD; break;
		case T_SUB_EQ: base = T_SUB; break;
		case T_MUL_EQ: base = T_MUL; break;
		case T_DIV_EQ: base = T_DIV; break;
		case T_MOD_EQ: base = T_MOD; break;
		case T_AND_EQ: base = T_BAND; break;
		case T_XOR_EQ: base = T_XOR; break;
		case T_OR_EQ: base = T_BOR; break;
		case T_LSH_EQ: base = T_LSH; break;
		default: base = T_RSH; break;
		}
		v = cg_expr(cg, l);
		int rv = cg_expr(cg, r);
		cg_binop(cg, base, v, rv, l->type, r->type, l->type);
		cg_reg_free(cg, rv);
	}
	if (!keep_value) {
		cg_var_store(cg, l, v);
		return -1;
	}
	/* The expression's value is the assigned value (kept for chaining). */
	int keep = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_REG(keep, v));
	if (!cg_is_byref(l->type))
		cg_normalize(cg, keep, l->type);
	cg_var_store(cg, l, v);
	return keep;
}

int cg_assign(struct dt_cg *cg, struct dt_node *n)
{
	return assign(cg, n, true);
}

void cg_assign_discard(struct dt_cg *cg, struct dt_node *n)
{
	assign(cg, n, false);
}

/* ++ and --; with `keep`, the expression's value (the old or the new) in a register of its own. */
static int incdec(struct dt_cg *cg, struct dt_node *n, bool keep_value)
{
	struct dt_node *l = n->l;
	int64_t step = 1;

	if (dt_type_is_pointer(l->type))
		step = dt_type_size(dt_type_base(l->type)->base);
	if (n->op == T_PREDEC || n->op == T_POSTDEC)
		step = -step;
	int old = cg_expr(cg, l);
	int nv = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_REG(nv, old));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, nv, (int32_t)step));
	cg_normalize(cg, nv, l->type);
	int res = -1;
	if (keep_value) {
		res = cg_reg_alloc(cg);
		cg_emit(cg, I_MOV64_REG(res, (n->op == T_POSTINC || n->op == T_POSTDEC) ? old : nv));
	}
	cg_reg_free(cg, old);
	cg_var_store(cg, l, nv);
	return res;
}

int cg_incdec(struct dt_cg *cg, struct dt_node *n)
{
	return incdec(cg, n, true);
}

void cg_incdec_discard(struct dt_cg *cg, struct dt_node *n)
{
	incdec(cg, n, false);
}
