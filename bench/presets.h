/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * presets.h - the seed experiments as benchmark presets, for the image (bench=) and the
 * hosted build (make bench):
 *
 *   rfc         folio_copy and folio_mc_copy, per-page baseline against batched,
 *               cache-cold 256K..2M and cache-hot 16K..2M, with the speedup column
 *   v3          copy_mc_highpages: one bulk call against the per-page loop, 2 MiB and 1 GiB
 *   clear       every clear primitive over 2 MiB, and the two huge-page orders
 *   primitives  every copy and clear routine across sizes, hot and cold, including the
 *               non-temporal candidates
 *   patterns    memcpy with a random source against a zero and a constant one
 *   uarch       rfc under each resolution Linux would make on other silicon: Zen 3 (no FSRM:
 *               bulk memcpy is memcpy_orig) and Zen 4/5 or Intel (FSRM: rep movsb)
 *   big         the bandwidth probe (what one core moves), then rep movsb against the best
 *               non-temporal copy at the probe's size, cache-cold, as % of the probe
 *   copy_pages  the copy_pages() candidates (not Linux) against the per-page loops and the
 *               RFC's bulk memcpy under each resolution, and the RFC's two questions
 *               answered row by row (bench/copy_pages.c)
 *   seed003     seed 003's table of PMD folio clears, target-last against sequential, and
 *               1 GiB cleared in batches of 4K..32M and whole (bench/clear_order.c)
 *
 * The bandwidth probe (bench/probe.h) runs once per run, before the first preset that shows
 * figures against it (rfc, v3, clear, uarch, big, and primitives of 64 MiB): every comparison
 * row then carries both sides as a share of the like-for-like limit, and every primitive of
 * 64 MiB or more its own. The probe's two buffers are kept for the large cases (big, v3's
 * 1 GiB extent). A preset that cannot measure a case it promises fails (bench_failf()).
 * rfc, v3, clear and uarch are in bench/presets.c, primitives, patterns and big in
 * bench/prims.c; what they share to build and run cases is bench/cases.h, what they
 * print bench/table.h.
 *
 * Every case records the data it reads and writes (src_pattern, dst_pattern); sources hold
 * pseudo-random bytes unless a case says otherwise.
 */
#ifndef CK_BENCH_PRESETS_H
#define CK_BENCH_PRESETS_H

#include "bench/harness.h"
#include "copy/dispatch.h"
#include "copy/pages.h"

#define BENCH_MAX_NODES	8

struct bench_platform {
	void *(*alloc)(size_t bytes);		/* page aligned (2 MiB for large), or NULL */
	/*
	 * The same for memory kept the whole run, never reset between presets: the run's two
	 * large buffers (bench/probe.h). NULL: alloc's (the image never frees anything).
	 */
	void *(*alloc_run)(size_t bytes);
	/* The same on NUMA node @node (NULL: one node only). */
	void *(*alloc_node)(size_t bytes, unsigned int node);
	/* Whether node @node has any memory at all (NULL: every node has). */
	bool (*node_has_memory)(unsigned int node);
	unsigned int nr_nodes;			/* nodes with memory, 0 or 1: a single node */
	bool (*folio)(void *addr, unsigned long nr, struct folio *f);
	struct dispatch_caps caps;		/* which candidates can run */
	unsigned int runs;
	u64 max_bytes;				/* largest case to try */
	bool tiny;				/* test mode: the smallest sizes only */
	/* A replica (hosted --replicas): its comparisons only; the probe is not streamed. */
	bool replica;
	/* The dispatch rules' inputs on this CPU (uarch varies FSRM; unknown: not run). */
	struct dispatch_cpu dispatch_in;
	bool dispatch_known;
	/*
	 * The seed pinned its thread to a CPU of the source node: @node_cpu names such a CPU
	 * (-1: none) and @run_on runs @fn(@arg) there and waits. NULL: everything runs here.
	 */
	int (*node_cpu)(unsigned int node);
	void (*run_on)(int cpu, void (*fn)(void *arg), void *arg);
	/* The largest cache CPUID describes for this core (0: none) and which leaf said so. */
	u64 llc_bytes;
	const char *llc_source;
};

enum bench_preset { PRESET_RFC, PRESET_V3, PRESET_CLEAR, PRESET_PRIMITIVES, PRESET_PATTERNS,
		    PRESET_UARCH, PRESET_BIG, PRESET_COPY_PAGES, PRESET_SEED003, NR_PRESETS };
extern const char *const bench_preset_names[NR_PRESETS];

/*
 * Time the primitive named @name (as in the primitives preset) over @bytes of @src/@dst,
 * cache-hot, @runs runs. False when there is no such primitive or this CPU cannot run it.
 */
bool bench_primitive(const struct bench_env *env, const struct bench_platform *p,
		     const char *name, void *dst, void *src, u64 bytes, unsigned int runs,
		     struct bench_result *r);

/*
 * Run one preset; returns the number of cases run (0 when none could). A case the preset
 * promises and could not measure (no memory for it) is a failed line, counted by
 * bench_failures() (bench/harness.h): the run's status must say so.
 */
unsigned int bench_preset_run(enum bench_preset p, const struct bench_env *env,
			      const struct bench_platform *plat);

#endif
