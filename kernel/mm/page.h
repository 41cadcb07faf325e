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

#define PG_HWPOISON	BIT(0)

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
	return p->flags & PG_HWPOISON;
}

#define PGMAP_MAX_SECTIONS	64

/* Register frames for pfns [start, start + nr) in @storage. Returns -1 when full. */
int pgmap_add(u64 start_pfn, u64 nr, struct page *storage, u16 node);
void pgmap_reset(void);
struct page *pfn_to_page(u64 pfn);

/*
 * memory_failure_queue(): pfns found poisoned (by the #MC handler or the copy APIs), most
 * recent last; the page gets PG_HWPOISON when it has a frame.
 */
#define POISON_LOG_MAX	64
struct poison_log {
	u64 pfn[POISON_LOG_MAX];
	unsigned int n;		/* entries held (at most POISON_LOG_MAX) */
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
 * Linux (v3 of the seed patch) queues the return value's page; README says why we differ.
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

#ifdef CK_KERNEL
struct boot_info;
/* Frames for every run of adjacent RAM in the firmware map, with their NUMA node. */
void pages_setup(const struct boot_info *bi);
#endif

#endif
