/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * platform.h - what the run's platform offers the presets (struct bench_platform): memory,
 * on NUMA nodes too, the folios over it, the candidates this CPU can run, the dispatch
 * rules' inputs, running on a CPU of a node, the cache size. The image (bench/image.c) and
 * the hosted build (host/bench/ck-bench.c) each fill one; the presets (bench/presets.h) and
 * what they share (the probe, the cases, the tables) read it.
 */
#ifndef CK_BENCH_PLATFORM_H
#define CK_BENCH_PLATFORM_H

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

#endif
