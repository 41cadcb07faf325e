/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * page.h - page frames: struct page (pfn, NUMA node, flags), the sections that hold them, and
 * memory_failure_queue() with its poison list.
 *
 * Frames live in sections registered with pgmap_add(); a page's address is pfn << 12 (the
 * identity map in the image; on the host, a virtual page number). A folio is a run of pages
 * in one section. Plain C: built into the image and into host tests.
 */
#ifndef CK_MM_PAGE_H
#define CK_MM_PAGE_H

#include "kernel/include/page_types.h"
#include "kernel/include/types.h"

#define PG_HWPOISON	BIT(0)	/* on the poison list (memory_failure_queue) */
#define PG_RETIRED	BIT(1)	/* taken out of use by the soak (a miscompare): never touched */

struct page {
	u64 pfn;
	u16 node;
	u16 flags;
	u32 reserved;
};

struct folio {
	struct page *page;	/* first page; the rest follow in the same section */
	unsigned long nr;
};

static inline u64 page_to_pfn(const struct page *p)
{
	return p->pfn;
}

static inline void *page_address(const struct page *p)
{
	return (void *)(uintptr_t)(p->pfn << PAGE_SHIFT);
}

static inline struct page *folio_page(const struct folio *f, unsigned long i)
{
	return f->page + i;
}

static inline bool page_hwpoison(const struct page *p)
{
	return __atomic_load_n(&p->flags, __ATOMIC_ACQUIRE) & PG_HWPOISON;
}

#define PGMAP_MAX_SECTIONS	64

/* Register frames for pfns [start, start + nr) in @storage. Returns -1 when full. */
int pgmap_add(u64 start_pfn, u64 nr, struct page *storage, u16 node);
/*
 * Forget the section whose frames are @storage (the others keep their order); -1 when none
 * has them. Hosted code that unmaps a registered range calls it before the range's
 * addresses can come back registered again: the first section holding a pfn wins.
 */
int pgmap_del(const struct page *storage);
void pgmap_reset(void);
struct page *pfn_to_page(u64 pfn);

/*
 * memory_failure_queue(): pfns found poisoned (by the #MC handler or the copy APIs), the page
 * gets PG_HWPOISON when it has a frame. Several CPUs may queue at once, and the #MC handler
 * queues from exception context, so nothing here takes a lock: a frame's flag is set with
 * one atomic test-and-set (the CPU that sets it queues the page; the others see it queued),
 * and a log slot is reserved with one atomic add, written, then published in order (@n only
 * moves over whole slots). The log keeps the first POISON_LOG_MAX pages, in the order their
 * slots were reserved; @total counts every page queued. A page without a frame is looked up
 * in the log instead of its flag: two CPUs queueing the same such page at the very same
 * moment may both log it.
 */
#define POISON_LOG_MAX	64
struct poison_log {
	u64 pfn[POISON_LOG_MAX];
	unsigned int n;		/* whole entries, pfn[0 .. n) (at most POISON_LOG_MAX) */
	unsigned int reserved;	/* slots handed out (may pass POISON_LOG_MAX: not kept) */
	u8 ready[POISON_LOG_MAX];	/* slot written */
	u64 total;		/* queued since boot */
};
extern struct poison_log poison_log;
void memory_failure_queue(u64 pfn);

/*
 * A copy that consumed poison queues the page it stopped at. Its return value can name the
 * wrong page: rep movsb may stop up to 63 bytes before the poisoned byte, so a stop just
 * after a page boundary's 63 bytes names the page before. The #MC handler therefore notes
 * the page its bank named (memory_failure_consumed), and the copy queues through
 * memory_failure_queue_copy(), which keeps the bank's page when it lies in the copied range.
 * Linux (v3 of the seed patch) queues the return value's page; why we differ:
 * docs/design/machine-checks.md.
 *
 * The note is per CPU (the #MC and the copy that consumed the poison run on one CPU), so
 * CPUs recovering at the same moment each keep their own page. The counters below are
 * atomic; the last-copy fields are those of the last copy on any CPU.
 */
struct poison_naming {
	u64 copies;		/* copies that queued a page this way */
	u64 disagreements;	/* ... where the return value named another page than the bank */
	u64 formula_pfn;	/* the last copy's: what its return value names */
	u64 bank_pfn;		/* what the bank named (valid when bank_known) */
	bool bank_known;
	u64 queued_pfn;		/* what was queued */
};
extern struct poison_naming poison_naming;

void memory_failure_consumed(u64 pfn);
/* The copy from pfns [@first, @first + @nr) stopped on poison at @formula_pfn. */
u64 memory_failure_queue_copy(u64 first, u64 nr, u64 formula_pfn);

/* The frame flags of @p set atomically (another CPU may be setting others). */
static inline u16 page_flags_set(struct page *p, u16 flags)
{
	return __atomic_fetch_or(&p->flags, flags, __ATOMIC_ACQ_REL);
}

#ifdef CK_KERNEL
struct boot_info;
/* Frames for every run of adjacent RAM in the firmware map, with their NUMA node. */
void pages_setup(const struct boot_info *bi);
#endif

#endif
