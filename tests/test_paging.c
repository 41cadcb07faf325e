// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_paging.c - walk the kernel's page tables: every RAM range of the firmware map is
 * mapped 1:1, with only the page sizes this CPU allows and large pages where they fit;
 * W^X holds with NX and CR0.WP on; ranges can be split to 4 KiB and made not-present, UC
 * or WC through PAT; the MMIO the kernel uses is mapped uncached or write-combining.
 */
#include "kernel/arch/bootmem.h"
#include "kernel/arch/memmap.h"
#include "kernel/arch/mtrr.h"
#include "kernel/arch/paging.h"
#include "kernel/arch/traps.h"
#include "kernel/include/probe.h"
#include "kernel/include/x86.h"
#include "kernel/platform/smp.h"
#include "tests/ctx.h"
#include "tests/ktap.h"

extern char _text[], _etext[];
static u64 data_word = 0x5a5a5a5a;

/*
 * A "ret" alone on its own text page. An instruction-fetch fault reports the target as RIP,
 * so the exception-table entry names the target itself; its fixup is a "ret" on another
 * page, which returns to probe_exec's caller as if the call had completed.
 */
__asm__(".pushsection .text.nx_probe, \"ax\"\n"
	".balign 4096\n"
	".globl ck_nx_probe\n"
	"ck_nx_probe: ret\n"
	".balign 4096\n"
	"ck_nx_probe_fixup: ret\n"
	_ASM_EXTABLE_TYPE(ck_nx_probe, ck_nx_probe_fixup, EX_TYPE_FAULT | EX_DATA_REG(EX_REG_RSI))
	".popsection\n");
extern char ck_nx_probe[];

/* Runs of adjacent RAM entries, as paging_init maps them; calls @fn per run. */
static void for_each_ram_run(struct ck_test *t, void (*fn)(u64 start, u64 end, void *ctx),
			     void *ctx)
{
	memmap_for_each_ram_run(t->ctx->bi, fn, ctx);
}

struct ident_check {
	u64 ranges, bytes, holes, guards, not_identity, bad_size, above_4g;
	u64 first_bad;
};

static void check_run(u64 start, u64 end, void *ctx)
{
	struct ident_check *c = ctx;
	u64 va = start;

	c->ranges++;
	c->bytes += end - start;
	if (end > (1ULL << 32))
		c->above_4g += end - MAX(start, 1ULL << 32);
	while (va < end) {
		struct pg_leaf l;

		if (!pg_lookup(va, &l)) {
			if (smp_is_guard_page(ALIGN_DOWN(va, SZ_4K)))
				c->guards++;
			else if (!c->holes++ && !c->not_identity)
				c->first_bad = va;
			va = ALIGN_DOWN(va, SZ_4K) + SZ_4K;
			continue;
		}
		if (l.pa != l.va && !c->not_identity++ && !c->holes)
			c->first_bad = va;
		if (l.size == SZ_1G && !pg_gbpages())
			c->bad_size++;
		va = l.va + l.size;
	}
}

static void ram_mapped_identity(struct ck_test *t)
{
	struct ident_check c = { 0 };

	for_each_ram_run(t, check_run, &c);
	report(t, c.ranges > 0, "the map has RAM");
	report(t, c.holes == 0, "%llu RAM pages not mapped (first at 0x%llx)",
	       (unsigned long long)c.holes, (unsigned long long)c.first_bad);
	report(t, c.guards == 4 * (u64)(smp_nr_cpus() - 1) + 3,
	       "%llu unmapped guard pages: want 3 for the boot CPU's IST stacks and 4 for each of "
	       "%u APs (stack, #DF, NMI, #MC)", (unsigned long long)c.guards, smp_nr_cpus() - 1);
	report(t, c.not_identity == 0, "%llu leaves not 1:1 (first at 0x%llx)",
	       (unsigned long long)c.not_identity, (unsigned long long)c.first_bad);
	report(t, c.bad_size == 0, "1 GiB leaves on a CPU without pdpe1gb: %llu",
	       (unsigned long long)c.bad_size);
	ck_diag("%llu RAM runs, %llu MiB checked, %llu MiB above 4 GiB",
		(unsigned long long)c.ranges,
		(unsigned long long)c.bytes >> 20, (unsigned long long)c.above_4g >> 20);
}

struct fit {
	bool gig, two_meg;
};

static void find_fits(u64 start, u64 end, void *ctx)
{
	struct fit *f = ctx;

	f->gig |= ALIGN_UP(start, SZ_1G) + SZ_1G <= end && ALIGN_UP(start, SZ_1G) >= start;
	f->two_meg |= ALIGN_UP(start, SZ_2M) + SZ_2M <= end;
}

static bool leaf_in_ram(const struct pg_leaf *l, void *ctx)
{
	u64 *gig_ram = ctx;

	if (l->size == SZ_1G && l->cache == PG_CACHE_WB)
		(*gig_ram)++;
	return true;
}

