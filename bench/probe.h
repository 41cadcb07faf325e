/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * probe.h - the bandwidth probe: what one core moves, measured once per run before the first
 * case of PROBE_LARGE or more (the big, primitives and v3 presets), and a large case's figure
 * as a share of it.
 *
 * A buffer of probe_bytes() (1 GiB, halved until two fit the largest case; 4 MiB in test
 * mode) is streamed five ways, best of PROBE_BEST_OF each, traffic counted (a read or a write
 * counts its bytes once, a copy twice): a read of every half line, movnti writes
 * (bench/probe_nt.asm), rep stosb writes (clear_pages_erms), the best non-temporal copy this
 * CPU has (AVX-512 or AVX2) and rep movsb. Each figure is a table line and a "bandwidth"
 * JSON record.
 */
#ifndef CK_BENCH_PROBE_H
#define CK_BENCH_PROBE_H

#include "bench/presets.h"

#define PROBE_LARGE	(64ULL << 20)	/* figures this large are also shown against it */
#define PROBE_BEST_OF	5

/* The probe's size on @p: 1 GiB halved to fit the largest case (4 MiB tiny), 0: none fits. */
u64 probe_bytes(const struct bench_platform *p);
/* Run the probe unless this run did already, on buffers of its own from @p->alloc. */
void probe_ensure(const struct bench_env *env, const struct bench_platform *p);
/* The best copy and write traffic measured (MB/s), 0 when not probed. */
u64 probe_copy_limit(void);
u64 probe_write_limit(void);

/* A copy reads data (its source pattern is not "none"); a clear only writes. */
bool probe_is_copy(const struct bench_case *c);
/*
 * A large case's figure as a percentage of what the probe measured: a copy's traffic (twice
 * its MB/s) against the best copy, a clear's against the best write. 0 when the case is
 * small (below PROBE_LARGE and the probe's size) or nothing was probed.
 */
u64 probe_pct(const struct bench_case *c, const struct bench_result *r);
/* " 89% of copy bw" (or "of write bw") for a large case when the probe ran, else "". */
void probe_fmt(const struct bench_case *c, const struct bench_result *r, char *buf,
	       size_t size);

/* The best non-temporal copy this CPU has: AVX-512 where @p says so, else AVX2. */
void probe_nt_copy(void *dst, const void *src, u64 bytes, const struct bench_platform *p);
/* bench/probe_nt.asm: movnti every word of @dst with its byte offset, then sfence. */
void probe_nt_write(void *dst, u64 bytes);

#endif
