// SPDX-License-Identifier: GPL-2.0-only
/*
 * migrate_copy.c - mig_copy_folio(): the migrate presets' copy forms over copy/pages.h's
 * folio APIs (bench/migrate_copy.h).
 */
#include "bench/migrate_copy.h"
#include "copy/pages.h"

int mig_copy_folio(enum mig_copy c, struct folio *dst, struct folio *src)
{
	switch (c) {
	case MIG_FC_PER_PAGE:
		folio_copy_per_page(dst, src);
		return 0;
	case MIG_FC_BATCHED:
		folio_copy_batched(dst, src);
		return 0;
	case MIG_MC_PER_PAGE:
		return folio_mc_copy_per_page(dst, src);
	default:
		return folio_mc_copy_batched(dst, src);
	}
}
