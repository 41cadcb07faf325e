/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blackbox.h - the soak's black box in a UEFI variable: the wrapper that says which run wrote
 * a soak checkpoint record (soak/checkpoint.h), how many it wrote and whether a later
 * run reported it; the writer's pacing and counts; what the next boot says of the previous
 * run. Plain C over explicit inputs (the firmware glue is init/results.c), host-tested in
 * tests/host/test_blackbox.c and fuzzed (tests/fuzz/fuzz_blackbox.c).
 *
 * The variable is BOOT_CKPT_VAR ("CopykernelSoak") under the project's vendor GUID; it holds,
 * little-endian:
 *    0  4  "CKB1"
 *    4  4  run id of the run that wrote it (results.h)
 *    8  4  checkpoints that run has written, this one included (1, 2, ...)
 *   12  4  run id of a later run that reported it and stored that in its own summary; 0: none
 *   16 24  the writing run's start on the firmware clock, printable ASCII, NUL padded
 *   40  4  CRC-32 (zlib's) of bytes 0..39
 *   44     the soak's checkpoint record, whole ("CKSK", its own length and CRC)
 * Reserved bytes do not exist: every byte is a field, and a variable that decodes re-encodes
 * to the same bytes.
 *
 * Flash wear. The soak asks for a checkpoint at most every SOAK_CKPT_INTERVAL_NS (ten
 * minutes), plus once for each kind of event the last one lacked, plus its final one
 * (soak_ckpt_due()). The writer holds to that itself, whatever the caller does: it takes the
 * first record, a record with a kind of event the last written one lacked (six kinds, so at
 * most six such writes in a run), a final record, and otherwise only a record BB_INTERVAL_NS
 * (ten minutes less one second, for two clocks read a moment apart) after the last write; it
 * refuses the rest with -EAGAIN. So a run writes at most 1 + 6 + 1 checkpoints plus one per
 * 599 s: at most 15 in its first hour, 7 in any later hour, about 150 in a 24-hour soak. Each
 * is one SetVariable of at most BB_MAX bytes. EDK2-style stores append every write (about
 * 800 bytes with the variable's header and name) and reclaim (erase and rewrite their flash
 * blocks once) when full: with a 64-256 KiB store that is one erase cycle per 10-40 hours of
 * soak, against the 100000 cycles NOR flash is rated for.
 */
#ifndef CK_SOAK_BLACKBOX_H
#define CK_SOAK_BLACKBOX_H

#include "kernel/include/boot_info.h"
#include "kernel/lib/json.h"
#include "soak/checkpoint.h"

#define BB_HEADER	44
#define BB_STARTED	24
#define BB_MAX		(BB_HEADER + SOAK_CKPT_MAX)
#define BB_INTERVAL_NS	(SOAK_CKPT_INTERVAL_NS - 1000000000ULL)

_Static_assert(BB_MAX <= BOOT_CKPT_MAX, "boot/'s buffer holds a whole checkpoint variable");

struct bb_header {
	u32 run_id;
	u32 seq;			/* checkpoints its run wrote, this one included */
	u32 reported_by;		/* the run that reported it; 0: not reported */
	char started[BB_STARTED + 1];	/* NUL-terminated; "" when unknown */
};

/* The variable as decoded: its header, the soak's record, and the record's own bytes. */
struct bb_var {
	struct bb_header h;
	struct soak_ckpt c;
	const u8 *rec;			/* inside the decoded buffer */
	size_t rec_len;
};

/*
 * The variable for @h and the soak record @rec (@rec_len bytes, not checked here) into @buf.
 * Returns its length, or 0 when @size is too small. @h->started is cut at BB_STARTED bytes and
 * anything not printable ASCII in it becomes '?'.
 */
size_t bb_encode(const struct bb_header *h, const u8 *rec, size_t rec_len, u8 *buf,
		 size_t size);
/* Returns 0, or -1 and @why. @v->rec points into @buf. */
int bb_decode(const u8 *buf, size_t len, struct bb_var *v, const char **why);

/* What the next boot found of the previous run's checkpoint. */
enum bb_prev_state {
	BB_PREV_NONE,		/* no such variable */
	BB_PREV_UNREAD,		/* boot/ could not read it (why) */
	BB_PREV_DAMAGED,	/* read, but it does not decode (why) */
	BB_PREV_UNFINISHED,	/* the soak ended without its summary: a reset, a hang, a panic */
	BB_PREV_FINISHED,	/* the soak's final checkpoint: its summary was written */
};

struct bb_prev {
	enum bb_prev_state state;
	const char *why;		/* UNREAD and DAMAGED: the reason */
	u32 value;			/* UNREAD: the firmware's error or the variable's size */
	struct bb_var v;		/* UNFINISHED and FINISHED */
};

/* Judge what boot/ copied (@bv, which must outlive @p). */
void bb_prev_from(struct bb_prev *p, const struct boot_var *bv);
/*
 * The line the next boot prints (without a prefix or a newline), as snprintf returns:
 *   previous run 1a2b3c4d ended without a summary; its last checkpoint (19 written) was
 *   3h02m05s into the soak: passes 2, bytes 1610612736, CE 3, UE 1, deferred 0, miscompares
 *   0, stuck CPUs 0, retired pages 1, failing so far; worst: DIMM P0_CH_A/DIMM_A0 (CE 3, UE
 *   1, deferred 0, miscompares 0)
 * The time is the last checkpoint's: a run that did not finish may have soaked on after it
 * (up to SOAK_CKPT_INTERVAL_NS). A finished run's line says "ended with its soak summary after
 * T; its last checkpoint (N written): ...", T the soak's whole time (its final checkpoint is
 * written before its summary line is printed).
 */
size_t bb_prev_text(const struct bb_prev *p, char *buf, size_t size);
/* @p as the member @key of a JSON record (tools/cklib/blackbox.py reads the same keys). */
void bb_prev_json(struct json_writer *w, const char *key, const struct bb_prev *p);
/* "3h02m05s", "4m00s", "12.345s": how long @ns is, as every black-box line says it. */
size_t bb_duration(u64 ns, char *buf, size_t size);

/* A variable store: 0 or the store's error (results.h's results_set_var_fn). */
typedef int (*bb_set_var_fn)(const char *name, const void *data, size_t size);

struct bb_writer {
	bb_set_var_fn set_var;		/* NULL: no store (every write is -EIO) */
	u64 (*now_ns)(void);		/* a monotonic clock */
	struct bb_header h;		/* run id and start; seq: checkpoints written */
	u32 refused_rate;		/* records the pacing refused (-EAGAIN) */
	u32 refused_bad;		/* records that are not soak checkpoints (-EINVAL) */
	u32 failed;			/* writes the store refused (-EIO); the last error: */
	int last_err;
	u64 last_ns;			/* when the last one was written; ~0: never */
	u32 kinds;			/* kinds of event the last one had counted */
	bool final;			/* a final record was written */
	u64 last_elapsed_ns;		/* the soak's time in the last one written */
	u64 slowest_ns;			/* the longest store call */
};

void bb_writer_init(struct bb_writer *w, bb_set_var_fn set_var, u64 (*now_ns)(void),
		    u32 run_id, const char *started);
/*
 * Store the soak's record @rec (@len bytes) as the variable, if the pacing above takes it.
 * Returns 0, -EINVAL (not a well-formed soak checkpoint: nothing written), -EAGAIN (too soon:
 * nothing written) or -EIO (the store refused; w->last_err says how). Never waits: its time
 * is one call of the store.
 */
int bb_write(struct bb_writer *w, const void *rec, size_t len);
/* The writer's counts as the member @key of a JSON record. */
void bb_writer_json(struct json_writer *j, const char *key, const struct bb_writer *w);

#endif
