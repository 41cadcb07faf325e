// SPDX-License-Identifier: GPL-2.0-only
/*
 * crash.c - raise an exception nobody expects, on purpose (crash= on the command line), so
 * the QEMU tests can check the unexpected-exception report and the panic exit status.
 * "df" overflows onto a not-present stack page: delivering the #UD then faults, delivering
 * that #PF faults again, and the CPU raises #DF, which arrives on its own IST stack.
 * "fail" raises nothing: the run goes on and the one case of the "deliberate" suite fails,
 * so the failed-tests exit status and its precedence can be checked end to end.
 * "hang" raises nothing either: the boot CPU stops with interrupts off and the run says
 * nothing more, as a wedged machine would, so a harness's own timeout is what ends it (a LAVA
 * job's monitor, tools/ck-run.py --timeout): make lab-check's hang job.
 */
#include "kernel/arch/bootmem.h"
#include "kernel/arch/paging.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"
#include "kernel/lib/ptrsort.h"
#include "kernel/platform/smp.h"
#include "ktest/lib/crash.h"
#include "ktest/lib/ktap.h"

extern const struct ck_crash *__start_ck_crashes[], *__stop_ck_crashes[];

static bool crash_before(const void *a, const void *b)
{
	return ((const struct ck_crash *)a)->order < ((const struct ck_crash *)b)->order;
}

unsigned int ck_crashes_get(const struct ck_crash *const **list)
{
	unsigned int n = (unsigned int)(__stop_ck_crashes - __start_ck_crashes);
	static bool sorted;

	if (!sorted)
		ptr_sort((const void **)__start_ck_crashes, n, crash_before);
	sorted = true;
	*list = (const struct ck_crash *const *)__start_ck_crashes;
	return n;
}

void crash_now(const struct ck_crash *c)
{
	if (c->how != CRASH_RAISES) {
		c->fn();
		return;
	}
	printk("crash: raising an unexpected exception on purpose (crash=%s)\n", c->name);
	c->fn();
	printk("crash: the exception did not happen\n");
}

/* A page that is mapped nowhere. */
static u64 not_present_page(void)
{
	u64 page = bootmem_alloc(SZ_4K, SZ_4K);

	pg_set_attr(page, page + SZ_4K, PG_CACHE(PG_CACHE_WB));
	return page;
}

static void crash_ud(void)
{
	__asm__ volatile("ud2");
}
CK_CRASH(ud, 1, crash_ud);

static void crash_gp(void)
{
	/* A non-canonical address: #GP on hardware and emulators alike. */
	(void)*(volatile u64 *)(uintptr_t)0x8000000000000000ULL;
}
CK_CRASH(gp, 2, crash_gp);

static void crash_pf(void)
{
	u64 page = not_present_page();

	printk("crash: reading not-present page 0x%llx\n", (unsigned long long)page);
	(void)*(volatile u64 *)(uintptr_t)(page + 0x10);
}
CK_CRASH(pf, 3, crash_pf);

static void crash_de(void)
{
	__asm__ volatile("xor %%ecx, %%ecx; div %%ecx" : : : "rax", "rcx", "rdx");
}
CK_CRASH(de, 4, crash_de);

static void crash_bp(void)
{
	__asm__ volatile("int3");
}
CK_CRASH(bp, 5, crash_bp);

static void crash_df(void)
{
	u64 page = not_present_page();

	__asm__ volatile("mov %0, %%rsp; ud2" : : "r"(page + SZ_4K) : "memory");
}
CK_CRASH(df, 6, crash_df);

static void ud_on_this_cpu(void *arg)
{
	__asm__ volatile("ud2");
}

/*
 * #UD on the last AP: the AP reports (naming itself), stops the boot CPU, which is waiting
 * here, with an NMI, and leaves. Without an AP the boot CPU raises it, and says so.
 */
static void crash_ap(void)
{
	unsigned int c = smp_nr_cpus() - 1;

	if (!cpu_online(c) || !c) {
		printk("crash: no AP online: #UD on the boot CPU instead\n");
		ud_on_this_cpu(NULL);
		return;
	}
	printk("crash: #UD on CPU %u (APIC id %u)\n", c, smp_cpu(c)->apic_id);
	on_cpu(c, ud_on_this_cpu, NULL, 10000);
	printk("crash: CPU %u did not stop the machine within 10 s\n", c);
}
CK_CRASH(ap, 7, crash_ap);

static bool fail_armed;

static void crash_fail(void)
{
	fail_armed = true;
	printk("crash: crash=fail: deliberate.fails_on_purpose will fail on purpose; the run goes "
	       "on\n");
}
CK_CRASH_KIND(fail, 8, crash_fail, CRASH_GOES_ON);

static void crash_hang(void)
{
	printk("crash: crash=hang: the boot CPU stops here with interrupts off and the run says "
	       "nothing more; only an outside timeout ends it\n");
	halt_forever();
}
CK_CRASH_KIND(hang, 9, crash_hang, CRASH_HANGS);

static void fails_on_purpose(struct ck_test *t)
{
	if (!fail_armed) {
		ck_skip(t, "fails only with crash=fail, to check the failed-tests status");
		return;
	}
	report(t, false, "crash=fail: this case fails on purpose (the run ends with status 1, "
	       "some tests failed)");
}

/* Before mce, so a machine check that panics there comes after the failure. */
CK_SUITE(deliberate, 65,
	 CK_CASE(fails_on_purpose));
