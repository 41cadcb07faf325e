/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host/soak/twin_peer.h - what the hosted soak twin (host/soak/ck-soak.c) and stressapptest each count, as
 * data rates that compare like with like, and the parsers of both programs' summaries. Plain
 * C (host libc), host-tested in tests/host/test_soak_peer.c with stressapptest's own output
 * (tests/data/stressapptest/).
 *
 * stressapptest 1.0.6 (Debian), read for the facts: a copy thread pops a filled 1 MiB page
 * and an empty one, copies it 4 KiB at a time while it sums the source's Adler-32 checksum,
 * and compares that with the checksum its pattern should give (the default "strict" copy in
 * C; -W does the same in SSE2 with non-temporal stores). So every copied byte has its source
 * checked as it is read; the destination is checked when a later copy reads it. Its summary
 * "Stats: Memory Copy: N M at R MB/s" counts each copied page twice (copied data x 2), in
 * binary megabytes (2^20 bytes), and R is the sum over copy threads of each thread's bytes
 * over its own running time (gettimeofday around its loop).
 *
 * The twin runs the image's passes (soak/pattern.c): March elements, each word read and
 * checked, then written, by copy/march.asm's kernel; copies of each source half into the other
 * by a Linux primitive, whose destination the next element reads and checks; clears. It
 * counts, per element, the bytes its kernel read and checked (R), wrote (W) and copied (C).
 *
 * The rates, in bytes per second, each the sum over threads of bytes / that thread's time:
 *   checked  bytes of memory read back and compared with what the program wrote there, the
 *            headline. stressapptest: R x 2^20 / 2 (its double count halved: each copy checks
 *            its source page once); the twin: R. Both count each checked byte once.
 *   copied   data moved by copies: stressapptest the same R x 2^20 / 2; the twin C. The
 *            twin's passes read and write memory many times per copy (pass 0 is a March
 *            test), so this is stressapptest's unit of work, not the twin's.
 *   traffic  bytes read plus bytes written by that work: stressapptest R x 2^20 (its own
 *            figure); the twin R + W + 2C.
 */
#ifndef CK_HOST_SOAK_TWIN_PEER_H
#define CK_HOST_SOAK_TWIN_PEER_H

#include "bench/stats.h"
#include "kernel/include/types.h"

enum soak_rate { SOAK_RATE_CHECKED, SOAK_RATE_COPIED, SOAK_RATE_TRAFFIC, NR_SOAK_RATES };

/* One twin thread's work: bytes by kind and the time it ran. */
struct soak_twin_count {
	u64 ns;			/* from the common start to this thread's end */
	u64 copied;		/* bytes copied (whose destination a later element read) */
	u64 checked;		/* bytes read and checked against the pattern */
	u64 written, read;	/* memory traffic of the kernel, the copies and the clears */
	u64 elements;		/* elements done (or stopped) */
};

/*
 * Count one element: @checked bytes read and checked by the kernel, @written written by the
 * kernel or the clear primitive, @copied copied (each read once and written once).
 */
void soak_twin_count_add(struct soak_twin_count *c, u64 checked, u64 written, u64 copied);
/* The sum over @n threads of each thread's bytes of @r over its own time (0 for ns 0). */
double soak_twin_rate(const struct soak_twin_count *t, unsigned int n, enum soak_rate r);

/* What one stressapptest run printed. */
struct sat_summary {
	bool have_copy, have_completed, have_status;
	double copy_mib, copy_mibps;		/* "Stats: Memory Copy: N M at R MB/s" */
	double total_mib, seconds, total_mibps;	/* "Stats: Completed: N M in S s R MB/s" */
	u64 incidents, errors;			/* "with H hardware incidents, E errors" */
	u64 miscompare_lines;			/* "Hardware Error: miscompare ..." lines */
	bool pass;				/* "Status: PASS ..." */
	char revision[40];			/* "Stats: SAT revision 1.0.6_autoconf, ..." */
	char memory[64];			/* "Log: Using memaligned allocation at ..." */
};

void sat_summary_init(struct sat_summary *s);
/* Take one line of its output (with or without the newline); unknown lines are ignored. */
void sat_parse_line(struct sat_summary *s, const char *line);
/* NULL when @s holds a usable figure (a copy rate, a status), else what is missing. */
const char *sat_summary_unusable(const struct sat_summary *s);
/* Its rate @r in bytes per second, by the definitions above. */
double sat_rate(const struct sat_summary *s, enum soak_rate r);

/*
 * The twin's result line, one per run, which the comparison reads from the twin's process:
 *   # soak-twin-result: threads=2 elapsed_ns=5000123456 checked_bps=... copied_bps=...
 *     traffic_bps=... miscompares=0 poisoned=0 result=PASS
 * twin_format_result writes it (as snprintf: the length it needs); twin_parse_result returns
 * false when @line is not one, or lacks a rate.
 */
#define SOAK_TWIN_RESULT	"# soak-twin-result:"
struct twin_result {
	double rate[NR_SOAK_RATES];
	u64 threads, elapsed_ns, miscompares, poisoned;
	bool pass;
};
size_t twin_format_result(char *buf, size_t size, const struct twin_result *r);
bool twin_parse_result(const char *line, struct twin_result *r);

/*
 * The comparison of @n rounds: rate_a[i] and rate_b[i] are one round's rates of two sides
 * (interleaved, AB then BA); the result is the median of the per-round ratios a / b with a
 * percentile-bootstrap 95% interval (bench/stats.c's method, its seed), in parts per
 * thousand. Rounds where either rate is not positive are left out; false with fewer than 3
 * left. @used says how many were used.
 */
bool soak_rate_ratio(const double *rate_a, const double *rate_b, unsigned int n,
		     struct ratio *q, unsigned int *used);

extern const char *const soak_rate_names[NR_SOAK_RATES];

#endif
