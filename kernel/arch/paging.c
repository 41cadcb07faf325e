// SPDX-License-Identifier: GPL-2.0-only
/*
 * paging.c - build and change the kernel's 4-level identity page tables.
 *
 * Levels are numbered as in the manuals' walk: 4 = PML4 (512 GiB per entry), 3 = PDPT
 * (1 GiB), 2 = PD (2 MiB), 1 = PT (4 KiB). Tables are addressed through the identity map, so
 * a table's physical address is also its pointer.
 */
#include "kernel/arch/bootmem.h"
#include "kernel/arch/cpuid.h"
#include "kernel/arch/memmap.h"
#include "kernel/arch/mtrr.h"
#include "kernel/arch/paging.h"
#include "kernel/console/printk.h"
#include "kernel/include/apicdef.h"
#include "kernel/include/x86.h"
#include "kernel/lib/string.h"

#define PTE_P		BIT(0)
#define PTE_RW		BIT(1)
#define PTE_PWT		BIT(3)
#define PTE_PCD		BIT(4)
#define PTE_PS		BIT(7)
#define PTE_PAT_4K	BIT(7)
#define PTE_PAT_BIG	BIT(12)
#define PTE_NX		BIT(63)
#define PTE_ADDR	0x000ffffffffff000ULL
#define PTE_IDENT	BIT(9)	/* software bit: "this not-present leaf is an identity mapping" */

static u64 *pml4;
static bool gbpages, nx_ok;
static u64 max_phys;
static u64 nr_tables;
static u64 nr_mtrr_refused;	/* large leaves not used because MTRR types differ inside */

static inline u64 level_size(int level)
{
	return 1ULL << (12 + 9 * (level - 1));
}

static inline unsigned int level_index(u64 va, int level)
{
	return (va >> (12 + 9 * (level - 1))) & 511;
}

bool pg_gbpages(void)
{
	return gbpages;
}

u64 pg_max_phys(void)
{
	return max_phys;
}

static u64 cache_bits(enum pg_cache c, int level)
{
	u64 pat = level == 1 ? PTE_PAT_4K : PTE_PAT_BIG;
	u64 b = 0;

	if (c & 1)
		b |= PTE_PWT;
	if (c & 2)
		b |= PTE_PCD;
	if (c & 4)
		b |= pat;
	return b;
}

static enum pg_cache cache_of(u64 pte, int level)
{
	u64 pat = level == 1 ? PTE_PAT_4K : PTE_PAT_BIG;

	return (enum pg_cache)(((pte & PTE_PWT) ? 1 : 0) | ((pte & PTE_PCD) ? 2 : 0) |
			       ((pte & pat) ? 4 : 0));
}

static u64 leaf_entry(u64 pa, u64 attr, int level)
{
	u64 e = (pa & PTE_ADDR) | cache_bits(PG_CACHE_OF(attr), level);

	e |= (attr & PG_PRESENT) ? PTE_P : PTE_IDENT;
	if (attr & PG_WRITE)
		e |= PTE_RW;
	if (!(attr & PG_EXEC) && nx_ok)
		e |= PTE_NX;
	if (level > 1)
		e |= PTE_PS;
	return e;
}

static u64 attr_of(u64 pte, int level)
{
	u64 a = PG_CACHE(cache_of(pte, level));

	if (pte & PTE_P)
		a |= PG_PRESENT;
	if (pte & PTE_RW)
		a |= PG_WRITE;
	if (!(pte & PTE_NX))
		a |= PG_EXEC;
	return a;
}

static bool is_leaf(u64 e, int level)
{
	if (level == 1)
		return e & (PTE_P | PTE_IDENT);
	return (e & PTE_PS) && (e & (PTE_P | PTE_IDENT));
}

static bool is_table(u64 e, int level)
{
	return level > 1 && (e & PTE_P) && !(e & PTE_PS);
}

static u64 *alloc_table(void)
{
	u64 pa = bootmem_alloc(SZ_4K, SZ_4K);

	if (!pa)
		return NULL;
	memset((void *)(uintptr_t)pa, 0, SZ_4K);
	nr_tables++;
	return (u64 *)(uintptr_t)pa;
}

