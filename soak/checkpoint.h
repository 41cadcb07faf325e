/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * checkpoint.h - the soak's black box: the ledger summary in a small fixed binary record for
 * a UEFI variable, written while the soak runs, so that a reset or a hang in hour three
 * leaves evidence. The next boot (and later tools/ck-results.py) decodes it. Plain C,
 * host-tested and fuzzed.
 *
 * The record, little-endian, SOAK_CKPT_HEADER + 72 * buckets + 40 * miscompares + 4 bytes
 * (at most SOAK_CKPT_MAX):
 *    0  4  "CKSK"                   48 24  counts, u32 each, saturating, in enum soak_ev_kind
 *    4  1  version (3; 1: no          order: corrected, deferred, uncorrected,
 *          miscompares, byte 81 0;
 *          2: no UMC bucket)
 *    5  1  flags: 1 final (the             miscompares, stuck CPUs, retired pages
 *          verdict, before its lines), 72  4  entries not stored, u32
 *          2 failing so far, 4 entries 76  4  0
 *          not stored, 8 the run's     80 24  first event of note: kind u8 (0xff: none), 0,
 *          command line had errors
 *    6  2  length of the record               CPU u16, 0 u32, physical u64, t ns u64
 *    8  8  run seed                   104 72n buckets, worst first: type u8 (0 DIMM,
 *   16  8  elapsed ns                         1 range, 2 no address, 3 other, 4 UMC),
 *   24  8  bytes verified                     node u8, DIMM index u16, then 4 bytes (0, or
 *   32  8  bytes per pass (coverage)          UMC: AMD node u8, chip select u8, UMC u16),
 *                                             base u64, size u64, counts 6 x u32, name 24
 *                                             bytes (NUL padded; UMC: the label)
 *   40  4  passes                     then 40m the first miscompares, earliest first (byte
 *   44  2  CPUs                               81 says how many, 0..4): physical u64, expected
 *   46  1  buckets (0..8)                     u64, actual u64, t ns u64, CPU u16, pattern u8
 *   47  1  failing rule (0xff: none)          (pattern.h), 0 x 5
 *                                     end  4  CRC-32 (zlib's) of everything before it
 *
 * A record that decodes re-encodes to the same bytes (every reserved byte is zero).
 *
 * Flash wears: the soak writes a checkpoint at most every SOAK_CKPT_INTERVAL_NS, plus once
 * for each kind of event the previous checkpoint did not have yet (at most six more), plus
 * the final one (soak_ckpt_due()).
 */
#ifndef CK_SOAK_CHECKPOINT_H
#define CK_SOAK_CHECKPOINT_H

#include "soak/ledger.h"

#define SOAK_CKPT_VERSION	3
#define SOAK_CKPT_BUCKETS	8
#define SOAK_CKPT_HEADER	104
#define SOAK_CKPT_BUCKET_LEN	72
#define SOAK_CKPT_NAME		24
#define SOAK_CKPT_MISC		4	/* the first miscompares kept */
#define SOAK_CKPT_MISC_LEN	40
#define SOAK_CKPT_MAX		(SOAK_CKPT_HEADER + SOAK_CKPT_BUCKETS * SOAK_CKPT_BUCKET_LEN + \
				 SOAK_CKPT_MISC * SOAK_CKPT_MISC_LEN + 4)
#define SOAK_CKPT_NONE		0xff
#define SOAK_CKPT_INTERVAL_NS	(600ULL * 1000000000ULL)	/* ten minutes */

#define SOAK_CKPT_FINAL		BIT(0)
#define SOAK_CKPT_FAILING	BIT(1)
#define SOAK_CKPT_NOT_STORED	BIT(2)
/* The run's command line had errors: its verdict is ERROR (or FAIL), never PASS. */
#define SOAK_CKPT_CMDLINE	BIT(3)
#define SOAK_CKPT_FLAGS		(SOAK_CKPT_FINAL | SOAK_CKPT_FAILING | SOAK_CKPT_NOT_STORED |	\
				 SOAK_CKPT_CMDLINE)

