/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * image.h - run the bench= presets inside the image (the harness is bench/harness.h).
 */
#ifndef CK_BENCH_IMAGE_H
#define CK_BENCH_IMAGE_H

#include "copy/dispatch.h"

/* In the order of enum bench_preset (bench/presets.h), after BENCH_NONE. */
enum bench_sel { BENCH_NONE, BENCH_RFC, BENCH_V3, BENCH_CLEAR, BENCH_PRIMITIVES, BENCH_PATTERNS,
		 BENCH_UARCH, BENCH_BIG, BENCH_COPY_PAGES, BENCH_SEED003, BENCH_ALL,
		 BENCH_PARALLEL, BENCH_MIGRATE };

/* bench=migrate's folio sizes (bench_migrate_size=); the one named must be measured. */
enum bench_migrate_size { MIGRATE_SIZE_ALL, MIGRATE_SIZE_4K, MIGRATE_SIZE_2M, MIGRATE_SIZE_1G };

struct bench_image_opts {
	enum bench_sel sel;		/* which preset(s) */
	unsigned int runs;		/* timed runs per case; 0: the default */
	bool tiny;			/* test mode: smallest sizes, small eviction buffer */
	bool cold_flush;		/* cache-cold by CLFLUSHOPT instead of an eviction buffer */
	enum bench_migrate_size migrate_size;
	struct dispatch_caps caps;	/* what this CPU can run beyond the baseline */
};

struct bench_env;
struct bench_platform;

/* The image's clock, output, allocation and capabilities (cache-hot use needs nothing else). */
void bench_image_env(struct bench_env *env, struct bench_platform *plat,
		     const struct dispatch_caps *caps);
void bench_image_run(const struct bench_image_opts *opts);
/*
 * Benchmark memory: aligned for its size (2 MiB, 1 GiB), and named on the console when it is
 * not write-back in both the MTRRs and the page tables. NULL when none is left (on @node).
 */
void *bench_image_alloc(size_t bytes);
void *bench_image_alloc_node(size_t bytes, unsigned int node);
/* The parallel preset on every online CPU (bench/image_parallel.c), from the calling CPU. */
void bench_image_parallel(const struct bench_image_opts *opts);

#endif
