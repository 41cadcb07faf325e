/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * speed.h - how fast the soak runs against what the machine can do, measured in the same
 * run: the all-core probe's limits (soak/run_probe.c measures them on every soaking CPU at
 * once, before the first pass) and each row of the pass schedule's rates (soak/run_work.c
 * counts them per CPU), folded, compared and written as lines and JSON records. Plain C,
 * host-tested (tests/host/test_soak_speed.c).
 *
 * The probe's streams, each CPU over a window of its own memory, every CPU released at once:
 *   nt-write  movnti of zeros (copy/nt.asm clear_pages_nt): traffic = bytes written
 *   read      every word of what the write left, loaded once and checked (copy/march.asm's
 *             read-only element over zeros, machine-check safe): traffic = bytes
 *   copy      the better of copy_mc_avx2_nt (where the CPU has AVX2) and copy_mc_fast_string
 *             (rep movsb): traffic = twice the bytes copied
 * A rate, the probe's or a row's, is aggregated as the hosted twin's (host/soak/
 * twin_limit.h): the sum over CPUs of each CPU's bytes over its own time, in MB/s (10^6
 * bytes a second).
 *
 * A row's rates: checked = the bytes its elements read and checked, traffic = those plus
 * the bytes written (the kernel's stores and the clear primitive) plus twice the bytes
 * copied, over the time the CPU spent in the row's elements (from the barrier's release to
 * the element's end; the retention pass's idle and the barriers' waits are not counted).
 * Its shares, in parts per thousand of the probe's limit measured in this run, as the
 * hosted twin's: checked/read (a checked byte is a byte read), checked/(copy/2) (a copy
 * checked once on its source moves copy/2 of data) and traffic/copy.
 *
 * Under a hypervisor (CPUID says so) the figures are the emulator's or the host's, and say
 * nothing about the hardware: every line says so.
 */
#ifndef CK_SOAK_SPEED_H
#define CK_SOAK_SPEED_H

#include "kernel/include/types.h"

enum soak_probe_stream { SOAK_PROBE_NT_WRITE, SOAK_PROBE_READ, SOAK_PROBE_COPY, NR_SOAK_PROBE };

extern const char *const soak_probe_names[NR_SOAK_PROBE];

/* bytes moved in @ns as MB/s (10^6 bytes a second); 0 when @ns is 0. */
u64 soak_mbps(u64 bytes, u64 ns);

/* The probe, every CPU's streams folded. */
struct soak_probe {
	u64 mbps[NR_SOAK_PROBE];	/* traffic, the sum over CPUs; 0: not measured */
	unsigned int cpus[NR_SOAK_PROBE];	/* CPUs whose stream counted */
	unsigned int nr_cpus;		/* CPUs asked to take part */
	u64 window;			/* bytes of memory each CPU streamed over (the largest) */
	u64 bytes[NR_SOAK_PROBE];	/* traffic of the stream, summed over CPUs */
	const char *copy;		/* the copy that won ("copy_mc_avx2_nt", ...) */
	u64 took_ns;			/* the whole probe on the boot CPU, start to last CPU done */
	bool hypervisor;
};

/* One CPU's stream @s: @bytes of traffic in @ns (@ns 0: it did not run; not counted). */
void soak_probe_add(struct soak_probe *p, enum soak_probe_stream s, u64 bytes, u64 ns);

/* What one CPU counted of one row of the schedule (its whole elements only). */
struct soak_row_count {
	u64 ns;				/* in the row's elements, idles and barrier waits not */
	u64 read, written, copied;	/* bytes: read and checked, written, copied */
	u32 passes;			/* whole passes of the row */
};

/* One row over every CPU, and its shares of the probe's limits. */
struct soak_speed_row {
	unsigned int row;
	const char *name;
	unsigned int cpus;		/* CPUs that spent time in it */
	u32 passes;			/* whole passes every one of them did (the least) */
	u64 ns;				/* the longest time a CPU spent in it */
	u64 checked_mbps, traffic_mbps;
	/* parts per thousand: checked/read, checked/(copy/2), traffic/copy; -1: no limit */
	s64 read_x1000, copy_half_x1000, copy_x1000;
};

/* Row @row (@name) from @n CPUs' counts of it: CPUs that spent no time in it are left out. */
void soak_speed_fold(struct soak_speed_row *r, unsigned int row, const char *name,
		     const struct soak_row_count *c, unsigned int n);
/* @r's shares of @p's limits. */
void soak_speed_shares(struct soak_speed_row *r, const struct soak_probe *p);

/* The lines ("soak: probe: ...", "soak: speed: ...") and records (soak_probe, soak_speed). */
size_t soak_probe_text(const struct soak_probe *p, char *buf, size_t size);
size_t soak_probe_json(const struct soak_probe *p, char *buf, size_t size);
/* @lead starts the row's line ("soak: speed: "; "soak: speed so far: " while it soaks). */
size_t soak_speed_text(const struct soak_speed_row *r, const char *lead, bool hypervisor,
		       char *buf, size_t size);
size_t soak_speed_json(const struct soak_speed_row *r, bool hypervisor, char *buf, size_t size);

#endif