static void page_sizes(struct ck_test *t)
{
	struct pg_stats st;
	struct fit f = { 0 };
	u64 gig_ram = 0;

	pg_stats(&st);
	for_each_ram_run(t, find_fits, &f);
	pg_walk(leaf_in_ram, &gig_ram);
	ck_diag("1 GiB leaves %llu, 2 MiB leaves %llu, 4 KiB leaves %llu, %llu table pages, "
		"pdpe1gb %s", (unsigned long long)st.leaves_1g, (unsigned long long)st.leaves_2m,
		(unsigned long long)st.leaves_4k, (unsigned long long)st.tables,
		pg_gbpages() ? "yes" : "no");
	if (pg_gbpages())
		report(t, !f.gig || gig_ram > 0,
		       "RAM holds an aligned 1 GiB, so a 1 GiB page must map it");
	else
		report(t, st.leaves_1g == 0, "no 1 GiB pages without pdpe1gb");
	report(t, !f.two_meg || st.leaves_2m > 0 || st.leaves_1g > 0,
	       "RAM holds an aligned 2 MiB, so large pages must be used");
	report(t, pg_gbpages() == !!(cpuid(0x80000001).edx & BIT(26)), "pdpe1gb taken from CPUID");
}

static void nx_and_wp(struct ck_test *t)
{
	struct pg_leaf l;
	u64 trap, page;

	report(t, read_cr0() & CR0_WP, "CR0.WP set");
	if (cpuid(0x80000001).edx & BIT(20))
		report(t, rdmsr(MSR_EFER) & EFER_NXE, "EFER.NXE set");
	report(t, pg_lookup((u64)(uintptr_t)_text, &l) && l.exec && !l.writable,
	       ".text is executable and read-only");
	report(t, pg_lookup((u64)(uintptr_t)&data_word, &l) && !l.exec && l.writable,
	       ".data is writable and no-execute");
	trap = probe_write64((u64)(uintptr_t)_text + 64, 0);
	report(t, trap == X86_TRAP_PF && (ex_last.error_code & 3) == 3,
	       "a write to .text faults (trap %llu, error 0x%llx)", (unsigned long long)trap,
	       (unsigned long long)ex_last.error_code);
	page = (u64)(uintptr_t)ck_nx_probe;
	report(t, probe_exec(page) == 0, "the probe page executes while mapped executable");
	report(t, pg_set_attr(page, page + SZ_4K, PG_RAM) == 0, "make it no-execute");
	trap = probe_exec(page);
	report(t, trap == X86_TRAP_PF && (ex_last.error_code & BIT(4)) &&
	       ex_last.cr2 == page, "executing a no-execute page faults as an instruction fetch "
	       "(trap %llu, error 0x%llx)", (unsigned long long)trap,
	       (unsigned long long)ex_last.error_code);
	report(t, pg_set_attr(page, page + SZ_4K, PG_PRESENT | PG_EXEC) == 0 &&
	       probe_exec(page) == 0, "executable again");
}

static void split_and_cache_types(struct ck_test *t)
{
	u64 base = bootmem_alloc(SZ_2M, SZ_2M), mid, v;
	struct pg_leaf l, before;

	if (!report(t, base, "allocate 2 MiB"))
		return;
	mid = base + 17 * SZ_4K;
	for (u64 i = 0; i < SZ_2M; i += 8)
		*(volatile u64 *)(uintptr_t)(base + i) = i ^ 0xabcdef;
	report(t, pg_lookup(base, &before) && before.size >= SZ_2M,
	       "the buffer starts inside a large page (%llu KiB)",
	       (unsigned long long)before.size >> 10);
	report(t, rdmsr(MSR_IA32_PAT) == PAT_LINUX, "IA32_PAT holds the kernel's layout");

	report(t, pg_set_attr(mid, mid + SZ_4K, PG_MMIO) == 0, "set one page UC");
	report(t, pg_lookup(mid, &l) && l.size == SZ_4K && l.cache == PG_CACHE_UC,
	       "it is a 4 KiB UC page (size %llu, type %d)", (unsigned long long)l.size, l.cache);
	report(t, pg_lookup(mid + SZ_4K, &l) && l.size == SZ_4K && l.cache == PG_CACHE_WB &&
	       l.pa == mid + SZ_4K, "its neighbour is a 4 KiB WB identity page");
	report(t, pg_lookup(base + SZ_2M - SZ_4K, &l) && l.cache == PG_CACHE_WB,
	       "the rest of the buffer keeps WB");

	report(t, pg_set_attr(mid, mid + SZ_4K, PG_PRESENT | PG_WRITE | PG_CACHE(PG_CACHE_WC)) == 0,
	       "set it WC");
	report(t, pg_lookup(mid, &l) && l.cache == PG_CACHE_WC, "type now WC (%d)", l.cache);
	report(t, probe_read64(mid + 8, &v) == 0 && v == ((mid - base + 8) ^ 0xabcdef),
	       "data reads through WC");

	report(t, pg_set_attr(mid, mid + SZ_4K, PG_RAM) == 0, "back to WB");
	report(t, pg_lookup(mid, &l) && l.cache == PG_CACHE_WB && l.writable && !l.exec,
	       "WB, writable, no-execute again");
	for (u64 i = 0, bad = 0; i < SZ_2M; i += 8) {
		if (*(volatile u64 *)(uintptr_t)(base + i) != (i ^ 0xabcdef))
			bad++;
		if (i + 8 == SZ_2M)
			report(t, bad == 0, "%llu words changed across the attribute changes",
			       (unsigned long long)bad);
	}
}

