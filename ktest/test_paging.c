// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_paging.c - walk the kernel's page tables: every RAM range of the firmware map is
 * mapped 1:1, with only the page sizes this CPU allows and large pages where they fit;
 * W^X holds with NX and CR0.WP on; ranges can be split to 4 KiB and made not-present, UC
 * or WC through PAT, also across two large pages and inside a 1 GiB page, as the CPU's own
 * walk from CR3 sees it; the MMIO the kernel uses is mapped uncached or write-combining.
 */
#include "kernel/arch/bootmem.h"
#include "kernel/arch/memmap.h"
#include "kernel/arch/mtrr.h"
#include "kernel/arch/paging.h"
#include "kernel/arch/traps.h"
#include "kernel/include/probe.h"
#include "kernel/include/x86.h"
#include "kernel/platform/smp.h"
#include "ktest/lib/ctx.h"
#include "ktest/lib/ktap.h"

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

/*
 * The page tables as the CPU walks them (SDM vol. 3, 4.5 "4-level paging"), read from CR3
 * without the kernel's own lookup: entry bits, the memory type through IA32_PAT as the
 * hardware holds it.
 */
#define HW_P		BIT(0)
#define HW_RW		BIT(1)
#define HW_PWT		BIT(3)
#define HW_PCD		BIT(4)
#define HW_PS		BIT(7)		/* in a PDPT or PD entry: this entry maps a page */
#define HW_PAT_4K	BIT(7)		/* in a PT entry */
#define HW_PAT_LARGE	BIT(12)		/* in a PDPT or PD entry that maps a page */
#define HW_NX		BIT(63)
#define HW_ADDR		0x000ffffffffff000ULL
#define HW_TYPE_UC	0		/* IA32_PAT type encodings */
#define HW_TYPE_WB	6

struct hw_leaf {
	int level;			/* 1: 4 KiB, 2: 2 MiB, 3: 1 GiB; 0: not mapped */
	u64 entry, pa;
	unsigned int type;		/* memory type from IA32_PAT */
};

static struct hw_leaf hw_walk(u64 va, u64 pat_msr)
{
	u64 e = read_cr3();
	struct hw_leaf l = { 0 };

	for (int level = 4; level >= 1; level--) {
		u64 *table = (u64 *)(uintptr_t)(e & HW_ADDR);
		unsigned int shift = 12 + 9 * (level - 1);

		e = table[(va >> shift) & 511];
		if (!(e & HW_P))
			return l;
		if (level == 1 || (level <= 3 && (e & HW_PS))) {
			u64 pat = level == 1 ? HW_PAT_4K : HW_PAT_LARGE;
			unsigned int idx = ((e & HW_PWT) ? 1 : 0) | ((e & HW_PCD) ? 2 : 0) |
					   ((e & pat) ? 4 : 0);

			l.level = level;
			l.entry = e;
			l.pa = (e & HW_ADDR & ~((1ULL << shift) - 1)) | (va & ((1ULL << shift) - 1));
			l.type = (pat_msr >> (8 * idx)) & 7;
			return l;
		}
	}
	return l;
}

static int hw_level(u64 va)
{
	return hw_walk(va, rdmsr(MSR_IA32_PAT)).level;
}

struct hw_count {
	u64 leaves[4];			/* by level */
	u64 bad;			/* pages not identity, not RW+NX, or of the wrong type */
	u64 first_bad;
};

/* Walk every 4 KiB page of [start, end): type UC inside [uc_start, uc_end), WB elsewhere. */
static void hw_check(struct hw_count *c, u64 start, u64 end, u64 uc_start, u64 uc_end)
{
	u64 pat = rdmsr(MSR_IA32_PAT);
	bool nx = cpuid(0x80000001).edx & BIT(20);

	*c = (struct hw_count){ 0 };
	for (u64 va = start; va < end; va += SZ_4K) {
		struct hw_leaf l = hw_walk(va, pat);
		unsigned int want = va >= uc_start && va < uc_end ? HW_TYPE_UC : HW_TYPE_WB;

		if (l.level && !(va & ((1ULL << (12 + 9 * (l.level - 1))) - 1)))
			c->leaves[l.level]++;
		if (!l.level || l.pa != va || l.type != want || !(l.entry & HW_RW) ||
		    (nx && !(l.entry & HW_NX))) {
			if (!c->bad++)
				c->first_bad = va;
		}
	}
}

/*
 * A range across the boundary of two 2 MiB pages: both are split to 4 KiB pages, the range
 * and only the range changes type, every page stays 1:1 (Linux's split at both ends).
 */
