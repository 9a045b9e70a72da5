/* Built-in identifier tables and user identifier scopes. */
#include "compiler/ident.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "base/optval.h"
#include "base/types.h"
#include "compiler/compiler.h"
#include "compiler/parser.h"
#include "compiler/pcb.h"
#include "compiler/sema.h"

struct builtin {
	const char *name;
	enum dt_idkind kind;
	int code;
	const char *proto;
};

/* DTrace's global identifiers, with their documented prototypes. */
static const struct builtin builtins[] = {
	/* Not DTrace's: only the D library may call it (sema_call.c). */
	{ "__path_of", IDK_SUBR, SUB_PATH_OF,
	  "string(vmlinux`struct vfsmount *, vmlinux`struct dentry *)" },
	{ "alloca", IDK_SUBR, SUB_ALLOCA, "void *(size_t)" },
	{ "arg0", IDK_BVAR, BV_ARG0, "int64_t" },
	{ "arg1", IDK_BVAR, BV_ARG1, "int64_t" },
	{ "arg2", IDK_BVAR, BV_ARG2, "int64_t" },
	{ "arg3", IDK_BVAR, BV_ARG3, "int64_t" },
	{ "arg4", IDK_BVAR, BV_ARG4, "int64_t" },
	{ "arg5", IDK_BVAR, BV_ARG5, "int64_t" },
	{ "arg6", IDK_BVAR, BV_ARG6, "int64_t" },
	{ "arg7", IDK_BVAR, BV_ARG7, "int64_t" },
	{ "arg8", IDK_BVAR, BV_ARG8, "int64_t" },
	{ "arg9", IDK_BVAR, BV_ARG9, "int64_t" },
	{ "args", IDK_BVAR, BV_ARGS, NULL },
	{ "avg", IDK_AGGFUNC, AGG_AVG, "void(@)" },
	{ "basename", IDK_SUBR, SUB_BASENAME, "string(const char *)" },
	{ "bcopy", IDK_SUBR, SUB_BCOPY, "void(void *, void *, size_t)" },
	{ "breakpoint", IDK_ACTION, ACT_BREAKPOINT, "void()" },
	{ "caller", IDK_BVAR, BV_CALLER, "uintptr_t" },
	{ "chill", IDK_ACTION, ACT_CHILL, "void(int)" },
	{ "cleanpath", IDK_SUBR, SUB_CLEANPATH, "string(const char *)" },
	{ "clear", IDK_ACTION, ACT_CLEAR, "void(@)" },
	{ "commit", IDK_ACTION, ACT_COMMIT, "void(int)" },
	{ "copyin", IDK_SUBR, SUB_COPYIN, "void *(uintptr_t, size_t)" },
	{ "copyinstr", IDK_SUBR, SUB_COPYINSTR, "string(uintptr_t, [size_t])" },
	{ "copyinto", IDK_SUBR, SUB_COPYINTO, "void(uintptr_t, size_t, void *)" },
	{ "copyout", IDK_SUBR, SUB_COPYOUT, "void(void *, uintptr_t, size_t)" },
	{ "copyoutstr", IDK_SUBR, SUB_COPYOUTSTR, "void(char *, uintptr_t, size_t)" },
	{ "count", IDK_AGGFUNC, AGG_COUNT, "void()" },
	{ "cpu", IDK_BVAR, BV_CPU, "processorid_t" },
	{ "curcpu", IDK_BVAR, BV_CURCPU, "cpuinfo_t *" },
	{ "curthread", IDK_BVAR, BV_CURTHREAD, "vmlinux`struct task_struct *" },
	{ "d_path", IDK_SUBR, SUB_D_PATH, "string(struct path *)" },
	{ "ddi_pathname", IDK_SUBR, SUB_DDI_PATHNAME, "string(void *, int64_t)" },
	{ "denormalize", IDK_ACTION, ACT_DENORMALIZE, "void(@)" },
	{ "dirname", IDK_SUBR, SUB_DIRNAME, "string(const char *)" },
	{ "discard", IDK_ACTION, ACT_DISCARD, "void(int)" },
	{ "epid", IDK_BVAR, BV_EPID, "uint_t" },
	{ "errno", IDK_BVAR, BV_ERRNO, "int" },
	{ "execargs", IDK_BVAR, BV_EXECARGS, "string" },
	{ "execname", IDK_BVAR, BV_EXECNAME, "string" },
	{ "exit", IDK_ACTION, ACT_EXIT, "void(int)" },
	{ "freopen", IDK_ACTION, ACT_FREOPEN, "void(@, ...)" },
	{ "ftruncate", IDK_ACTION, ACT_FTRUNCATE, "void()" },
	{ "func", IDK_ACTION, ACT_FUNC, "_symaddr(uintptr_t)" },
	{ "getmajor", IDK_SUBR, SUB_GETMAJOR, "dev_t(dev_t)" },
	{ "getminor", IDK_SUBR, SUB_GETMINOR, "dev_t(dev_t)" },
	{ "gid", IDK_BVAR, BV_GID, "gid_t" },
	{ "htonl", IDK_SUBR, SUB_HTONL, "uint32_t(uint32_t)" },
	{ "htonll", IDK_SUBR, SUB_HTONLL, "uint64_t(uint64_t)" },
	{ "htons", IDK_SUBR, SUB_HTONS, "uint16_t(uint16_t)" },
	{ "id", IDK_BVAR, BV_ID, "uint_t" },
	{ "index", IDK_SUBR, SUB_INDEX, "int(const char *, const char *, [int])" },
	{ "inet_ntoa", IDK_SUBR, SUB_INET_NTOA, "string(ipaddr_t *)" },
	{ "inet_ntoa6", IDK_SUBR, SUB_INET_NTOA6, "string(struct in6_addr *, [int])" },
	{ "inet_ntop", IDK_SUBR, SUB_INET_NTOP, "string(int, void *)" },
	{ "ipl", IDK_BVAR, BV_IPL, "uint_t" },
	{ "jstack", IDK_ACTION, ACT_JSTACK, "_ustack([uint32_t], [uint32_t])" },
	{ "link_ntop", IDK_SUBR, SUB_LINK_NTOP, "string(int, void *)" },
	{ "llquantize", IDK_AGGFUNC, AGG_LLQUANTIZE, "void(@, int32_t, int32_t, int32_t, int32_t, ...)" },
	{ "lltostr", IDK_SUBR, SUB_LLTOSTR, "string(int64_t, [int])" },
	{ "lquantize", IDK_AGGFUNC, AGG_LQUANTIZE, "void(@, int32_t, int32_t, ...)" },
	{ "max", IDK_AGGFUNC, AGG_MAX, "void(@)" },
	{ "min", IDK_AGGFUNC, AGG_MIN, "void(@)" },
	{ "mod", IDK_ACTION, ACT_MOD, "_symaddr(uintptr_t)" },
	{ "msgdsize", IDK_SUBR, SUB_MSGDSIZE, "size_t(void *)" },
	{ "msgsize", IDK_SUBR, SUB_MSGSIZE, "size_t(void *)" },
	{ "mutex_owned", IDK_SUBR, SUB_MUTEX_OWNED, "int(vmlinux`struct mutex *)" },
	{ "mutex_owner", IDK_SUBR, SUB_MUTEX_OWNER, "vmlinux`struct task_struct *(vmlinux`struct mutex *)" },
	{ "mutex_type_adaptive", IDK_SUBR, SUB_MUTEX_TYPE_ADAPTIVE, "int(vmlinux`struct mutex *)" },
	{ "mutex_type_spin", IDK_SUBR, SUB_MUTEX_TYPE_SPIN, "int(vmlinux`struct mutex *)" },
	{ "normalize", IDK_ACTION, ACT_NORMALIZE, "void(@, uint64_t)" },
	{ "ntohl", IDK_SUBR, SUB_NTOHL, "uint32_t(uint32_t)" },
	{ "ntohll", IDK_SUBR, SUB_NTOHLL, "uint64_t(uint64_t)" },
	{ "ntohs", IDK_SUBR, SUB_NTOHS, "uint16_t(uint16_t)" },
	{ "panic", IDK_ACTION, ACT_PANIC, "void()" },
	{ "pcap", IDK_ACTION, ACT_PCAP, "void(void *, int)" },
	{ "pid", IDK_BVAR, BV_PID, "pid_t" },
	{ "ppid", IDK_BVAR, BV_PPID, "pid_t" },
	{ "print", IDK_ACTION, ACT_PRINT, "void(@)" },
	{ "printa", IDK_ACTION, ACT_PRINTA, "void(@, ...)" },
	{ "printf", IDK_ACTION, ACT_PRINTF, "void(string, ...)" },
	{ "probefunc", IDK_BVAR, BV_PROBEFUNC, "string" },
	{ "probemod", IDK_BVAR, BV_PROBEMOD, "string" },
	{ "probename", IDK_BVAR, BV_PROBENAME, "string" },
	{ "probeprov", IDK_BVAR, BV_PROBEPROV, "string" },
	{ "progenyof", IDK_SUBR, SUB_PROGENYOF, "int(pid_t)" },
	{ "quantize", IDK_AGGFUNC, AGG_QUANTIZE, "void(@, ...)" },
	{ "raise", IDK_ACTION, ACT_RAISE, "void(int)" },
	{ "rand", IDK_SUBR, SUB_RAND, "int()" },
	{ "rindex", IDK_SUBR, SUB_RINDEX, "int(const char *, const char *, [int])" },
	{ "rw_iswriter", IDK_SUBR, SUB_RW_ISWRITER, "int(vmlinux`rwlock_t *)" },
	{ "rw_read_held", IDK_SUBR, SUB_RW_READ_HELD, "int(vmlinux`rwlock_t *)" },
	{ "rw_write_held", IDK_SUBR, SUB_RW_WRITE_HELD, "int(vmlinux`rwlock_t *)" },
	{ "setopt", IDK_ACTION, ACT_SETOPT, "void(const char *, [const char *])" },
	{ "speculate", IDK_ACTION, ACT_SPECULATE, "void(int)" },
	{ "speculation", IDK_SUBR, SUB_SPECULATION, "int()" },
	{ "stack", IDK_ACTION, ACT_STACK, "stack([uint32_t])" },
	{ "stackdepth", IDK_BVAR, BV_STACKDEPTH, "uint32_t" },
	{ "stddev", IDK_AGGFUNC, AGG_STDDEV, "void(@)" },
	{ "stop", IDK_ACTION, ACT_STOP, "void()" },
	{ "strchr", IDK_SUBR, SUB_STRCHR, "string(const char *, char)" },
	{ "strjoin", IDK_SUBR, SUB_STRJOIN, "string(const char *, const char *)" },
	{ "strlen", IDK_SUBR, SUB_STRLEN, "size_t(const char *)" },
	{ "strrchr", IDK_SUBR, SUB_STRRCHR, "string(const char *, char)" },
	{ "strstr", IDK_SUBR, SUB_STRSTR, "string(const char *, const char *)" },
	{ "strtok", IDK_SUBR, SUB_STRTOK, "string(const char *, const char *)" },
	{ "substr", IDK_SUBR, SUB_SUBSTR, "string(const char *, int, [int])" },
	{ "sum", IDK_AGGFUNC, AGG_SUM, "void(@)" },
	{ "sym", IDK_ACTION, ACT_SYM, "_symaddr(uintptr_t)" },
	{ "system", IDK_ACTION, ACT_SYSTEM, "void(@, ...)" },
	{ "tid", IDK_BVAR, BV_TID, "id_t" },
	{ "timestamp", IDK_BVAR, BV_TIMESTAMP, "uint64_t" },
	{ "tolower", IDK_SUBR, SUB_TOLOWER, "string(const char *)" },
	{ "toupper", IDK_SUBR, SUB_TOUPPER, "string(const char *)" },
	{ "trace", IDK_ACTION, ACT_TRACE, "void(@)" },
	{ "tracemem", IDK_ACTION, ACT_TRACEMEM, "void(@, size_t, [size_t])" },
	{ "trunc", IDK_ACTION, ACT_TRUNC, "void(@, [uint64_t])" },
	{ "uaddr", IDK_ACTION, ACT_UADDR, "_usymaddr(uintptr_t)" },
	{ "ucaller", IDK_BVAR, BV_UCALLER, "uint64_t" },
	{ "ufunc", IDK_ACTION, ACT_UFUNC, "_usymaddr(uintptr_t)" },
	{ "uid", IDK_BVAR, BV_UID, "uid_t" },
	{ "umod", IDK_ACTION, ACT_UMOD, "_usymaddr(uintptr_t)" },
	{ "uregs", IDK_BVAR, BV_UREGS, NULL },
	{ "ustack", IDK_ACTION, ACT_USTACK, "_ustack([uint32_t], [uint32_t])" },
	{ "ustackdepth", IDK_BVAR, BV_USTACKDEPTH, "uint32_t" },
	{ "usym", IDK_ACTION, ACT_USYM, "_usymaddr(uintptr_t)" },
	{ "vtimestamp", IDK_BVAR, BV_VTIMESTAMP, "uint64_t" },
	{ "walltimestamp", IDK_BVAR, BV_WALLTIMESTAMP, "int64_t" },
};

