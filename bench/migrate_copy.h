/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * migrate_copy.h - one folio copied by one of the migrate preset's four copy forms
 * (enum mig_copy: folio_copy and folio_mc_copy, per page and batched), for the image's
 * preset (bench/migrate.c) and the hosted ones (host/bench/mig.c, host/bench/movep.c).
 */
#ifndef CK_BENCH_MIGRATE_COPY_H
#define CK_BENCH_MIGRATE_COPY_H

#include "bench/migrate_calc.h"
#include "kernel/mm/page.h"

/* @src to @dst with form @c: 0, or what folio_mc_copy returned (-EHWPOISON on poison). */
int mig_copy_folio(enum mig_copy c, struct folio *dst, struct folio *src);

#endif
