// SPDX-License-Identifier: GPL-2.0-only
/*
 * ck-bench-host.c - what the hosted benchmark learns about the machine it runs on (see
 * ck-bench-host.h): CPUID's vendor, signature, string-op features and caches, the
 * microcode Linux reports, pinning, and Linux's dispatch on this CPU with the image's
 * overrides on top.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "copy/ops.h"
#include "kernel/dispatch_cpu.h"
#include "kernel/platform/cpufeat.h"
#include "tools/ck-bench-host.h"

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

/*
 * The largest cache this core sees, from CPUID's deterministic cache parameters (leaf 4 on
 * Intel, 8000001Dh on AMD with TOPOEXT): ways x partitions x line size x sets. A hypervisor
 * may report the host socket's L3 through sysconf; CPUID is what the guest was given.
 */
u64 ck_host_largest_cache(const char **source)
{
	unsigned int a, b, c, d, max, leaf = 4;
	u64 best = 0;

	__cpuid(0x80000000, max, b, c, d);
	if (max >= 0x8000001d) {
		__cpuid(0x80000001, a, b, c, d);
		if (c & (1u << 22))		/* TOPOEXT */
			leaf = 0x8000001d;
	}
	__cpuid(0, max, b, c, d);
	if (leaf == 4 && max < 4)
		return 0;
	for (unsigned int i = 0; i < 16; i++) {
		u64 size;

		__cpuid_count(leaf, i, a, b, c, d);
		if (!(a & 0x1f))
			break;
		size = (u64)((b >> 22) + 1) * (((b >> 12) & 0x3ff) + 1) * ((b & 0xfff) + 1) *
		       ((u64)c + 1);
		best = MAX(best, size);
	}
	*source = leaf == 4 ? "CPUID leaf 4" : "CPUID 8000001Dh";
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
	unsigned int a, b, c, d;

	__cpuid(1, a, b, c, d);
	return c & (1u << 31);
}

static bool have_1g_pages(void)
{
	unsigned int a, b, c, d, max;

	__cpuid(0x80000000, max, b, c, d);
	if (max < 0x80000001)
		return false;
	__cpuid(0x80000001, a, b, c, d);
	return d & (1u << 26);		/* PDPE1GB */
}

/* Linux's inputs and choice on this CPU, applied, and the candidates it can run. */
static void host_dispatch(struct ck_host *h)
{
	unsigned int a, b, c, d, max;
	struct cpu_ident id;
	struct dispatch_cpu in;
	struct copy_dispatch dd;
	char vendor[13];

	memset(&id, 0, sizeof(id));
	__cpuid(0, max, b, c, d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = 0;
	id.vendor = cpufeat_vendor(vendor);
	__cpuid(1, a, b, c, d);
	id.signature = a;
	cpufeat_decode_signature(a, &id.family, &id.model, &id.stepping);
	if (max >= 7) {
		__cpuid_count(7, 0, a, b, c, d);
		id.erms = b & (1u << 9);
		id.fsrm = d & (1u << 4);
	}
	cpufeat_apply_rules(&id);	/* IA32_MISC_ENABLE is not readable from here */
	dispatch_cpu_from_ident(&id, false, &in);
	dispatch_decide(&in, &dd);
	copy_ops_apply(&dd);
	h->in = in;
	h->dd = dd;
	__builtin_cpu_init();
	h->caps.avx2 = __builtin_cpu_supports("avx2");
	h->caps.avx512f = __builtin_cpu_supports("avx512f");
	__cpuid(0x80000000, max, b, c, d);
	h->caps.clzero = false;
	if (max >= 0x80000008) {
		__cpuid(0x80000008, a, b, c, d);
		h->caps.clzero = b & 1;
	}
	snprintf(h->machine, sizeof(h->machine), "hosted %s family 0x%x model 0x%x", vendor,
		 id.family, id.model);
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
		dd.clear_page = (enum clear_page_impl)o->clear_page;
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
	unsigned int a, b, c, d;

	memset(h, 0, sizeof(*h));
	__cpuid(0, a, b, c, d);
	if (a >= 7) {
		__cpuid_count(7, 0, a, b, c, d);
		h->clflushopt = b & (1u << 23);
	}
	h->gbpages = have_1g_pages();
	h->hypervisor = hypervisor();
	host_dispatch(h);
	read_microcode(h->microcode, sizeof(h->microcode));
}
