// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_pages.c - the seed page APIs on real physical pages: batched and per-page folio
 * copies agree, copy_mc_highpages() derives the poisoned pfn from the return value when a
 * source page is not present (standing in for poison), marks it hwpoison and refuses it the
 * next time, and the huge-page orders clear and copy every subpage.
 */
#include "copy/ops.h"
#include "copy/pages.h"
#include "kernel/arch/bootmem.h"
#include "kernel/arch/paging.h"
#include "kernel/lib/string.h"
#include "ktest/lib/ctx.h"
#include "ktest/lib/ktap.h"

#define NPAGES	32

static unsigned long resched_calls;

static void count_resched(void)
{
	resched_calls++;
}

static bool get_folios(struct ck_test *t, struct folio *src, struct folio *dst)
{
	u64 s = bootmem_alloc(NPAGES * SZ_4K, SZ_4K), d = bootmem_alloc(NPAGES * SZ_4K, SZ_4K);

	if (!report(t, s && d, "allocate two %d-page folios", NPAGES))
		return false;
	*src = (struct folio){ pfn_to_page(s >> PAGE_SHIFT), NPAGES };
	*dst = (struct folio){ pfn_to_page(d >> PAGE_SHIFT), NPAGES };
	if (!report(t, src->page && dst->page, "their frames exist"))
		return false;
	for (u64 i = 0; i < NPAGES * SZ_4K; i++) {
		((u8 *)(uintptr_t)s)[i] = (u8)(i * 13 + (i >> 12));
		((u8 *)(uintptr_t)d)[i] = 0xdd;
	}
	page_api_cfg.cond_resched = count_resched;
	resched_calls = 0;
	return true;
}

static void folio_copies_agree(struct ck_test *t)
{
	struct folio s, d;

	if (!get_folios(t, &s, &d))
		return;
	folio_copy_per_page(&d, &s);
	report(t, !memcmp(page_address(d.page), page_address(s.page), NPAGES * SZ_4K) &&
	       resched_calls == NPAGES - 1, "per-page folio_copy (%lu reschedule points: "
	       "between pages, as Linux's folio_copy, none after the last)", resched_calls);
	clear_highpages_batched(d.page, NPAGES);
	folio_copy_batched(&d, &s);
	report(t, !memcmp(page_address(d.page), page_address(s.page), NPAGES * SZ_4K),
	       "batched folio_copy");
	clear_highpages(d.page, NPAGES);
	report(t, folio_mc_copy_batched(&d, &s) == 0 &&
	       !memcmp(page_address(d.page), page_address(s.page), NPAGES * SZ_4K),
	       "batched folio_mc_copy");
	report(t, folio_mc_copy_per_page(&d, &s) == 0, "per-page folio_mc_copy");
}

static void poisoned_pfn_from_return_value(struct ck_test *t)
{
	const unsigned long bad = 21;
	struct copy_dispatch saved = copy_ops.choice, forced = copy_ops.choice;
	struct folio s, d;
	u64 bad_pa;
	int r;

	if (!get_folios(t, &s, &d))
		return;
	if (saved.copy_mc == COPY_MC_MEMCPY) {
		/* As in Linux, plain memcpy would not survive the fault: use fragile here. */
		ck_diag("copy_mc_to_kernel is plain memcpy on this CPU (no ERMS, fragile off): "
			"not recoverable; this case uses copy_mc_fragile");
		forced.copy_mc = COPY_MC_FRAGILE;
		copy_ops_apply(&forced);
	}
	bad_pa = (u64)(uintptr_t)page_address(s.page + bad);
	pg_set_attr(bad_pa, bad_pa + SZ_4K, PG_CACHE(PG_CACHE_WB));
	memset(&poison_log, 0, sizeof(poison_log));
	r = copy_mc_highpages(d.page, s.page, NPAGES);
	pg_set_attr(bad_pa, bad_pa + SZ_4K, PG_RAM);
	report(t, r == -EHWPOISON, "copy_mc_highpages returned %d, want -EHWPOISON", r);
	report(t, poison_log.n == 1 && poison_log.pfn[0] == page_to_pfn(s.page) + bad,
	       "queued pfn 0x%llx = first pfn 0x%llx + %lu",
	       poison_log.n ? (unsigned long long)poison_log.pfn[0] : 0ULL,
	       (unsigned long long)page_to_pfn(s.page), bad);
	report(t, page_hwpoison(s.page + bad) && !page_hwpoison(s.page + bad - 1),
	       "exactly that page is marked hwpoison");
	report(t, !memcmp(page_address(d.page), page_address(s.page), bad * SZ_4K),
	       "the pages before it were copied");
	memset(page_address(d.page), 0xdd, NPAGES * SZ_4K);
	r = copy_mc_highpages(d.page, s.page, NPAGES);
	report(t, r == -EHWPOISON && ((u8 *)page_address(d.page))[0] == 0xdd,
	       "a marked source is refused before anything is copied");
	s.page[bad].flags = 0;
	copy_ops_apply(&saved);
}

static void huge_orders_cover_every_subpage(struct ck_test *t)
{
	struct folio s, d;

	if (!get_folios(t, &s, &d))
		return;
	for (int o = 0; o < 2; o++) {
		unsigned long nonzero = 0;

		folio_copy_huge(&d, &s, 9, (enum huge_order)o);
		report(t, !memcmp(page_address(d.page), page_address(s.page), NPAGES * SZ_4K),
		       "folio_copy_huge, %s order", o ? "sequential" : "target-last");
		folio_zero_huge(&d, 30, (enum huge_order)o);
		for (u64 i = 0; i < NPAGES * SZ_4K; i++)
			nonzero += ((u8 *)page_address(d.page))[i] != 0;
		report(t, nonzero == 0, "folio_zero_huge, %s order: %lu bytes left",
		       o ? "sequential" : "target-last", nonzero);
	}
}

CK_SUITE(pages, 90,
	 CK_CASE(folio_copies_agree),
	 CK_CASE(poisoned_pfn_from_return_value),
	 CK_CASE(huge_orders_cover_every_subpage));