/* Replace the large leaf in *@slot by a table of 512 leaves one level down, same attributes. */
static u64 *split_leaf(u64 *slot, int level)
{
	u64 attr = attr_of(*slot, level), base = *slot & PTE_ADDR & ~(level_size(level) - 1);
	u64 *t = alloc_table();

	if (!t)
		return NULL;
	if (!(*slot & PTE_P))
		attr &= ~PG_PRESENT;
	for (unsigned int i = 0; i < 512; i++)
		t[i] = leaf_entry(base + i * level_size(level - 1), attr, level - 1);
	*slot = (u64)(uintptr_t)t | PTE_P | PTE_RW;
	return t;
}

static bool leaf_allowed(int level)
{
	return level == 1 || level == 2 || (level == 3 && gbpages);
}

/*
 * A large leaf must not cover more than one MTRR memory type: the SDM leaves the result
 * undefined (Linux refuses such a huge mapping too). Smaller leaves are used instead.
 */
static bool mtrr_uniform(u64 base, int level)
{
	if (level == 1)
		return true;
	if (mtrr_range_type(mtrr_read(), base, base + level_size(level)) != MTRR_MIXED)
		return true;
	nr_mtrr_refused++;
	return false;
}

/*
 * Map [start, end) below @table with @attr. With @split false a large leaf that the range
 * covers only in part is refused instead of split: pg_set_attr has split the edges already,
 * so meeting one means a size and a type would change in one step.
 */
static int map_level(u64 *table, int level, u64 start, u64 end, u64 attr, bool split)
{
	u64 size = level_size(level);

	while (start < end) {
		u64 base = start & ~(size - 1), next = base + size;
		u64 *slot = &table[level_index(start, level)];
		u64 *child;
		int ret;

		if (next > end || next < base)
			next = end;
		if (start == base && next == base + size && leaf_allowed(level) &&
		    !is_table(*slot, level) && mtrr_uniform(base, level)) {
			*slot = leaf_entry(base, attr, level);
			start = next;
			continue;
		}
		if (level == 1)
			return -1;	/* unaligned 4 KiB range: caller's bug */
		if (is_table(*slot, level))
			child = (u64 *)(uintptr_t)(*slot & PTE_ADDR);
		else if (is_leaf(*slot, level))
			child = split ? split_leaf(slot, level) : NULL;
		else if ((child = alloc_table()) != NULL)
			*slot = (u64)(uintptr_t)child | PTE_P | PTE_RW;
		if (!child)
			return -1;
		ret = map_level(child, level - 1, start, next, attr, split);
		if (ret)
			return ret;
		start = next;
	}
	return 0;
}

static int map_range(u64 start, u64 end, u64 attr, bool split)
{
	start = ALIGN_DOWN(start, SZ_4K);
	end = ALIGN_UP(end, SZ_4K);
	if (end > max_phys)
		end = max_phys;
	if (start >= end)
		return 0;
	return map_level(pml4, 4, start, end, attr, split);
}

int pg_map(u64 start, u64 end, u64 attr)
{
	return map_range(start, end, attr, true);
}

static void flush_tlb(void)
{
	write_cr3(read_cr3());
}

/* Split the large leaf around @addr, keeping its attributes, until @addr is a leaf edge. */
static int split_at(u64 addr)
{
	for (;;) {
		u64 *t = pml4, *slot = NULL;
		int level;

		for (level = 4; level >= 1; level--) {
			slot = &t[level_index(addr, level)];
			if (!is_table(*slot, level))
				break;
			t = (u64 *)(uintptr_t)(*slot & PTE_ADDR);
		}
		if (level <= 1 || !is_leaf(*slot, level) || !(addr & (level_size(level) - 1)))
			return 0;
		if (!split_leaf(slot, level))
			return -1;
	}
}

int pg_set_attr(u64 start, u64 end, u64 attr)
{
	struct pg_leaf before;
	bool type_change;
	int ret;

	start = ALIGN_DOWN(start, SZ_4K);
	end = ALIGN_UP(end, SZ_4K);
	type_change = pg_lookup(start, &before) && before.cache != PG_CACHE_OF(attr);
	/*
	 * As Linux does: first split the large leaves at the edges with their old attributes
	 * and flush, then change the attributes and flush again. Changing size and attributes
	 * in one step would leave TLB entries of two sizes and two types for one address,
	 * which the SDM calls undefined.
	 */
	if (split_at(start) || split_at(end))
		return -1;
	flush_tlb();
	ret = map_range(start, end, attr, false);
	flush_tlb();
	if (type_change)
		wbinvd();
	return ret;
}

