// SPDX-License-Identifier: GPL-2.0-only
/*
 * page.c - page-frame sections, pfn_to_page() and the poison list (see page.h), safe for
 * several CPUs recovering at once: no lock (the #MC handler queues too), atomics only.
 */
#include "kernel/mm/page.h"

#ifdef CK_KERNEL
#include "kernel/arch/percpu.h"
#endif

struct page_section {
	u64 start_pfn, nr;
	struct page *pages;
};

static struct page_section sections[PGMAP_MAX_SECTIONS];
static unsigned int nr_sections;

struct poison_log poison_log;
struct poison_naming poison_naming;

/* What this CPU's #MC handler last said the bank named, for the copy it interrupted. */
struct consumed_note {
	u64 pfn;
	bool known;
};

#ifdef CK_KERNEL
static DEFINE_PER_CPU(struct consumed_note, consumed_notes);

static struct consumed_note *consumed_here(void)
{
	return this_cpu_ptr(&consumed_notes);
}
#else
/* Host programs that use it (the host tests) run it on one thread. */
static struct consumed_note host_consumed;

static struct consumed_note *consumed_here(void)
{
	return &host_consumed;
}
#endif

int pgmap_add(u64 start_pfn, u64 nr, struct page *storage, u16 node)
{
	if (nr_sections == PGMAP_MAX_SECTIONS)
		return -1;
	for (u64 i = 0; i < nr; i++)
		storage[i] = (struct page){ .pfn = start_pfn + i, .node = node };
	sections[nr_sections++] = (struct page_section){ start_pfn, nr, storage };
	return 0;
}

int pgmap_del(const struct page *storage)
{
	for (unsigned int i = 0; i < nr_sections; i++)
		if (sections[i].pages == storage) {
			for (unsigned int j = i + 1; j < nr_sections; j++)
				sections[j - 1] = sections[j];
			nr_sections--;
			return 0;
		}
	return -1;
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

static bool on_log(u64 pfn)
{
	unsigned int n = __atomic_load_n(&poison_log.n, __ATOMIC_ACQUIRE);

	for (unsigned int i = 0; i < n; i++)
		if (poison_log.pfn[i] == pfn)
			return true;
	return false;
}

/* Move n over every slot written in order (any writer may: none waits for another). */
static void log_publish(void)
{
	struct poison_log *l = &poison_log;
	unsigned int n;

	/*
	 * A full fence between this writer's ready[] store and its loads of @n and ready[]: two
	 * writers may each store their own flag and then read the other's (a store-then-load
	 * pattern that release/acquire alone, even on x86, lets both see the old value), and then
	 * neither would move @n past the other's slot. With the fence at least one sees both.
	 */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	n = __atomic_load_n(&l->n, __ATOMIC_ACQUIRE);
	while (n < POISON_LOG_MAX && __atomic_load_n(&l->ready[n], __ATOMIC_ACQUIRE)) {
		/* On failure @n is reloaded: another writer moved it; look again from there. */
		if (__atomic_compare_exchange_n(&l->n, &n, n + 1, false, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			n++;
	}
}

void memory_failure_queue(u64 pfn)
{
	struct page *p = pfn_to_page(pfn);
	unsigned int slot;

	/* Queued already (the #MC handler and the API both do, or another CPU did). */
	if (p && (page_flags_set(p, PG_HWPOISON) & PG_HWPOISON))
		return;
	if (on_log(pfn))
		return;		/* a frame whose flag a test cleared, or no frame at all */
	__atomic_add_fetch(&poison_log.total, 1, __ATOMIC_RELAXED);
	slot = __atomic_fetch_add(&poison_log.reserved, 1, __ATOMIC_ACQ_REL);
	if (slot >= POISON_LOG_MAX)
		return;		/* counted in total, not kept */
	poison_log.pfn[slot] = pfn;
	__atomic_store_n(&poison_log.ready[slot], 1, __ATOMIC_RELEASE);
	log_publish();
}

void memory_failure_consumed(u64 pfn)
{
	struct consumed_note *c = consumed_here();

	c->pfn = pfn;
	c->known = true;
}

u64 memory_failure_queue_copy(u64 first, u64 nr, u64 formula_pfn)
{
	struct poison_naming *n = &poison_naming;
	struct consumed_note *c = consumed_here();
	bool known = c->known;
	u64 bank = c->pfn, queued = formula_pfn;

	if (known && bank - first < nr)
		queued = bank;
	__atomic_add_fetch(&n->copies, 1, __ATOMIC_RELAXED);
	if (known && bank != formula_pfn)
		__atomic_add_fetch(&n->disagreements, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&n->formula_pfn, formula_pfn, __ATOMIC_RELAXED);
	__atomic_store_n(&n->bank_known, known, __ATOMIC_RELAXED);
	__atomic_store_n(&n->bank_pfn, bank, __ATOMIC_RELAXED);
	__atomic_store_n(&n->queued_pfn, queued, __ATOMIC_RELAXED);
	c->known = false;
	memory_failure_queue(queued);
	return queued;
}
