/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report.h - the soak's ledger in words and JSON lines: one line per event, one per bucket
 * (the ledger table, by DIMM or by node and range), the verdict, and the
 * "# copykernel-soak:" summary line. Plain C into caller buffers, host-tested.
 *
 * Every function writes one line without its newline and returns the length the whole line
 * needs (as snprintf); a line longer than @size is cut (and a cut JSON line is not JSON: size
 * the buffer by the return value). Hex values go into JSON as strings ("0x..."): 64-bit
 * registers do not survive a JSON number.
 *
 *   # soak-event: 12.000000500s CPU 2 corrected: bank 1 STATUS 0x9c00000000000090 [VAL EN
 *       MISCV ADDRV] ... physical 0x40001000 (64 bytes), node 1, soak range
 *       0x40000000+0x40000000, DIMM P0_CHANNEL_B/DIMM_B0
 *   # soak-event: 3.141592653s CPU 1 miscompare: expected 0x0000000042000040 actual
 *       0x0000000040000040, differing bit 25, written by soak_march_mc (address), the data
 *       read is the address 0x40000040 (expected 0x42000040), stored error (the re-read
 *       stays wrong), physical 0x42000040 (8 bytes), node 0, soak range ..., no DIMM map
 *   # soak-ledger: DIMM P0_CHANNEL_B/DIMM_B0 (node 1): corrected 1, deferred 0, ...
 *   # copykernel-soak: result=FAIL duration=12.0s passes=3 bytes=... corrected=1 ...
 *       reason="miscompare (1)"
 */
#ifndef CK_SOAK_REPORT_H
#define CK_SOAK_REPORT_H

#include "soak/ledger.h"

/*
 * A miscompare's line is printed by the CPU that found it, when it found it (soak/run_work.c);
 * every other event's at the end. For address data (pattern.h's own-address patterns, and
 * their copies) the line names the address the data read is, when it is one of the soak's:
 * the word it came from (two addresses, one cell) or went to.
 */
size_t soak_event_text(const struct soak_event *e, const struct soak_where_map *map,
		       char *buf, size_t size);
/* The soak address a miscompare's address data names (see above): false when none. */
bool soak_data_address(const struct soak_event *e, const struct soak_where_map *map, u64 *addr);
size_t soak_event_json(const struct soak_event *e, const struct soak_where_map *map,
		       char *buf, size_t size);
size_t soak_bucket_text(const struct soak_totals *t, unsigned int i,
			const struct soak_where_map *map, char *buf, size_t size);
/* "PASS", or the failing rule with what it counted ("miscompare (1)"). */
size_t soak_verdict_text(const struct soak_totals *t, const struct soak_verdict *v,
			 const struct soak_where_map *map, char *buf, size_t size);
size_t soak_summary_text(const struct soak_totals *t, const struct soak_verdict *v,
			 const struct soak_where_map *map, char *buf, size_t size);
size_t soak_summary_json(const struct soak_totals *t, const struct soak_verdict *v,
			 const struct soak_where_map *map, char *buf, size_t size);

#endif