static void set_attr_across_two_large_pages(struct ck_test *t)
{
	u64 base = bootmem_alloc(2 * SZ_2M, SZ_2M), start, end;
	struct hw_count c;

	if (!report(t, base, "allocate 4 MiB"))
		return;
	if (hw_level(base) != 2 || hw_level(base + SZ_2M) != 2) {
		ck_skip(t, "the buffer is not two 2 MiB pages here (levels %d, %d)",
			hw_level(base), hw_level(base + SZ_2M));
		return;
	}
	start = base + SZ_2M - 3 * SZ_4K;
	end = base + SZ_2M + 5 * SZ_4K;
	report(t, pg_set_attr(start, end, PG_MMIO) == 0, "set 8 pages across the edge UC");
	hw_check(&c, base, base + 2 * SZ_2M, start, end);
	report(t, c.leaves[2] == 0 && c.leaves[1] == 1024,
	       "both 2 MiB pages split to 4 KiB pages: %llu x 4 KiB, %llu x 2 MiB leaves",
	       (unsigned long long)c.leaves[1], (unsigned long long)c.leaves[2]);
	report(t, c.bad == 0, "%llu pages wrong (first 0x%llx): the 8 UC, the rest WB, all 1:1 "
	       "and writable", (unsigned long long)c.bad, (unsigned long long)c.first_bad);
	report(t, pg_set_attr(start, end, PG_RAM) == 0, "back to WB");
	hw_check(&c, base, base + 2 * SZ_2M, 0, 0);
	report(t, c.bad == 0, "%llu pages not WB and 1:1 after the change back (first 0x%llx)",
	       (unsigned long long)c.bad, (unsigned long long)c.first_bad);
}

/* The highest 1 GiB leaf of RAM above 1 GiB with 4 MiB free in it; 0 when there is none. */
static u64 free_in_gig_leaf(u64 *gib)
{
	u64 *pml4 = (u64 *)(uintptr_t)(read_cr3() & HW_ADDR);

	for (int i = 511; i >= 0; i--) {
		u64 *pdpt = (u64 *)(uintptr_t)(pml4[i] & HW_ADDR);

		if (!(pml4[i] & HW_P))
			continue;
		for (int j = 511; j >= 0; j--) {
			u64 va = ((u64)i << 39) | ((u64)j << 30), buf;

			if ((pdpt[j] & (HW_P | HW_PS)) != (HW_P | HW_PS) || va < SZ_1G ||
			    hw_walk(va, rdmsr(MSR_IA32_PAT)).type != HW_TYPE_WB)
				continue;
			buf = bootmem_alloc_in(2 * SZ_2M, SZ_2M, va, va + SZ_1G);
			if (buf) {
				*gib = va;
				return buf;
			}
		}
	}
	return 0;
}

/*
 * The server case: a few pages inside a 1 GiB page above 1 GiB. The 1 GiB page becomes 512
 * 2 MiB pages, the one holding the range 512 4 KiB pages, all 1:1 (no 4 KiB stride where
 * 2 MiB belongs), and only the range changes type.
 */
static void set_attr_in_1g_leaf(struct ck_test *t)
{
	u64 gib = 0, buf, start, end;
	struct hw_count c;

	if (!pg_gbpages()) {
		ck_skip(t, "no pdpe1gb: the identity map has no 1 GiB pages");
		return;
	}
	buf = free_in_gig_leaf(&gib);
	if (!buf) {
		ck_skip(t, "no 1 GiB page of RAM above 1 GiB with free memory (boot with -m 6G)");
		return;
	}
	start = buf + SZ_2M + 5 * SZ_4K;
	end = start + 3 * SZ_4K;
	ck_diag("1 GiB page at 0x%llx, range [0x%llx, 0x%llx)", (unsigned long long)gib,
		(unsigned long long)start, (unsigned long long)end);
	report(t, pg_set_attr(start, end, PG_MMIO) == 0, "set 3 pages UC");
	report(t, hw_level(gib) == 2, "the 1 GiB page is split (the leaf at 0x%llx is now at "
	       "level %d)", (unsigned long long)gib, hw_level(gib));
	hw_check(&c, gib, gib + SZ_1G, start, end);
	report(t, c.leaves[2] == 511 && c.leaves[1] == 512 && c.leaves[3] == 0,
	       "511 x 2 MiB and 512 x 4 KiB leaves: %llu, %llu (and %llu x 1 GiB)",
	       (unsigned long long)c.leaves[2], (unsigned long long)c.leaves[1],
	       (unsigned long long)c.leaves[3]);
	report(t, c.bad == 0, "%llu pages wrong (first 0x%llx): the 3 UC, the rest WB, all 1:1 "
	       "and writable", (unsigned long long)c.bad, (unsigned long long)c.first_bad);
	report(t, pg_set_attr(start, end, PG_RAM) == 0, "back to WB");
	hw_check(&c, gib, gib + SZ_1G, 0, 0);
	report(t, c.bad == 0, "%llu pages not WB and 1:1 after the change back (first 0x%llx)",
	       (unsigned long long)c.bad, (unsigned long long)c.first_bad);
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
	 CK_CASE(set_attr_across_two_large_pages),
	 CK_CASE(set_attr_in_1g_leaf),
	 CK_CASE(large_pages_mtrr_uniform),
	 CK_CASE(mmio_mapped));