bool pg_set_present_4k(u64 va, bool present)
{
	u64 *t = pml4, e;

	for (int level = 4; level > 1; level--) {
		e = t[level_index(va, level)];
		if (!is_table(e, level))
			return false;
		t = (u64 *)(uintptr_t)(e & PTE_ADDR);
	}
	e = t[level_index(va, 1)];
	if (!is_leaf(e, 1))
		return false;
	e = present ? (e | PTE_P) & ~PTE_IDENT : (e & ~PTE_P) | PTE_IDENT;
	__atomic_store_n(&t[level_index(va, 1)], e, __ATOMIC_RELEASE);
	invlpg(va);
	return true;
}

bool pg_lookup(u64 va, struct pg_leaf *leaf)
{
	u64 *t = pml4;

	for (int level = 4; level >= 1; level--) {
		u64 e = t[level_index(va, level)];

		if (is_leaf(e, level)) {
			u64 size = level_size(level);

			leaf->size = size;
			leaf->va = va & ~(size - 1);
			leaf->pa = e & PTE_ADDR & ~(size - 1);
			leaf->pte = e;
			leaf->present = e & PTE_P;
			leaf->writable = e & PTE_RW;
			leaf->exec = !(e & PTE_NX);
			leaf->cache = cache_of(e, level);
			return leaf->present;
		}
		if (!is_table(e, level))
			return false;
		t = (u64 *)(uintptr_t)(e & PTE_ADDR);
	}
	return false;
}

static bool walk_level(u64 *t, int level, u64 va_base,
		       bool (*fn)(const struct pg_leaf *, void *), void *ctx)
{
	for (unsigned int i = 0; i < 512; i++) {
		u64 e = t[i], va = va_base + i * level_size(level);

		if (level == 4 && i == level_index(PG_SPACE_BASE, 4))
			continue;	/* the test address space is not the identity map */
		if (is_table(e, level)) {
			if (!walk_level((u64 *)(uintptr_t)(e & PTE_ADDR), level - 1, va, fn, ctx))
				return false;
		} else if (is_leaf(e, level) && (e & PTE_P)) {
			struct pg_leaf l = {
				.va = va, .pa = e & PTE_ADDR & ~(level_size(level) - 1),
				.size = level_size(level), .pte = e, .present = true,
				.writable = e & PTE_RW, .exec = !(e & PTE_NX),
				.cache = cache_of(e, level),
			};
			if (!fn(&l, ctx))
				return false;
		}
	}
	return true;
}

void pg_walk(bool (*fn)(const struct pg_leaf *leaf, void *ctx), void *ctx)
{
	walk_level(pml4, 4, 0, fn, ctx);
}

static bool count_leaf(const struct pg_leaf *l, void *ctx)
{
	struct pg_stats *st = ctx;

	if (l->size == SZ_1G)
		st->leaves_1g++;
	else if (l->size == SZ_2M)
		st->leaves_2m++;
	else
		st->leaves_4k++;
	st->mapped_bytes += l->size;
	return true;
}

void pg_stats(struct pg_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->tables = nr_tables;
	st->mtrr_refused = nr_mtrr_refused;
	pg_walk(count_leaf, st);
}

/* ---- the test address space (PML4 entry 384) ---------------------------------------- */

static int size_level(u64 size)
{
	if (size == SZ_4K)
		return 1;
	if (size == SZ_2M)
		return 2;
	return size == SZ_1G && gbpages ? 3 : 0;
}

static bool in_space(u64 va, u64 size)
{
	return va >= PG_SPACE_BASE && va - PG_SPACE_BASE < PG_SPACE_SIZE &&
	       PG_SPACE_SIZE - (va - PG_SPACE_BASE) >= size && !(va & (size - 1));
}

/*
 * The slot of the leaf of @level for @va in the window, tables made on the way when
 * @make; NULL when a table is missing (and not made) or a larger leaf is in the way.
 */
static u64 *space_slot(u64 va, int level, bool make)
{
	u64 *t = pml4;

	for (int l = 4; l > level; l--) {
		u64 *slot = &t[level_index(va, l)];

		if (!is_table(*slot, l)) {
			if (*slot || !make)
				return NULL;
			t = alloc_table();
			if (!t)
				return NULL;
			*slot = (u64)(uintptr_t)t | PTE_P | PTE_RW;
			continue;
		}
		t = (u64 *)(uintptr_t)(*slot & PTE_ADDR);
	}
	return &t[level_index(va, level)];
}

