// SPDX-License-Identifier: GPL-2.0-only
/*
 * host/lib/machine.c - what the hosted benchmark learns about the machine it runs on (see
 * host/lib/machine.h): CPUID's vendor, signature, string-op features and caches, the
 * microcode Linux reports, pinning, and Linux's dispatch on this CPU with the image's
 * overrides on top; THP mappings, and the small readers of procfs and sysfs files the
 * hosted tools share.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <errno.h>
#include <linux/mempolicy.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "copy/ops.h"
#include "host/lib/machine.h"
#include "init/dispatch_cpu.h"
#include "kernel/arch/cpuid.h"
#include "kernel/platform/cpufeat.h"

/* The microcode revision Linux reports ("microcode : 0x2b000603"), "" when it says none. */
static void read_microcode(char *microcode, size_t size)
{
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f)) {
		char rev[24];

		if (sscanf(line, "microcode : %23s", rev) == 1) {
			snprintf(microcode, size, "%s", rev);
			break;
		}
	}
	if (f)
		fclose(f);
}

/* The host's CPUID through the image's own reader (kernel/arch/cpuid.c), read once. */
static struct cpuid_regs host_cpuid(u32 leaf, u32 subleaf)
{
	struct cpuid_regs r;

	__cpuid_count(leaf, subleaf, r.eax, r.ebx, r.ecx, r.edx);
	return r;
}

static const struct cpuid_ident *host_ident(void)
{
	static struct cpuid_ident id;
	static bool read;

	if (!read) {
		cpuid_read_ident(&id, host_cpuid);
		read = true;
	}
	return &id;
}

static bool host_has(enum x86_feature_id f)
{
	return cpuid_ident_has(host_ident(), f);
}

/*
 * The largest cache this core sees, from CPUID's deterministic cache parameters (leaf 4 on
 * Intel, 8000001Dh on AMD with TOPOEXT): ways x partitions x line size x sets. A hypervisor
 * may report the host socket's L3 through sysconf; CPUID is what the guest was given.
 */
u64 ck_host_largest_cache(const char **source)
{
	const struct cpuid_ident *id = host_ident();
	u32 leaf = CPUID_LEAF_CACHE;
	u64 best = 0;

	if (id->max_ext_leaf >= CPUID_LEAF_CACHE_AMD && host_has(X86_FEATURE_TOPOEXT))
		leaf = CPUID_LEAF_CACHE_AMD;
	if (leaf == CPUID_LEAF_CACHE && id->max_leaf < CPUID_LEAF_CACHE)
		return 0;
	for (unsigned int i = 0; i < 16; i++) {
		struct cpuid_regs r = host_cpuid(leaf, i);
		u64 size;

		if (!(r.eax & 0x1f))		/* cache type 0: no more caches */
			break;
		/* ways x partitions x line size x sets, each field stored minus one */
		size = (u64)((r.ebx >> 22) + 1) * (((r.ebx >> 12) & 0x3ff) + 1) *
		       ((r.ebx & 0xfff) + 1) * ((u64)r.ecx + 1);
		best = MAX(best, size);
	}
	*source = leaf == CPUID_LEAF_CACHE ? "CPUID leaf 4" : "CPUID 8000001Dh";
	return best;
}

int ck_host_pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0) {
		if (sched_getaffinity(0, sizeof(set), &set))
			return -1;
		for (int i = CPU_SETSIZE - 1; i >= 0; i--)
			if (CPU_ISSET(i, &set)) {
				cpu = i;
				break;
			}
	}
	if (cpu < 0)
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -1 : cpu;
}

static bool hypervisor(void)
{
	return host_has(X86_FEATURE_HYPERVISOR);
}

static bool have_1g_pages(void)
{
	return host_has(X86_FEATURE_GBPAGES);
}

/* Linux's inputs and choice on this CPU, applied, and the candidates it can run. */
static void host_dispatch(struct ck_host *h)
{
	const struct cpuid_ident *ci = host_ident();
	struct cpu_ident id;
	struct dispatch_cpu in;
	struct copy_dispatch dd;

	memset(&id, 0, sizeof(id));
	id.vendor = ci->vendor;
	id.signature = ci->signature;
	id.family = ci->family;
	id.model = ci->model;
	id.stepping = ci->stepping;
	id.erms = host_has(X86_FEATURE_ERMS);
	id.fsrm = host_has(X86_FEATURE_FSRM);
	cpufeat_apply_rules(&id);	/* IA32_MISC_ENABLE is not readable from here */
	dispatch_cpu_from_ident(&id, false, &in);
	dispatch_decide(&in, &dd);
	copy_ops_apply(&dd);
	h->in = in;
	h->dd = dd;
	h->caps.avx2 = host_has(X86_FEATURE_AVX2);
	h->caps.avx512f = host_has(X86_FEATURE_AVX512F);
	h->caps.clzero = host_has(X86_FEATURE_CLZERO);
	snprintf(h->machine, sizeof(h->machine), "hosted %.12s family 0x%x model 0x%x",
		 ci->vendor_str, id.family, id.model);
	snprintf(h->features, sizeof(h->features), "%s%s%s%s%s%s", id.erms ? "erms," : "",
		 id.fsrm ? "fsrm," : "", id.rep_good ? "rep_good," : "",
		 h->caps.avx2 ? "avx2," : "", h->caps.avx512f ? "avx512f," : "",
		 h->caps.clzero ? "clzero" : "");
	printf("# %s: ERMS %s FSRM %s REP_GOOD %s; AVX2 %s AVX-512F %s CLZERO %s\n", h->machine,
	       id.erms ? "yes" : "no", id.fsrm ? "yes" : "no", id.rep_good ? "yes" : "no",
	       h->caps.avx2 ? "yes" : "no", h->caps.avx512f ? "yes" : "no",
	       h->caps.clzero ? "yes" : "no");
	printf("# dispatch: copy_page=%s memcpy=%s copy_mc=%s clear_page=%s\n",
	       copy_page_impl_names[dd.copy_page], memcpy_impl_names[dd.memcpy],
	       copy_mc_impl_names[dd.copy_mc], clear_page_impl_names[dd.clear_page]);
}

