/*
 * Loading with libbpf.  Each program gets its own log buffer: libbpf
 * first loads with log level 0 and, only if the kernel refuses, loads that
 * program again with log level 1 into our buffer (so nothing is printed
 * and a successful load costs no logging).  The kernel keeps the tail of
 * a log that does not fit (Linux 6.4 and later; older kernels keep its
 * head), and says ENOSPC: the caller may load again with a larger buffer.
 */
#include "bpf/load.h"

#include <bpf/btf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/util.h"
#include "bpf/errmsg.h"
#include "bpf/verifier_log.h"

int bo_open(const void *elf, size_t size, struct bpf_object **objp,
	    char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = "dtrace");
	struct bpf_object *obj = bpf_object__open_mem(elf, size, &opts);

	*objp = NULL;
	if (obj == NULL)
		return bo_errf(err, errlen, -errno, "opening BPF object: %s", strerror(errno));
	*objp = obj;
	return 0;
}

static int verifier_error(struct bpf_program *prog, const char *log, const char *source,
			  int rc, char *err, size_t errlen)
{
	char pos[256], reason[512];

	bo_verifier_log_parse(log, source, pos, sizeof(pos), reason, sizeof(reason));
	/* For developers: the end of the verifier's log. */
	if (getenv("DTRACE_DEBUG") != NULL) {
		size_t len = strlen(log);
		fprintf(stderr, "%s\n", len > 8192 ? log + len - 8192 : log);
	}
	if (rc == -ENOSPC)
		rc = -EACCES;
	/*
	 * The verifier's budget for one program (a million instructions walked,
	 * 8192 branches pending): a probe's clauses are spread over programs,
	 * but one clause is never split.
	 */
	const char *hint = strstr(reason, "too complex") != NULL ||
			   strstr(reason, "program is too large") != NULL
				   ? " (the verifier's budget for one clause: split the clause into "
				     "several clauses for the same probe, which may be any number)"
				   : "";
	if (pos[0] != '\0')
		return bo_errf(err, errlen, rc, "BPF verifier rejected the clause at %s: %s%s", pos,
			       reason[0] ? reason : strerror(-rc), hint);
	return bo_errf(err, errlen, rc, "BPF verifier rejected program '%s': %s",
		       bpf_program__name(prog), reason[0] ? reason : strerror(-rc));
}

/*
 * libbpf 1.1 keeps global data (.bss, .rodata) in a private copy after
 * loading; only skeletons map the kernel's array over it.  Do what the
 * skeleton does, so that bpf_map__initial_value() is the live memory and
 * bpf_object__close() unmaps it as before.
 */
static int map_global_data(struct bpf_object *obj, char *err, size_t errlen)
{
	long page = sysconf(_SC_PAGESIZE);
	struct bpf_map *map;

	bpf_object__for_each_map(map, obj) {
		size_t size = 0;
		void *mem = (void *)bpf_map__initial_value(map, &size);
		int prot = PROT_READ;

		if (!bpf_map__is_internal(map) || mem == NULL ||
		    !(bpf_map__map_flags(map) & BPF_F_MMAPABLE))
			continue;
		if (!(bpf_map__map_flags(map) & BPF_F_RDONLY_PROG))
			prot |= PROT_WRITE;
		size = (size + (size_t)page - 1) / (size_t)page * (size_t)page;
		if (mmap(mem, size, prot, MAP_SHARED | MAP_FIXED, bpf_map__fd(map), 0) == MAP_FAILED)
			return bo_errf(err, errlen, -errno, "mapping BPF map '%s': %s",
				       bpf_map__name(map), strerror(errno));
	}
	return 0;
}

/* For developers: what the verifier went through for each program. */
static void report_verified(struct bpf_object *obj)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, obj) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);
		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len) == 0)
			fprintf(stderr, "dtrace: debug: %s: %u instructions, %u verified\n",
				bpf_program__name(prog), info.xlated_prog_len / 8,
				info.verified_insns);
	}
}

/* Each line of a verifier log as DTrace's bpflog shows it: "BPF: <line>". */
static void print_log(FILE *fp, const char *log)
{
	while (*log != '\0') {
		const char *nl = strchr(log, '\n');
		int len = nl != NULL ? (int)(nl - log) : (int)strlen(log);
		fprintf(fp, "BPF: %.*s\n", len, log);
		log += len + (nl != NULL);
	}
}

int bo_load(struct bpf_object *obj, const char *source_name, size_t log_size,
	    struct bpf_program **failedp, bool *log_cut, char *err, size_t errlen)
{
	return bo_load_logged(obj, source_name, log_size, NULL, failedp, log_cut, err, errlen);
}

