/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * probe.h - the bandwidth probe: what one core moves, measured once per run, the limits a
 * case is shown against, and the run's two large buffers.
 *
 * Two buffers of probe_bytes() (1 GiB, halved until one fits the largest case; 4 MiB in
 * test mode) are the run's large buffers: taken once (the platform's alloc_run, else its
 * alloc) and kept, the probe streams over them, and the large cases after it (big, v3's
 * 1 GiB extent) run on them, so a machine with room for two of them and the small cases
 * runs every preset whole. Each stream is the best of PROBE_BEST_OF, traffic counted (a read
 * or a write counts its bytes once, a copy twice):
 *
 *   read            every half line of the source (pseudo-random data)
 *   writes          zeros through each store a clear uses: rep stosb (clear_pages_erms),
 *                   rep stosq, mov (the unrolled loop), movnti, clzero where the CPU has it;
 *                   and non-zero data through rep stosb and movnti (bench/probe_nt.asm), which
 *                   shows what a zero fast path is worth here
 *   copies          the best non-temporal copy this CPU has (AVX-512 or AVX2) and rep movsb,
 *                   of the pseudo-random source
 *
 * Each figure is a table line and a "bandwidth" JSON record. A case's limit is like for like:
 * a copy's is the best copy, a clear's the write of zeros through the same store as it
 * (bench_case.clear_store); the table says which beside every percentage.
 */
#ifndef CK_BENCH_PROBE_H
#define CK_BENCH_PROBE_H

#include "bench/harness.h"
#include "bench/platform.h"

#define PROBE_LARGE	(64ULL << 20)	/* primitives this large are also shown against it */
#define PROBE_BEST_OF	5
#define PROBE_TINY	(4ULL << 20)	/* the probe's size in test mode */

/* The probe's size on @p: 1 GiB halved to fit the largest case (4 MiB tiny), 0: none fits. */
u64 probe_bytes(const struct bench_platform *p);
/*
 * The run's two large buffers, probe_bytes() each (source: pseudo-random data): taken at
 * the first call and kept. False, after a failed line that says why, when there is no room.
 */
bool probe_buffers(const struct bench_env *env, const struct bench_platform *p, u8 **src,
		   u8 **dst);
/* Run the probe unless this run did already; false when it could not (said as a failure). */
bool probe_ensure(const struct bench_env *env, const struct bench_platform *p);
/* The best copy's traffic (MB/s), 0 when not probed. */
u64 probe_copy_limit(void);

/* A copy reads data (its source pattern is not "none"); a clear only writes. */
bool probe_is_copy(const struct bench_case *c);
/*
 * @c's like-for-like limit, as traffic in MB/s (0: none measured, or a clear that does not
 * say its store), and what it is ("copy", "rep stosb zero-write") into *@what.
 */
u64 probe_limit(const struct bench_case *c, const char **what);
/* @r's traffic as a percentage of @c's limit, rounded; 0 when there is none. */
u64 probe_share(const struct bench_case *c, const struct bench_result *r);
/* The same for a large case only (PROBE_LARGE or the probe's size): the primitives lines. */
u64 probe_pct(const struct bench_case *c, const struct bench_result *r);
/* " 89% of copy bw" (" 95% of rep stosb zero-write bw") for a large case, else "". */
void probe_fmt(const struct bench_case *c, const struct bench_result *r, char *buf,
	       size_t size);
/*
 * "limit: copy 28.39 GB/s of traffic (14.20 GB/s of data): the best of ..." for @c, the
 * line a table with percentage columns starts with; "" when nothing was probed.
 */
void probe_fmt_limit(const struct bench_case *c, char *buf, size_t size);

/* The best non-temporal copy this CPU has: AVX-512 where @p says so, else AVX2. */
void probe_nt_copy(void *dst, const void *src, u64 bytes, const struct bench_platform *p);
/*
 * The read stream: every half cache line of @src read once (@bytes a multiple of 64), here so
 * that the hosted all-core limit (host/soak/twin_allcore.c) reads as this probe does.
 */
static inline void probe_read_lines(const u8 *src, u64 bytes)
{
	volatile u64 sink = 0;

	for (u64 i = 0; i < bytes; i += 64)
		sink += *(const volatile u64 *)(src + i) + *(const volatile u64 *)(src + i + 32);
	(void)sink;
}

/* bench/probe_nt.asm: movnti every word of @dst with its byte offset, then sfence. */
void probe_nt_write(void *dst, u64 bytes);
/* bench/probe_nt.asm: rep stosb of the byte @value over @bytes of @dst. */
void probe_stosb_write(void *dst, u64 bytes, unsigned int value);

#endif
