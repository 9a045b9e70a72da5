/* Frames of stack keys (stack_frames.h). */
#include "consumer/stack_frames.h"

#include <ctype.h>
#include <string.h>

#include "base/aggdesc.h"
#include "base/util.h"
#include "consumer/agg_impl.h"
#include "consumer/printf.h"

bool dt_stack_of_key(const struct dt_aggkey *k, const uint8_t *p, struct dt_stack *st)
{
	memset(st, 0, sizeof(*st));
	if (k->kind == DT_AGGKEY_STACK) {
		st->pcs = p;
		st->n = k->size / 8;
	} else if (k->kind == DT_AGGKEY_USTACK) {
		st->user = true;
		if (k->size >= 16) {
			st->pid = dt_agg_load_uint(p, 8);
			st->pcs = p + 8;
			st->n = k->size / 8 - 1;
		}
	} else {
		return false;
	}
	for (size_t i = 0; i < st->n; i++) {
		if (dt_stack_pc(st, i) == 0) {
			st->n = i;
			break;
		}
	}
	return true;
}

uint64_t dt_stack_pc(const struct dt_stack *st, size_t i)
{
	return dt_agg_load_uint(st->pcs + 8 * i, 8);
}

/* "+0x1f" at the end of a resolved frame: the offset into the function. */
static void strip_offset(struct dt_strbuf *sb)
{
	const char *tick = sb->s != NULL ? strchr(sb->s, '`') : NULL;
	char *plus = tick != NULL ? strrchr(tick, '+') : NULL;

	if (plus == NULL || strncmp(plus, "+0x", 3) != 0 || plus[3] == '\0')
		return;
	for (const char *c = plus + 3; *c != '\0'; c++)
		if (!isxdigit((unsigned char)*c))
			return;
	*plus = '\0';
	sb->len = (size_t)(plus - sb->s);
}

void dt_frame_name(struct dt_strbuf *sb, const struct dt_pf_syms *syms, bool user, uint64_t pid,
		   uint64_t pc)
{
	struct dt_strbuf t;
	int rc = -1;

	dt_sb_init(&t);
	if (syms != NULL && user && syms->uaddr != NULL)
		rc = syms->uaddr(syms->ctx, pid, pc, &t);
	else if (syms != NULL && !user && syms->kaddr != NULL)
		rc = syms->kaddr(syms->ctx, pc, &t);
	if (rc == 0 && !t.oom && t.len > 0) {
		strip_offset(&t);
		dt_sb_putn(sb, t.s, t.len);
	} else {
		dt_sb_printf(sb, "0x%llx", (unsigned long long)pc);
	}
	if (t.oom)
		sb->oom = true;
	dt_sb_free(&t);
}

void dt_frame_split(char *name, const char **mod, const char **func)
{
	char *tick = strchr(name, '`');

	*mod = NULL;
	*func = NULL;
	if (tick == NULL)
		return;		/* 0xaddr */
	*tick = '\0';
	*mod = name;
	if (strncmp(tick + 1, "0x", 2) != 0)
		*func = tick + 1;
}