int pg_space_map(u64 va, u64 pa, u64 size, u64 attr)
{
	int level = size_level(size);
	u64 *slot;

	if (!level || !in_space(va, size) || (pa & (size - 1)) || pa + size > max_phys ||
	    !(attr & PG_PRESENT) || !mtrr_uniform(pa, level))
		return -1;
	slot = space_slot(va, level, true);
	if (!slot || *slot)
		return -1;
	__atomic_store_n(slot, leaf_entry(pa, attr, level), __ATOMIC_RELEASE);
	return 0;
}

int pg_space_unmap(u64 va, u64 size, u64 *pa)
{
	int level = size_level(size);
	u64 *slot, e;

	if (!level || !in_space(va, size))
		return -1;
	slot = space_slot(va, level, false);
	if (!slot || !is_leaf(*slot, level) || !(*slot & PTE_P))
		return -1;
	e = __atomic_exchange_n(slot, 0, __ATOMIC_ACQ_REL);
	if (pa)
		*pa = e & PTE_ADDR & ~(size - 1);
	return 0;
}

extern char ImageBase[], _text[], _etext[], _end[];

/* Map RAM as one run per stretch of adjacent RAM entries, so large pages are not cut. */
static void map_ram_run(u64 start, u64 end, void *ctx)
{
	int *err = ctx;

	if (pg_map(start, end, PG_RAM))
		*err = -1;
}

/* The image: text read-only and executable, the rest (data, tables) no-execute. */
static int map_image(const struct boot_info *bi)
{
	u64 text = (u64)(uintptr_t)_text, etext = ALIGN_UP((u64)(uintptr_t)_etext, SZ_4K);

	if (pg_map((u64)(uintptr_t)ImageBase, text, PG_RAM) ||
	    pg_map(text, etext, PG_PRESENT | PG_EXEC | PG_CACHE(PG_CACHE_WB)) ||
	    pg_map(etext, bi->image_base + bi->image_size, PG_RAM))
		return -1;
	return 0;
}

/* Everything but RAM: MMIO and runtime code from the map, the framebuffer, the local APIC. */
static int map_devices(const struct boot_info *bi)
{
	for (u32 i = 0; i < bi->nr_mem; i++) {
		const struct mem_range *r = &bi->mem[i];
		u64 end = r->base + r->pages * SZ_4K;

		if (r->type == MEM_MMIO && pg_map(r->base, end, PG_MMIO))
			return -1;
		if (r->type == MEM_RUNTIME_CODE && pg_map(r->base, end, PG_RAM | PG_EXEC))
			return -1;
	}
	if (bi->fb.format != FB_NONE &&
	    pg_map(bi->fb.base, bi->fb.base + bi->fb.size,
		   PG_PRESENT | PG_WRITE | PG_CACHE(PG_CACHE_WC)))
		return -1;
	if (cpu_has(X86_FEATURE_APIC)) {
		u64 lapic = apic_base_addr(rdmsr(MSR_IA32_APIC_BASE), cpu_phys_bits());

		if (pg_map(lapic, lapic + SZ_4K, PG_MMIO))
			return -1;
	}
	return 0;
}

/* Switch to the new tables; each write that can stop a CPU is named first. */
static void paging_enable(void)
{
	printk("cpu: IA32_PAT to Linux's layout (WC at index 1)\n");
	wrmsr(MSR_IA32_PAT, PAT_LINUX);
	if (nx_ok) {
		printk("cpu: EFER.NXE on (no-execute pages)\n");
		wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_NXE);
	}
	printk("cpu: CR3 to the kernel's page tables\n");
	write_cr3((u64)(uintptr_t)pml4);
	printk("cpu: CR0.WP on (read-only pages hold in ring 0)\n");
	write_cr0(read_cr0() | CR0_WP);
	wbinvd();
}

bool paging_init(const struct boot_info *bi)
{
	int err = 0;

	gbpages = cpu_has(X86_FEATURE_GBPAGES);
	nx_ok = cpu_has(X86_FEATURE_NX);
	max_phys = 1ULL << cpu_phys_bits();
	mtrr_read();
	pml4 = alloc_table();
	if (!pml4)
		return false;
	memmap_for_each_ram_run(bi, map_ram_run, &err);
	if (err || map_devices(bi) || map_image(bi))
		return false;
	paging_enable();
	return true;
}
