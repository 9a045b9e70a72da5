/*
 * Translators: `translator T < S *s > { member = expr; ... };` definitions,
 * `xlate <T>(e)` and `xlate <T *>(e)`, and the members of translated values
 * (`xlate <psinfo_t *>(curthread)->pr_pid`, `curpsinfo->pr_pid` through an
 * inline).  A member of a translated value is the translator's expression
 * for it, evaluated with the input identifier bound to the operand of xlate
 * (sema_xlate.c checks, cg_xlate.c generates).  A whole translated value is
 * built member by member in scratch memory.
 */
#ifndef DT_XLATOR_H
#define DT_XLATOR_H

#include <stdbool.h>
#include <stdint.h>

struct dt_cg;
struct dt_ident;
struct dt_node;
struct dt_pcb;
struct dt_type;
struct dt_compiler;

struct dt_translator;

/* One `member = expr;` of a translator. */
struct dt_trmember {
	const char *name;
	struct dt_node *expr;		/* checked expression; NULL if it could not be (library) */
	struct dt_type *type;		/* the output member's type */
	const char *err;		/* why expr is NULL: the library's message ... */
	const char *errtag;		/* ... and its tag */
	struct dt_translator *xl;
	struct dt_trmember *next;
};

struct dt_translator {
	struct dt_type *src;		/* input type */
	struct dt_type *dst;		/* output type (a struct or union, as named) */
	struct dt_ident *arg;		/* the input identifier (IDK_XLARG) */
	struct dt_trmember *members;	/* in definition order (the first of a name counts) */
	bool dlib;			/* defined by the D library */
	int line;			/* where the definition ends (DTrace's line for its errors) */
	struct dt_translator *next;
};

/* A member of a translated value as a program uses it (N_MEMBER's aux). */
struct dt_xluse {
	struct dt_trmember *m;
	struct dt_node *xlate;		/* the N_XLATE it applies to: its operand is the input */
};

/*
 * The N_XLATE an expression stands for (through inlines and `*`), or NULL;
 * *ptr says whether the expression is the translated pointer (xlate <T *>)
 * rather than the translated struct.
 */
struct dt_node *dt_xlate_of(struct dt_node *n, bool *ptr);

/* The translator of a name as the library defines it (for probe arguments). */
struct dt_translator *dt_xlator_find(struct dt_compiler *cc, struct dt_type *src,
				     struct dt_type *dst);

/* Sema hooks (sema_xlate.c). */
/* `.` or `->` on a translated value (n->l checked already); false if n->l is not one. */
bool dt_sema_xlate_member(struct dt_pcb *pcb, struct dt_node *n);
/* A cast of a translated value (only to void, as in DTrace). */
void dt_sema_xlate_cast(struct dt_pcb *pcb, struct dt_node *n, struct dt_type *to);

/* Code generation (cg_xlate.c). */
/* A translated member's value (by-ref types: its address). */
int cg_xlate_member(struct dt_cg *cg, struct dt_node *n);
/* A translated struct built in scratch memory: its address. */
int cg_xlate_value(struct dt_cg *cg, struct dt_node *n);
/* The translator input identifier inside a member expression. */
int cg_xlate_arg(struct dt_cg *cg, struct dt_node *n);
/*
 * Inline arrays ("inline int a[int x] = x + 1"): a reference's value, and
 * binding/unbinding the parameters to a reference's keys (cg_inline_bind
 * returns how many to unbind).
 */
int cg_inline_array(struct dt_cg *cg, struct dt_node *n);
int cg_inline_bind(struct dt_cg *cg, struct dt_node *ref);
void cg_inline_unbind(struct dt_cg *cg, int n);

#endif
