/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host/lib/machine.h - the machine the hosted benchmark runs on (host/lib/machine.c):
 * CPUID's facts, the microcode, pinning, Linux's dispatch on this CPU and the overrides,
 * its transparent huge pages, and one-line procfs and sysfs reads.
 */
#ifndef CK_HOST_LIB_MACHINE_H
#define CK_HOST_LIB_MACHINE_H

#include "copy/dispatch.h"

/* The image's dispatch overrides (copy_page=, memcpy=, copy_mc=, clear_page=); -1: Linux's. */
struct ck_overrides {
	int copy_page, memcpy, copy_mc, clear_page;
};

struct ck_host {
	char machine[160];		/* "hosted AuthenticAMD family 0x19 model 0x11" */
	char features[160];		/* "erms,fsrm,rep_good,avx2,..." */
	char microcode[32];		/* as /proc/cpuinfo says it; "": not said */
	struct dispatch_cpu in;		/* Linux's rule inputs on this CPU */
	struct copy_dispatch dd;	/* the choice in effect (after any override) */
	struct dispatch_caps caps;	/* the candidates this CPU can run */
	bool clflushopt, gbpages, hypervisor;
};

/*
 * Read CPUID and /proc/cpuinfo, apply Linux's dispatch for this CPU, and print the
 * "# hosted ...: ERMS ..." and "# dispatch: ..." lines.
 */
void ck_host_probe(struct ck_host *h);
/* Apply @o over Linux's choice; false (and a message) when this CPU cannot run one. */
bool ck_host_apply_overrides(struct ck_host *h, const struct ck_overrides *o);
/*
 * The largest cache this core sees from CPUID's deterministic cache parameters (leaf 4,
 * or 8000001Dh on AMD with TOPOEXT), and where that came from; 0 when CPUID says none.
 */
u64 ck_host_largest_cache(const char **source);
/* Pin to @cpu, or (-1) the highest-numbered CPU this process may run on; -1: failed. */
int ck_host_pin(int cpu);
/*
 * @bytes of anonymous memory at an @align boundary (a power of two), advised to THP and
 * faulted in, every byte @fill: the aligned start, or NULL when it cannot be had. The whole
 * mapping (for munmap) is @bytes + @align from *@map.
 */
u8 *ck_host_map_thp(size_t bytes, size_t align, u8 fill, void **map);

/*
 * Bind [@buf, + @bytes) to NUMA node @a, and to @b too when @b >= 0 (mbind MPOL_BIND;
 * nothing already there moves). Nodes below CK_HOST_NODES_MAX; false (errno) on failure.
 */
#define CK_HOST_NODES_MAX	64
bool ck_host_bind(void *buf, size_t bytes, unsigned int a, int b);

/* The first line of file @path (sysfs, procfs), its newline dropped; false (@buf "") if none. */
bool ck_host_read_line(const char *path, char *buf, size_t size);
/* The number file @path starts with (sysfs, procfs); -1 when there is none. */
long ck_host_read_long(const char *path);
/* AnonHugePages (/proc/self/smaps) of the mapping that starts at @start, KiB; -1: not found. */
long ck_host_vma_thp_kib(const void *start);

#endif
