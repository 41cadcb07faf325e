/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * parallel_out.h - what the parallel preset prints (bench/parallel_out.c), for
 * bench/parallel.c: the primitives' names, a step as a table row, a "parallel" JSON record
 * and a LAVA line.
 *
 *   group  cpus  aggregate GB/s [min, max]   scaling  skew us start/end  per-CPU GB/s
 *   all    2     9.80 [9.10, 10.21]          0.957    12.4/310.2         4.95 4.90
 */
#ifndef CK_BENCH_PARALLEL_OUT_H
#define CK_BENCH_PARALLEL_OUT_H

#include "bench/parallel_types.h"

/* "copy_page" ... and the routine copy_ops resolves it to now ("copy_page_rep"). */
const char *par_prim_name(enum par_prim p);
const char *par_prim_routine(enum par_prim p);
/* One line through @cfg->out (up to 511 characters). */
void par_outf(const struct par_config *cfg, const char *fmt, ...) __printf(2, 3);
/* The number the caller prints for its CPU @cpu. */
unsigned int par_cpu_id(const struct par_ops *ops, unsigned int cpu);
/*
 * A step measured: its row (or its failure), its record built in @line (@size bytes: room
 * for every CPU of the step) and, with @cfg->lava, its LAVA line. @single is the group's
 * one-CPU aggregate (0: none yet).
 */
void par_emit(const struct par_config *cfg, const struct par_step *st, u64 single,
	      char *line, size_t size);

#endif
