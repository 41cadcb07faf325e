/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * copy_pages.h - the copy_pages preset (bench/copy_pages.c): the copy_pages() CANDIDATES
 * (copy/dispatch.h; Linux has no such function) against the per-page loops and the RFC's
 * bulk memcpy; each row's answers to the batching RFC's two questions come from
 * bench/copy_pages_answer.h.
 *
 * Forms (enum cp_form), each timed against its API's per-page loop (folio_copy: copy_page
 * per page; folio_mc_copy: copy_mc_to_kernel per page) with the comparison method of
 * bench/harness.h:
 *
 *   CP_BULK        folio_copy, one memcpy() (the RFC's naive batch)
 *   CP_PAGES       folio_copy over candidate copy_pages() (keyed as clear_pages: ERMS)
 *   CP_PAGES_FSRM  folio_copy over candidate copy_pages(), keyed on FSRM
 *   CP_MEMCPY_PA   folio_copy, one memcpy() with the candidate page-aligned fast path
 *   CP_MC_V3       folio_mc_copy, the v3 patch's one copy_mc_to_kernel() (seed 002)
 *   CP_MC_PAGES    folio_mc_copy over candidate copy_mc_pages()
 */
#ifndef CK_BENCH_COPY_PAGES_H
#define CK_BENCH_COPY_PAGES_H

#include "bench/harness.h"
#include "bench/platform.h"

unsigned int preset_copy_pages(const struct bench_env *env, const struct bench_platform *p);

#endif
