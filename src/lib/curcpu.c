/*
 * curcpu: a pointer to the cpuinfo_t of the CPU a probe fires on, kept in
 * a per-CPU map (dt_curcpu) that the consumer fills before tracing starts:
 * the CPU's number, its processor set (Linux has none: 0), its physical
 * package (chip) and its NUMA node (locality group), from sysfs.
 */
#include "lib/curcpu.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/maps.h"
#include "lib/dt_impl.h"

static int read_int(const char *path, int dflt)
{
	FILE *f = fopen(path, "re");
	int v = dflt;

	if (f == NULL)
		return dflt;
	if (fscanf(f, "%d", &v) != 1)
		v = dflt;
	fclose(f);
	return v;
}

/* The NUMA node of a CPU: its sysfs directory has a nodeN link. */
static int cpu_node(int cpu)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	DIR *d = opendir(path);
	int node = 0;
	if (d == NULL)
		return 0;
	for (struct dirent *e; (e = readdir(d)) != NULL;) {
		if (strncmp(e->d_name, "node", 4) == 0 && e->d_name[4] >= '0' && e->d_name[4] <= '9') {
			node = atoi(e->d_name + 4);
			break;
		}
	}
	closedir(d);
	return node;
}

int dt_curcpu_fill(dtrace_hdl_t *dtp, struct bpf_object *obj)
{
	struct bpf_map *m = bpf_object__find_map_by_name(obj, MAP_CURCPU);

	if (m == NULL)
		return 0;
	int ncpus = libbpf_num_possible_cpus();
	if (ncpus <= 0)
		return dt_set_error(dtp->core, -EINVAL, "cannot count the CPUs");
	int32_t *vals = calloc((size_t)ncpus, CURCPU_SIZE);
	if (vals == NULL)
		return dt_set_error(dtp->core, -ENOMEM, "out of memory");
	for (int c = 0; c < ncpus; c++) {
		char path[128];
		int32_t *v = vals + (size_t)c * (CURCPU_SIZE / 4);
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", c);
		v[0] = c;
		v[1] = 0;
		v[2] = read_int(path, 0);
		v[3] = cpu_node(c);
	}
	uint32_t key = 0;
	int rc = bpf_map_update_elem(bpf_map__fd(m), &key, vals, BPF_ANY);
	free(vals);
	if (rc < 0)
		return dt_set_error(dtp->core, -errno, "failed to fill %s: %s", MAP_CURCPU, strerror(errno));
	return 0;
}