int bo_load_logged(struct bpf_object *obj, const char *source_name, size_t log_size,
		   FILE *logfp, struct bpf_program **failedp, bool *log_cut, char *err,
		   size_t errlen)
{
	struct bpf_program *prog;
	size_t n = 0, i = 0;
	char **logs;
	int rc;

	if (failedp != NULL)
		*failedp = NULL;
	*log_cut = false;
	/* The kernel's bounds (older kernels: at most UINT_MAX >> 8). */
	if (log_size < 128)
		log_size = 128;
	if (log_size > (UINT_MAX >> 8))
		log_size = UINT_MAX >> 8;
	bpf_object__for_each_program(prog, obj)
		n++;
	logs = calloc(n + 1, sizeof(*logs));
	if (logs == NULL)
		return bo_errf(err, errlen, -ENOMEM, "out of memory");
	bpf_object__for_each_program(prog, obj) {
		logs[i] = calloc(1, log_size);
		if (logs[i] == NULL) {
			rc = bo_errf(err, errlen, -ENOMEM, "out of memory");
			goto out;
		}
		/* bpflog: the verifier's whole account of every program, and its statistics. */
		if (logfp != NULL)
			bpf_program__set_log_level(prog, 1 | 4);
		rc = bpf_program__set_log_buf(prog, logs[i++], log_size);
		if (rc < 0) {
			bo_errf(err, errlen, rc, "BPF program '%s': %s", bpf_program__name(prog),
				strerror(-rc));
			goto out;
		}
	}

	rc = bpf_object__load(obj);
	for (i = 0; logfp != NULL && rc == 0 && i < n; i++)
		print_log(logfp, logs[i]);
	if (rc == 0) {
		if (getenv("DTRACE_DEBUG") != NULL)
			report_verified(obj);
		rc = map_global_data(obj, err, errlen);
		goto out;
	}
	/* Loading stops at the first program the kernel refuses: the only
	 * one whose log was written. */
	i = 0;
	bpf_object__for_each_program(prog, obj) {
		if (logs[i++][0] == '\0')
			continue;
		if (failedp != NULL)
			*failedp = prog;
		/* A log cut to fit the buffer makes the kernel answer ENOSPC. */
		*log_cut = rc == -ENOSPC || strlen(logs[i - 1]) + 1 >= log_size;
		/* A log cut short is loaded again with a larger buffer (or not reported). */
		if (logfp != NULL && !*log_cut)
			print_log(logfp, logs[i - 1]);
		rc = verifier_error(prog, logs[i - 1], source_name, rc, err, errlen);
		goto out;
	}
	bo_errf(err, errlen, rc, "loading BPF object: %s", strerror(-rc));
out:
	/* libbpf only writes log buffers while loading, which is over. */
	for (i = 0; i < n; i++)
		free(logs[i]);
	free(logs);
	return rc;
}

int bo_map_refused(struct bpf_object *obj, char *name, size_t namelen)
{
	struct bpf_map *map;

	bpf_object__for_each_map(map, obj) {
		/* (An array of maps needs the model it was given: not tried alone.) */
		if (bpf_map__type(map) == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
		    bpf_map__type(map) == BPF_MAP_TYPE_HASH_OF_MAPS)
			continue;
		LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = bpf_map__map_flags(map));
		int fd = bpf_map_create(bpf_map__type(map), NULL, bpf_map__key_size(map),
					bpf_map__value_size(map), bpf_map__max_entries(map), &opts);
		if (fd >= 0) {
			close(fd);
			continue;
		}
		int rc = -errno;
		snprintf(name, namelen, "%s", bpf_map__name(map));
		return rc;
	}
	return 0;
}

void *bo_bss_var(struct bpf_object *obj, const char *name, size_t *sizep)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, ".bss");
	const struct btf *btf = bpf_object__btf(obj);
	const struct btf_var_secinfo *vi;
	const struct btf_type *t;
	size_t msize = 0;
	void *mem;
	int id;

	if (map == NULL || btf == NULL)
		return NULL;
	/* Once loaded, only a mapped array is the live memory. */
	if (bpf_map__fd(map) >= 0 && !(bpf_map__map_flags(map) & BPF_F_MMAPABLE))
		return NULL;
	/* libbpf hands out the (writable) .bss as const. */
	mem = (void *)bpf_map__initial_value(map, &msize);
	id = btf__find_by_name_kind(btf, ".bss", BTF_KIND_DATASEC);
	if (mem == NULL || id < 0)
		return NULL;
	t = btf__type_by_id(btf, (unsigned)id);
	vi = btf_var_secinfos(t);
	for (unsigned i = 0; i < btf_vlen(t); i++, vi++) {
		const struct btf_type *var = btf__type_by_id(btf, vi->type);

		if (strcmp(btf__name_by_offset(btf, var->name_off), name) != 0)
			continue;
		if ((size_t)vi->offset + vi->size > msize)
			return NULL;
		if (sizep != NULL)
			*sizep = vi->size;
		return (char *)mem + vi->offset;
	}
	return NULL;
}

void bo_close(struct bpf_object *obj)
{
	bpf_object__close(obj);
}
