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

#include "kernel/lib/json.h"
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
/* One CPU's passes, as its line and its "soak_cpu" record say them. */
struct soak_cpu_figures {
	u16 cpu;
	u8 node;		/* of its CPU */
	bool stuck;
	u32 passes;		/* whole passes */
	u64 pages;		/* of its slices: what a whole pass touches */
	u64 first_ns, min_ns, max_ns;	/* how long its whole passes took (passes > 0) */
	u64 done_ns;		/* when its passes ended, into the soak (not stuck) */
};
/*
 *   soak: CPU 1 (node 0): 2 whole passes over 63533 pages (248.1 MiB), the first in
 *       12.345s (fastest 12.001s, slowest 12.345s); done 24.400s into the soak
 */
size_t soak_cpu_text(const struct soak_cpu_figures *f, char *buf, size_t size);
size_t soak_cpu_json(const struct soak_cpu_figures *f, char *buf, size_t size);

/*
 * The soak's KTAP document: a case per node (0 .. @nr_nodes - 1) and its LAVA line, then the
 * soak's own result, which is @v's (the summary's). A node fails on its own verdict
 * (soak_judge_node) or when a run rule failed for it (bit n of @run_nodes: a CPU that did not
 * cover that node's memory; @run_why says which rule); each failing node, and a failure
 * that is no node's, is said in a diagnostic line before its result:
 *   KTAP version 1
 *   1..1
 *       KTAP version 1
 *       # Subtest: soak
 *       1..2
 *       ok 1 node0
 *       # ck-lava <soak.node0 pass>
 *       # node1: miscompare (1)
 *       not ok 2 node1
 *       # ck-lava <soak.node1 fail>
 *   not ok 1 soak
 */
size_t soak_ktap_text(const struct soak_totals *t, const struct soak_verdict *v,
		      const struct soak_where_map *map, unsigned int nr_nodes, u32 run_nodes,
		      const char *run_why, char *buf, size_t size);
/*
 * An SMCA UMC rank as a JSON member "umc": the logging CPU's AMD @node (SOAK_NO_NODE: null),
 * the UMC, chip select @cs (DIMM cs / 2, rank cs % 2, as amd64_edac pairs them) and @label
 * (NULL: null). The summary's ledger and the black box's worst buckets both write it.
 */
void soak_umc_json(struct json_writer *w, unsigned int node, unsigned int umc, unsigned int cs,
		   const char *label);
size_t soak_summary_json(const struct soak_totals *t, const struct soak_verdict *v,
			 const struct soak_where_map *map, char *buf, size_t size);

#endif
