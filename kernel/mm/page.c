// SPDX-License-Identifier: GPL-2.0-only
/*
 * page.c - page-frame sections, pfn_to_page() and the poison list (see page.h).
 */
#include "kernel/mm/page.h"

struct page_section {
	u64 start_pfn, nr;
	struct page *pages;
};

static struct page_section sections[PGMAP_MAX_SECTIONS];
static unsigned int nr_sections;

struct poison_log poison_log;
struct poison_naming poison_naming;
static bool consumed_known;
static u64 consumed_pfn;
int pgmap_add(u64 start_pfn, u64 nr, struct page *storage, u16 node)
{
	if (nr_sections == PGMAP_MAX_SECTIONS)
		return -1;
	for (u64 i = 0; i < nr; i++)
		storage[i] = (struct page){ .pfn = start_pfn + i, .node = node };
	sections[nr_sections++] = (struct page_section){ start_pfn, nr, storage };
	return 0;
}

void pgmap_reset(void)
{
	nr_sections = 0;
}

struct page *pfn_to_page(u64 pfn)
{
	for (unsigned int i = 0; i < nr_sections; i++)
		if (pfn - sections[i].start_pfn < sections[i].nr)
			return &sections[i].pages[pfn - sections[i].start_pfn];
	return NULL;
}

void memory_failure_queue(u64 pfn)
{
	struct page *p = pfn_to_page(pfn);

	for (unsigned int i = 0; i < poison_log.n; i++)
		if (poison_log.pfn[i] == pfn)
			return;		/* queued already (the #MC handler and the API both do) */
	if (p)
		p->flags |= PG_HWPOISON;
	if (poison_log.n == POISON_LOG_MAX) {
		for (unsigned int i = 1; i < POISON_LOG_MAX; i++)
			poison_log.pfn[i - 1] = poison_log.pfn[i];
		poison_log.n--;
	}
	poison_log.pfn[poison_log.n++] = pfn;
	poison_log.total++;
}

void memory_failure_consumed(u64 pfn)
{
	consumed_pfn = pfn;
	consumed_known = true;
}

u64 memory_failure_queue_copy(u64 first, u64 nr, u64 formula_pfn)
{
	struct poison_naming *n = &poison_naming;

	n->copies++;
	n->formula_pfn = formula_pfn;
	n->bank_known = consumed_known;
	n->bank_pfn = consumed_pfn;
	n->queued_pfn = formula_pfn;
	if (consumed_known && consumed_pfn - first < nr)
		n->queued_pfn = consumed_pfn;
	if (consumed_known && consumed_pfn != formula_pfn)
		n->disagreements++;
	consumed_known = false;
	memory_failure_queue(n->queued_pfn);
	return n->queued_pfn;
}