/* What pg_set_attr's split phase left, seen from between its two steps. */
static struct {
	bool called, small, old_type;
	u64 start;
} split_seen;

static void look_after_split(u64 start, u64 end)
{
	struct pg_leaf l;

	split_seen.called = true;
	split_seen.start = start;
	split_seen.small = pg_lookup(start, &l) && l.size == SZ_4K &&
			   pg_lookup(end, &l) && l.size == SZ_4K;
	split_seen.old_type = pg_lookup(start, &l) && l.cache == PG_CACHE_WB;
}

/*
 * Linux's order for changing part of a large page: split it with the old attributes, flush,
 * then change the attributes and flush again. Between the two steps the range must already
 * be 4 KiB pages that still have the old type.
 */
static void split_before_attribute_change(struct ck_test *t)
{
	u64 base = bootmem_alloc(SZ_2M, SZ_2M), mid;
	struct pg_leaf l;

	if (!report(t, base, "allocate 2 MiB"))
		return;
	if (!pg_lookup(base, &l) || l.size < SZ_2M) {
		ck_skip(t, "the buffer is not inside a large page here");
		return;
	}
	mid = base + 9 * SZ_4K;
	split_seen.called = false;
	pg_after_split = look_after_split;
	report(t, pg_set_attr(mid, mid + SZ_4K, PG_MMIO) == 0, "set one page UC");
	pg_after_split = NULL;
	report(t, split_seen.called && split_seen.start == mid,
	       "pg_set_attr split before it changed anything");
	report(t, split_seen.small, "after the split the edges are 4 KiB pages");
	report(t, split_seen.old_type, "... which still have the old type (WB) until the change");
	report(t, pg_lookup(mid, &l) && l.cache == PG_CACHE_UC, "then the page is UC");
	pg_set_attr(mid, mid + SZ_4K, PG_RAM);
}

/* The MTRR map as firmware left it; every large leaf of the identity map is uniform in it. */
static bool leaf_uniform(const struct pg_leaf *l, void *ctx)
{
	unsigned long *bad = ctx;

	if (l->size > SZ_4K && mtrr_range_type(mtrr_read(), l->pa, l->pa + l->size) == MTRR_MIXED)
		(*bad)++;
	return true;
}

static void large_pages_mtrr_uniform(struct ck_test *t)
{
	const struct mtrr_state *s = mtrr_read();
	unsigned long bad = 0;
	struct pg_stats st;

	if (!s->present) {
		ck_skip(t, "no MTRRs on this CPU");
		return;
	}
	pg_stats(&st);
	pg_walk(leaf_uniform, &bad);
	ck_diag("MTRR default %s, %llu large pages refused for mixed types",
		mtrr_type_name(s->def_type), (unsigned long long)st.mtrr_refused);
	report(t, bad == 0, "%lu large pages cover more than one MTRR type", bad);
	report(t, mtrr_range_type(s, 0, SZ_4K) != MTRR_MIXED, "one page is always uniform");
}

static void mmio_mapped(struct ck_test *t)
{
	const struct boot_info *bi = t->ctx->bi;
	struct pg_leaf l;

	if (cpuid(1).edx & BIT(9)) {
		u64 lapic = rdmsr(MSR_IA32_APIC_BASE) & ~0xfffULL;

		report(t, pg_lookup(lapic, &l) && l.cache == PG_CACHE_UC && l.pa == l.va,
		       "local APIC at 0x%llx mapped UC", (unsigned long long)lapic);
	}
	if (bi->fb.format != FB_NONE)
		report(t, pg_lookup(bi->fb.base, &l) && l.cache == PG_CACHE_WC &&
		       pg_lookup(bi->fb.base + bi->fb.size - 1, &l) && l.cache == PG_CACHE_WC,
		       "framebuffer 0x%llx+0x%llx mapped WC", (unsigned long long)bi->fb.base,
		       (unsigned long long)bi->fb.size);
	else
		ck_diag("no framebuffer to check");
	report(t, !pg_lookup(pg_max_phys() - SZ_4K, &l) || l.pa == l.va,
	       "nothing is mapped off-identity at the top of the physical space");
}

CK_SUITE(paging, 40,
	 CK_CASE(ram_mapped_identity),
	 CK_CASE(page_sizes),
	 CK_CASE(nx_and_wp),
	 CK_CASE(split_and_cache_types),
	 CK_CASE(split_before_attribute_change),
	 CK_CASE(large_pages_mtrr_uniform),
	 CK_CASE(mmio_mapped));
