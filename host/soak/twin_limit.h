/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host/soak/twin_limit.h - the machine's all-core limits as make soak-bench (host/soak/
 * twin_compare.c) reads them, and the soak rates as shares of them: the pure parts. Plain C,
 * host-tested in tests/host/test_soak_limit_share.c; host/soak/twin_allcore.c measures.
 *
 * A limit is what every CPU at once moves with the bandwidth probe's single-core streams
 * (bench/probe.c, bench/probe_nt.asm), one pinned thread per CPU started behind a barrier:
 *   copy      the better of the probe's non-temporal copy and rep movsb, traffic counted
 *             (each copied byte read once and written once: 2 bytes of traffic)
 *   read      every cache line of the source read (the probe's read stream)
 *   nt-write  movnti of non-zero words (probe_nt_write)
 * Aggregated as the soak rates are (host/soak/twin_peer.h): the sum over threads of each
 * thread's bytes over its own time, so a share compares like with like.
 *
 * A share is a soak rate (one side's, one round) over the matching limit measured in the same
 * round, divided by what that limit is taken as; its figure is the median of the per-round
 * shares with the rounds' bootstrap 95% interval (soak_rate_ratio), so drift of the machine
 * between rounds cancels as it does in the twin/peer ratios.
 */
#ifndef CK_HOST_SOAK_TWIN_LIMIT_H
#define CK_HOST_SOAK_TWIN_LIMIT_H

#include "host/soak/twin_peer.h"

enum soak_limit { SOAK_LIMIT_COPY, SOAK_LIMIT_READ, SOAK_LIMIT_NT_WRITE, NR_SOAK_LIMITS };

extern const char *const soak_limit_names[NR_SOAK_LIMITS];

/* One thread's stream: the bytes of traffic it moved and the time it took (ns). */
struct soak_limit_thread {
	u64 bytes, ns;
};

/* The limit: the sum over @n threads of bytes / ns (bytes per second); threads of ns 0 skipped. */
double soak_limit_rate(const struct soak_limit_thread *t, unsigned int n);

/*
 * The median of @n rounds' values of a limit (bytes/s; rounds <= 0 left out) with its bootstrap
 * 95% interval, in bytes/s: stats_round_ratio's method against a constant 1 GB/s. False with
 * fewer than 3 usable rounds.
 */
bool soak_limit_median(const double *v, unsigned int n, double *median, double *lo,
		       double *hi, unsigned int *used);

/* One share the comparison prints: a soak rate over a limit divided by @div. */
struct soak_share_def {
	enum soak_rate rate;
	enum soak_limit limit;
	unsigned int div;		/* 1: the limit itself; 2: half of it (a copy's data) */
	const char *why;
};

#define NR_SOAK_SHARES	3
extern const struct soak_share_def soak_shares[NR_SOAK_SHARES];

/*
 * @rate[i] / (@limit[i] / @div) over @n rounds: the median of the per-round shares with the
 * rounds' bootstrap 95% interval, parts per thousand in @q (1000: the whole limit). Rounds
 * where either is not positive are left out; false with fewer than 3 left.
 */
bool soak_limit_share(const double *rate, const double *limit, unsigned int div,
		      unsigned int n, struct ratio *q, unsigned int *used);

#endif