struct soak_ckpt {
	u8 version;			/* 0 or SOAK_CKPT_VERSION; a decoded one: what it was */
	u8 flags;
	u8 rule;			/* the failing rule, or SOAK_CKPT_NONE */
	u16 cpus;
	u32 passes;
	u64 seed, elapsed_ns, bytes_verified, bytes_per_pass;
	u32 count[NR_SOAK_EV];
	u32 not_stored;
	struct {
		u8 kind;		/* SOAK_CKPT_NONE: none */
		u16 cpu;
		u64 phys, t_ns;
	} first;
	u8 nr_buckets;
	struct soak_ckpt_bucket {
		u8 type, node;
		u16 dimm;
		u64 base, size;
		u32 count[NR_SOAK_EV];
		char name[SOAK_CKPT_NAME + 1];	/* a DIMM's name or UMC label, NUL-ended */
		u8 umc_node, cs;	/* UMC: the logging CPU's AMD node, chip select */
		u16 umc;
	} bucket[SOAK_CKPT_BUCKETS];
	u8 nr_misc;
	struct soak_ckpt_misc {
		u16 cpu;
		u8 pat;			/* enum soak_pat: what the word should have held */
		u64 phys, expected, actual, t_ns;
	} misc[SOAK_CKPT_MISC];		/* the first miscompares, earliest first */
};

/*
 * The checkpoint of @t as judged by @v: the worst SOAK_CKPT_BUCKETS buckets (uncorrected,
 * deferred, miscompared and retired first, then corrected; ties in ledger order), @first (may
 * be NULL) as the event of note, @final for the soak's verdict (written before the summary
 * line says it, so a machine stopped on that line keeps it).
 */
void soak_ckpt_from(struct soak_ckpt *c, const struct soak_totals *t,
		    const struct soak_verdict *v, const struct soak_event *first,
		    const struct soak_where_map *map, bool final);
/* Keep miscompare @e among @c's first ones (the SOAK_CKPT_MISC earliest; ties: lower CPU). */
void soak_ckpt_add_miscompare(struct soak_ckpt *c, const struct soak_event *e);
/*
 * The event of note among @best (may be NULL) and @ev[0..@nr): the earliest that fails a
 * soak (uncorrected, deferred, miscompare, stuck CPU), else the earliest corrected error;
 * never a retired page (it follows its cause). Ties: the lower CPU. NULL when there is none.
 */
const struct soak_event *soak_ckpt_note(const struct soak_event *best,
					const struct soak_event *ev, unsigned int nr);
/* Returns the record's length, or 0 when @size is too small. */
size_t soak_ckpt_encode(const struct soak_ckpt *c, u8 *buf, size_t size);
/* Returns 0, or -1 and @why. */
int soak_ckpt_decode(const u8 *buf, size_t len, struct soak_ckpt *c, const char **why);
/*
 * The record in words: "previous soak ended with its summary after 3723.500s: ..." (final),
 * "previous soak ended without a summary; its last checkpoint 3723.500s into it: ...".
 */
size_t soak_ckpt_text(const struct soak_ckpt *c, char *buf, size_t size);
/*
 * "; first miscompares: 0x40001000 on CPU 1 after 3.214s (expected 0x... actual 0x...,
 * address), ..." appended at *@len (kernel/lib/format.h's ck_appendf), nothing without any.
 */
void soak_ckpt_misc_text(const struct soak_ckpt *c, char *buf, size_t size, size_t *len);
/*
 * Where a stored bucket's errors were, appended to @buf at *@len (ck_appendf): "DIMM name",
 * "node N UMC U DIMM D rank R (label L)", "node N range 0xbase-0xlast", "node N outside the
 * soak ranges", "no address" or "other places"; the words of every line that names a stored
 * bucket (this and the black box's).
 */
void soak_ckpt_where(char *buf, size_t size, size_t *len, const struct soak_ckpt_bucket *b);

/*
 * Whether to write a checkpoint now: none written yet (@last_ns is ~0), a kind of event in
 * @kinds (a mask of 1 << SOAK_EV_*) that @written (the kinds of the last one) lacks, or
 * @interval_ns (0: SOAK_CKPT_INTERVAL_NS) gone since the last one.
 */
bool soak_ckpt_due(u64 now_ns, u64 last_ns, u32 kinds, u32 written, u64 interval_ns);
/* The kinds present in @t, as soak_ckpt_due() takes them. */
u32 soak_kinds(const struct soak_totals *t);

/* CRC-32 as zlib computes it (reflected 0xedb88320, initial and final ~0). */
u32 soak_crc32(const void *p, size_t len);

/*
 * A fixed-size text field of a stored record (@size bytes at @p): printable ASCII, then only
 * NULs. Copies it to @out (@size + 1 bytes) and returns true; false for any other byte.
 */
bool soak_take_ascii(const u8 *p, size_t size, char *out);

#endif
