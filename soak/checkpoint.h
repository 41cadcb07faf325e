/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * checkpoint.h - the soak's black box: the ledger summary in a small fixed binary record for
 * a UEFI variable, written while the soak runs, so that a reset or a hang in hour three
 * leaves evidence. The next boot (and later tools/ck-results.py) decodes it. Plain C,
 * host-tested and fuzzed.
 *
 * The record, little-endian, SOAK_CKPT_HEADER + 72 * buckets + 4 bytes (at most
 * SOAK_CKPT_MAX):
 *    0  4  "CKSK"                   48 24  counts, u32 each, saturating, in enum soak_ev_kind
 *    4  1  version (1)                     order: corrected, deferred, uncorrected,
 *    5  1  flags: 1 final (the             miscompares, stuck CPUs, retired pages
 *          summary line was written),  72  4  entries not stored, u32
 *          2 failing so far, 4 entries 76  4  0
 *          not stored                  80 24  first event of note: kind u8 (0xff: none), 0,
 *    6  2  length of the record               CPU u16, 0 u32, physical u64, t ns u64
 *    8  8  run seed                   104 72n buckets, worst first: type u8 (0 DIMM,
 *   16  8  elapsed ns                         1 range, 2 no address, 3 other), node u8,
 *   24  8  bytes verified                     DIMM index u16, 0 u32, base u64, size u64,
 *   32  8  bytes per pass (coverage)          counts 6 x u32, name 24 bytes (NUL padded)
 *   40  4  passes                     end  4  CRC-32 (zlib's) of everything before it
 *   44  2  CPUs
 *   46  1  buckets (0..8)
 *   47  1  failing rule (0xff: none)
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

#define SOAK_CKPT_VERSION	1
#define SOAK_CKPT_BUCKETS	8
#define SOAK_CKPT_HEADER	104
#define SOAK_CKPT_BUCKET_LEN	72
#define SOAK_CKPT_NAME		24
#define SOAK_CKPT_MAX		(SOAK_CKPT_HEADER + SOAK_CKPT_BUCKETS * SOAK_CKPT_BUCKET_LEN + 4)
#define SOAK_CKPT_NONE		0xff
#define SOAK_CKPT_INTERVAL_NS	(600ULL * 1000000000ULL)	/* ten minutes */

#define SOAK_CKPT_FINAL		BIT(0)
#define SOAK_CKPT_FAILING	BIT(1)
#define SOAK_CKPT_NOT_STORED	BIT(2)

struct soak_ckpt {
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
		char name[SOAK_CKPT_NAME + 1];	/* a DIMM's name, NUL-terminated */
	} bucket[SOAK_CKPT_BUCKETS];
};

/*
 * The checkpoint of @t as judged by @v: the worst SOAK_CKPT_BUCKETS buckets (uncorrected,
 * deferred, miscompared and retired first, then corrected; ties in ledger order), @first (may
 * be NULL) as the event of note, @final when the summary line was written.
 */
void soak_ckpt_from(struct soak_ckpt *c, const struct soak_totals *t,
		    const struct soak_verdict *v, const struct soak_event *first,
		    const struct soak_where_map *map, bool final);
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
/* The next boot's line: "previous soak ended without a summary after ...: ...". */
size_t soak_ckpt_text(const struct soak_ckpt *c, char *buf, size_t size);
/*
 * Where a stored bucket's errors were, appended to @buf at *@len (ck_appendf): "DIMM name",
 * "node N range 0xbase-0xlast", "node N outside the soak ranges", "no address" or "other
 * places"; the words of every line that names a stored bucket (this and the black box's).
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