/*
 * The D versions that introduced the built-ins added after 1.0 (DTrace's
 * di_vers of its global identifiers; the rest are 1.0), sorted by name.
 */
static const struct {
	const char *name;
	uint32_t vers;
} later_builtins[] = {
	{ "freopen", DT_VERSION_NUMBER(1, 1, 0) },
	{ "func", DT_VERSION_NUMBER(1, 2, 0) },
	{ "htonl", DT_VERSION_NUMBER(1, 3, 0) },
	{ "htonll", DT_VERSION_NUMBER(1, 3, 0) },
	{ "htons", DT_VERSION_NUMBER(1, 3, 0) },
	{ "index", DT_VERSION_NUMBER(1, 1, 0) },
	{ "inet_ntoa", DT_VERSION_NUMBER(1, 5, 0) },
	{ "inet_ntoa6", DT_VERSION_NUMBER(1, 5, 0) },
	{ "inet_ntop", DT_VERSION_NUMBER(1, 5, 0) },
	{ "link_ntop", DT_VERSION_NUMBER(1, 5, 0) },
	{ "llquantize", DT_VERSION_NUMBER(1, 6, 4) },
	{ "mod", DT_VERSION_NUMBER(1, 2, 0) },
	{ "ntohl", DT_VERSION_NUMBER(1, 3, 0) },
	{ "ntohll", DT_VERSION_NUMBER(1, 3, 0) },
	{ "ntohs", DT_VERSION_NUMBER(1, 3, 0) },
	{ "pcap", DT_VERSION_NUMBER(1, 6, 4) },
	{ "print", DT_VERSION_NUMBER(1, 9, 0) },
	{ "rindex", DT_VERSION_NUMBER(1, 1, 0) },
	{ "setopt", DT_VERSION_NUMBER(1, 2, 0) },
	{ "stddev", DT_VERSION_NUMBER(1, 6, 0) },
	{ "strchr", DT_VERSION_NUMBER(1, 1, 0) },
	{ "strrchr", DT_VERSION_NUMBER(1, 1, 0) },
	{ "strstr", DT_VERSION_NUMBER(1, 1, 0) },
	{ "strtok", DT_VERSION_NUMBER(1, 1, 0) },
	{ "substr", DT_VERSION_NUMBER(1, 1, 0) },
	{ "sym", DT_VERSION_NUMBER(1, 2, 0) },
	{ "tolower", DT_VERSION_NUMBER(1, 8, 0) },
	{ "toupper", DT_VERSION_NUMBER(1, 8, 0) },
	{ "uaddr", DT_VERSION_NUMBER(1, 2, 0) },
	{ "ucaller", DT_VERSION_NUMBER(1, 2, 0) },
	{ "ufunc", DT_VERSION_NUMBER(1, 2, 0) },
	{ "umod", DT_VERSION_NUMBER(1, 2, 0) },
	{ "ustackdepth", DT_VERSION_NUMBER(1, 2, 0) },
	{ "usym", DT_VERSION_NUMBER(1, 2, 0) },
};

