/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cases.h - what the presets (bench/presets.c, bench/prims.c) share to build and run their
 * cases: folios on NUMA nodes holding the data of bench/data.h, the node pairs, and a
 * comparison measured (from a CPU of the source node, as the seed pinned its thread) and
 * printed as a table row (bench/table.h).
 */
#ifndef CK_BENCH_CASES_H
#define CK_BENCH_CASES_H

#include "bench/data.h"
#include "bench/harness.h"
#include "bench/platform.h"
#include "bench/table.h"

#define CASE(a, p, b, f, c)						\
	((struct bench_case){ .api = (a), .primitive = (p), .bytes = (b), .fn = (f), .ctx = (c) })

extern const char *const case_node_names[BENCH_MAX_NODES];

/* Folios of @bytes: the source (random data) on node @sn, the destination on @dn. */
bool case_folios_on(const struct bench_platform *p, u64 bytes, unsigned int sn,
		    unsigned int dn, struct folio *d, struct folio *s);
/* The same over buffers the caller has (the run's large ones): @src gets random data. */
bool case_folios_at(const struct bench_platform *p, u64 bytes, void *src, void *dst,
		    struct folio *d, struct folio *s);
/* Every ordered node pair into @dir, node0->node0 first; returns how many. */
unsigned int case_directions(const struct bench_platform *p, unsigned int dir[][2]);

/* bench_compare @a against @b, then the table row; returns the cases run (2). */
unsigned int case_compare(const struct bench_env *env, const struct bench_platform *p,
			  struct bench_case *a, struct bench_case *b, enum bench_mode m);
/* The same from a CPU of node @src, saying which once (@say). */
unsigned int case_compare_from(const struct bench_env *env, const struct bench_platform *p,
			       struct bench_case *a, struct bench_case *b, enum bench_mode m,
			       unsigned int src, bool say);

#endif