/* Apply @o over Linux's choice; false (and a message) when the CPU cannot run one. */
bool ck_host_apply_overrides(struct ck_host *h, const struct ck_overrides *o)
{
	struct copy_dispatch dd = h->dd;
	const struct dispatch_caps *caps = &h->caps;
	const char *why;

	if (o->copy_page >= 0)
		dd.copy_page = (enum copy_page_impl)o->copy_page;
	if (o->memcpy >= 0)
		dd.memcpy = (enum memcpy_impl)o->memcpy;
	if (o->copy_mc >= 0) {
		dd.copy_mc = (enum copy_mc_impl)o->copy_mc;
		why = copy_mc_cannot_run(dd.copy_mc, caps);
		if (why) {
			fprintf(stderr, "ck-bench: --copy-mc %s: %s\n",
				copy_mc_impl_names[dd.copy_mc], why);
			return false;
		}
	}
	if (o->clear_page >= 0) {
		dispatch_override_clear(&dd, (enum clear_page_impl)o->clear_page, "override");
		why = clear_page_cannot_run(dd.clear_page, caps);
		if (why) {
			fprintf(stderr, "ck-bench: --clear-page %s: %s\n",
				clear_page_impl_names[dd.clear_page], why);
			return false;
		}
	}
	if (o->copy_page >= 0 || o->memcpy >= 0 || o->copy_mc >= 0 || o->clear_page >= 0)
		printf("# dispatch overridden: copy_page=%s memcpy=%s copy_mc=%s clear_page=%s\n",
		       copy_page_impl_names[dd.copy_page], memcpy_impl_names[dd.memcpy],
		       copy_mc_impl_names[dd.copy_mc], clear_page_impl_names[dd.clear_page]);
	copy_ops_apply(&dd);
	h->dd = dd;
	return true;
}


void ck_host_probe(struct ck_host *h)
{
	memset(h, 0, sizeof(*h));
	h->clflushopt = host_has(X86_FEATURE_CLFLUSHOPT);
	h->gbpages = have_1g_pages();
	h->hypervisor = hypervisor();
	host_dispatch(h);
	read_microcode(h->microcode, sizeof(h->microcode));
}

u8 *ck_host_map_thp(size_t bytes, size_t align, u8 fill, void **map)
{
	void *q = mmap(NULL, bytes + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	u8 *p;

	if (q == MAP_FAILED)
		return NULL;
	p = (u8 *)ALIGN_UP((uintptr_t)q, align);
	madvise(p, bytes, MADV_HUGEPAGE);
	memset(p, fill, bytes);
	if (map)
		*map = q;
	return p;
}

bool ck_host_read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	bool ok = f && fgets(buf, (int)size, f);

	if (f)
		fclose(f);
	if (!ok)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

long ck_host_read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long n = -1;

	if (f && fscanf(f, "%ld", &n) != 1)
		n = -1;
	if (f)
		fclose(f);
	return n;
}

long ck_host_vma_thp_kib(const void *start)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	unsigned long lo, hi;
	long kib = -1;
	bool here = false;

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) {	/* a mapping's first line */
			here = lo == (uintptr_t)start;
			continue;
		}
		if (here && sscanf(line, "AnonHugePages: %ld kB", &kib) == 1)
			break;
	}
	if (f)
		fclose(f);
	return kib;
}

bool ck_host_bind(void *buf, size_t bytes, unsigned int a, int b)
{
	enum { LONG_BITS = 8 * sizeof(unsigned long) };
	unsigned long mask[CK_HOST_NODES_MAX / LONG_BITS + 1] = { 0 };

	if (a >= CK_HOST_NODES_MAX || b >= CK_HOST_NODES_MAX) {
		errno = EINVAL;
		return false;
	}
	mask[a / LONG_BITS] |= 1UL << (a % LONG_BITS);
	if (b >= 0)
		mask[b / LONG_BITS] |= 1UL << (b % LONG_BITS);
	/* The kernel reads maxnode - 1 bits (mm/mempolicy.c get_nodes()). */
	return !syscall(SYS_mbind, buf, (unsigned long)bytes, MPOL_BIND, mask,
			(unsigned long)CK_HOST_NODES_MAX + 1, 0UL);
}