static uint32_t builtin_version(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(later_builtins); i++)
		if (strcmp(name, later_builtins[i].name) == 0)
			return later_builtins[i].vers;
	return DT_VERSION_NUMBER(1, 0, 0);
}

/*
 * As DTrace leaves out of its global identifiers those newer than the
 * version asked for: a program written for D 1.0 may name a variable
 * strstr.  The D libraries are written for the compiler's own version.
 */
struct dt_ident *dt_ident_builtin_visible(struct dt_pcb *pcb, const char *name)
{
	if (!pcb->is_dlib && !pcb->is_library && builtin_version(name) > pcb->cc->core->opts.vmax)
		return NULL;
	return dt_ident_builtin(pcb->cc, name);
}

/* One dt_ident per built-in, made on first lookup and kept in the handle. */
struct dt_ident *dt_ident_builtin(struct dt_compiler *cc, const char *name)
{
	char key[80];

	snprintf(key, sizeof(key), "#builtin:%s", name);
	struct dt_ident *id = dt_htab_get(&cc->idents, key);
	if (id != NULL)
		return id;
	/* Binary search: the table is sorted by name. */
	size_t lo = 0, hi = ARRAY_SIZE(builtins);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(name, builtins[mid].name);
		if (c == 0) {
			id = dt_arena_zalloc(&cc->core->arena, sizeof(*id));
			char *k = dt_arena_strdup(&cc->core->arena, key);
			if (id == NULL || k == NULL || dt_htab_put(&cc->idents, k, id) < 0)
				return NULL;
			id->name = builtins[mid].name;
			id->kind = builtins[mid].kind;
			id->code = builtins[mid].code;
			id->protostr = builtins[mid].proto;
			id->flags = IDF_BUILTIN | IDF_DEFINED;
			return id;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static struct dt_type *parse_type(struct dt_pcb *pcb, const char *text)
{
	struct dt_typetab *tt = &pcb->cc->core->types;

	if (strcmp(text, "stack") == 0)
		return tt->t_stack;
	if (strcmp(text, "_ustack") == 0)
		return tt->t_ustack;
	if (strcmp(text, "_symaddr") == 0)
		return tt->t_symaddr;
	if (strcmp(text, "_usymaddr") == 0)
		return tt->t_usymaddr;
	struct dt_node *n = dt_parse_type_string(pcb, text);
	return dt_sema_typename(pcb, n->tn_spec, n->tn_decl, NULL);
}

struct dt_type *dt_ident_vartype(struct dt_pcb *pcb, struct dt_ident *id)
{
	if (id->type == NULL && id->protostr != NULL) {
		/* Kernel types may be missing: fall back to a plain pointer. */
		if (strchr(id->protostr, '`') != NULL &&
		    dt_type_lookup(&pcb->cc->core->types, "vmlinux`struct task_struct") == NULL)
			id->type = pcb->cc->core->types.t_voidptr;
		else
			id->type = parse_type(pcb, id->protostr);
	}
	return id->type;
}

/* Split "ret(a, [b], ...)" at top-level commas. */
struct dt_proto *dt_ident_proto(struct dt_pcb *pcb, struct dt_ident *id)
{
	if (id->proto != NULL)
		return id->proto;
	const char *s = id->protostr;
	const char *lp = strchr(s, '(');
	const char *rp = strrchr(s, ')');
	struct dt_proto *p = dt_palloc(pcb, sizeof(*p));
	memset(p, 0, sizeof(*p));
	p->ret = parse_type(pcb, dt_pstrndup(pcb, s, (size_t)(lp - s)));
	p->params = dt_palloc(pcb, sizeof(*p->params) * 8);

	const char *a = lp + 1;
	while (a < rp) {
		while (*a == ' ')
			a++;
		const char *e = a;
		int depth = 0;
		while (e < rp && (depth > 0 || *e != ',')) {
			if (*e == '(' || *e == '[')
				depth++;
			else if (*e == ')' || *e == ']')
				depth--;
			e++;
		}
		char *arg = dt_pstrndup(pcb, a, (size_t)(e - a));
		if (strcmp(arg, "...") == 0) {
			p->varargs = true;
		} else {
			bool opt = arg[0] == '[';
			if (opt) {
				arg++;
				arg[strlen(arg) - 1] = '\0';
				p->nopt++;
			}
			p->params[p->nparams++] = strcmp(arg, "@") == 0 ? NULL : parse_type(pcb, arg);
		}
		a = e < rp ? e + 1 : e;
	}
	/* Built-ins are kept for the handle's life: copy into its arena. */
	struct dt_proto *keep = dt_arena_alloc(&pcb->cc->core->arena, sizeof(*keep));
	struct dt_type **params = dt_arena_alloc(&pcb->cc->core->arena, sizeof(*params) * 8);
	if (keep == NULL || params == NULL)
		dt_cnomem(pcb);
	*keep = *p;
	memcpy(params, p->params, sizeof(*params) * 8);
	keep->params = params;
	id->proto = keep;
	return keep;
}

static const char *scope_prefix(enum dt_idkind kind)
{
	switch (kind) {
	case IDK_TLS:
		return "self->";
	case IDK_LOCAL:
		return "this->";
	case IDK_AGG:
		return "@";
	case IDK_EXTERN:
		return "D`";
	default:
		return "";
	}
}

struct dt_ident *dt_ident_user(struct dt_compiler *cc, enum dt_idkind kind, const char *name)
{
	char key[300];

	snprintf(key, sizeof(key), "%s%s", scope_prefix(kind), name);
	return dt_htab_get(&cc->idents, key);
}

struct dt_ident *dt_ident_user_add(struct dt_compiler *cc, enum dt_idkind kind,
				   const char *name, int line)
{
	char key[300];

	snprintf(key, sizeof(key), "%s%s", scope_prefix(kind), name);
	struct dt_ident *id = dt_arena_zalloc(&cc->core->arena, sizeof(*id));
	char *k = dt_arena_strdup(&cc->core->arena, key);
	if (id == NULL || k == NULL)
		return NULL;
	id->name = dt_arena_strdup(&cc->core->arena, name);
	id->kind = kind;
	id->line = line;
	id->program = cc->program;
	id->id = cc->nvars++;
	if (id->name == NULL || dt_htab_put(&cc->idents, k, id) < 0)
		return NULL;
	return id;
}

struct dt_ident *dt_ident_lookup_any(struct dt_compiler *cc, const char *name)
{
	struct dt_ident *id = dt_htab_get(&cc->idents, name);

	return id != NULL ? id : dt_ident_builtin(cc, name);
}

void dt_idents_fini(struct dt_compiler *cc)
{
	dt_htab_free(&cc->idents);
}

/* DTrace's names of identifier kinds (dt_idkind_name), as its messages use them. */
const char *dt_ident_kind_name(const struct dt_ident *id)
{
	switch (id->kind) {
	case IDK_BVAR:
		return id->code == BV_ARGS || id->code == BV_UREGS ? "associative array" : "scalar";
	case IDK_GLOBAL:
	case IDK_LOCAL:
	case IDK_XLARG:
		return "scalar";
	case IDK_TLS:
		return id->nkeys > 0 ? "associative array" : "scalar";
	case IDK_ARRAY:
		return "associative array";
	case IDK_INLINE:
		return id->iparams != NULL || id->nkeys > 0 ? "associative array" : "scalar";
	case IDK_ACTION:
		return "tracing function";
	case IDK_SUBR:
		return "function";
	case IDK_AGGFUNC:
		return "aggregating function";
	case IDK_AGG:
		return "aggregation";
	case IDK_ENUM:
		return "enumerator";
	case IDK_EXTERN:
		return "external symbol reference";
	}
	return "<?>";
}
