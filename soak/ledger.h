/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ledger.h - the soak's error ledger: one entry per event, counted, attributed (node, soak
 * range, DIMM) and judged. Plain C over explicit inputs, host-tested.
 *
 * Each CPU keeps its own ledger (its storage is the caller's), so the CPU that saw an event
 * records it without sharing anything; the reporting CPU folds every ledger into one
 * struct soak_totals after the soak (or, for a checkpoint while they run, from what
 * soak_ledger_snapshot() and soak_ledger_stored() let a CPU that is not the writer read).
 *
 * Events: corrected (a polled bank or a CMCI), deferred (AMD: uncorrected, not consumed),
 * uncorrected-recovered (poison consumed by a copy or a verify and recovered), miscompare, a
 * stuck CPU, a retired page. Machine-check events carry their bank registers; the physical
 * address and its granularity (2^LSB bytes) come from mce/decode.h's rules.
 *
 * Bounded store: @cap entries; an event that finds the store full is still counted (by kind,
 * in its bucket, and as not stored), never dropped without trace. Buckets group events by
 * the DRAM rank the bank itself names (an AMD SMCA UMC bank with a DRAM ECC error and
 * SyndV, logged by a CPU whose AMD node is known: mce/dimm.h's node, UMC channel, DIMM and
 * rank; UMC numbers repeat on every node, so without the node there is no such key), else
 * by DIMM when the firmware's DIMM map names exactly one, else by node and soak range, else
 * "no address";
 * past SOAK_MAX_BUCKETS one "other" bucket counts the rest. A rank's bucket is keyed by
 * those four alone (not by the CPU or the bank number), so one DIMM logging through the
 * shared UMC banks of several CPUs keeps one bucket when the ledgers fold; each error is in
 * the ledger once because one CPU reads a bank's error and clears it (mce/poll_core.h's
 * ownership).
 *
 * The verdict, as data (soak_rules[]): any uncorrected error (recovered or deferred),
 * miscompare or stuck CPU fails; corrected errors fail when one bucket (one DIMM, or one
 * node range; a bank-named DIMM's ranks counted together) has more than the corrected-error
 * threshold (SOAK_CE_THRESHOLD unless the
 * run says otherwise: mcelog's per-DIMM default, 10 in 24 hours, taken per soak); a soak
 * that verified nothing fails.
 *
 * A node's verdict (its KTAP case and LAVA line) is the same rules over what is that node's
 * alone: the events whose address lies on it (a stuck CPU: the CPU's node), counted per
 * node as they are recorded, and the buckets on it. So a node fails only when the soak
 * does, and a node with nothing of its own passes whatever another node did. Events with
 * no node (no address, an address no node holds) and the "other" bucket count only for
 * the whole soak.
 */
#ifndef CK_SOAK_LEDGER_H
#define CK_SOAK_LEDGER_H

#include "kernel/include/types.h"
#include "kernel/platform/numa.h"
#include "kernel/platform/smbios.h"
#include "soak/pattern.h"
#include "soak/plan.h"

enum soak_ev_kind {
	SOAK_EV_CORRECTED,
	SOAK_EV_DEFERRED,
	SOAK_EV_UC_RECOVERED,
	SOAK_EV_MISCOMPARE,
	SOAK_EV_STUCK_CPU,
	SOAK_EV_RETIRED_PAGE,
	NR_SOAK_EV
};

#define SOAK_NO_NODE		0xff
#define SOAK_MAX_BUCKETS	32
#define SOAK_CE_THRESHOLD	10

/* Entry flags. */
#define SOAK_EVF_MCA		BIT(0)	/* bank, status, addr, misc are the bank's registers */
#define SOAK_EVF_PHYS		BIT(1)	/* phys is known (lsb its granularity) */
#define SOAK_EVF_OVER		BIT(2)	/* MCi_STATUS.OVER: more errors than the bank held */
#define SOAK_EVF_SOAKED		BIT(3)	/* phys lies in a soak range (range_base/size) */
#define SOAK_EVF_AMD		BIT(4)	/* the bank's layout: AMD (or Hygon), SMCA, Hygon */
#define SOAK_EVF_SMCA		BIT(5)
#define SOAK_EVF_HYGON		BIT(6)
#define SOAK_EVF_UMC		BIT(7)	/* the bank names node, UMC, DIMM, rank (mce/dimm.h) */

/* What a re-read of a miscompared word said. */
enum soak_reread {
	SOAK_REREAD_NONE,	/* not re-read */
	SOAK_REREAD_READ_ERROR,	/* the re-read is right: the first read was wrong */
	SOAK_REREAD_STORED,	/* the re-read is what the first read saw: memory holds it */
	SOAK_REREAD_UNSTABLE,	/* the re-read is a third value */
	NR_SOAK_REREAD
};

/* A machine-check bank as the caller read it. */
struct soak_mca {
	u16 bank;
	u64 status, addr, misc;
	bool amd, smca, hygon;	/* whose address rules apply (mce/decode.h) */
	bool ser_p;		/* MCG_CAP.SER_P: MISC's LSB applies to a legacy AMD bank too */
	u64 ipid, synd;		/* SMCA: MCA_IPID and MCA_SYND of the bank */
	int cpu_node;		/* the logging CPU's AMD node (mce_cpu_amd_node); -1 unknown */
};

/* What wrote a miscompared word: how, which pattern, which copy primitive (or -1). */
struct soak_writer {
	enum soak_how how;
	enum soak_pat pat;
	int copy_op;
};

struct soak_event {
	u64 t_ns;		/* since the soak started */
	u16 cpu;
	u8 kind, flags;
	u16 bank;
	u64 status, addr, misc;
	u64 ipid, synd;		/* SOAK_EVF_SMCA: the bank's MCA_IPID and MCA_SYND */
	u8 cpu_node;		/* SOAK_EVF_MCA: the logging CPU's AMD node; SOAK_NO_NODE unknown */
	u64 phys;
	u8 lsb;			/* granularity 2^lsb bytes, when SOAK_EVF_PHYS */
	u8 node;		/* of phys (a stuck CPU: its own); SOAK_NO_NODE when unknown */
	u8 where;		/* enum smbios_where */
	u8 nr_dimms;		/* devices holding phys (where ONE_DIMM / INTERLEAVED) */
	u16 dimm[2];		/* the first two of them */
	u64 range_base, range_size;
	/* miscompare */
	u64 expected, actual, reread_value;
	u8 how, pat, reread;
	s8 copy_op;
	/* stuck CPU */
	u64 rip;
	/* retired page: the kind of the event that retired it */
	u8 cause;
};

/* Read-only facts every CPU's ledger attributes with (shared, never written). */
struct soak_where_map {
	const struct soak_plan *plan;		/* soak ranges and their nodes; may be NULL */
	/* nodes outside the soak ranges (without an SRAT: node 0 holds all); may be NULL */
	const struct numa_info *numa;
	const struct smbios_dimms *dimms;	/* NULL: no SMBIOS table at all */
	/* RIP to "symbol+0xoff" for stuck CPUs in reports; may be NULL */
	void (*symbol)(u64 rip, char *buf, size_t size);
	/*
	 * The silkscreen label of AMD node @node's UMC @umc chip select @cs from the labels file
	 * (rasdaemon's mc.row.channel), NULL when none; may be NULL.
	 */
	const char *(*dimm_label)(unsigned int node, unsigned int cs, unsigned int umc);
};

/* The types of bucket; UMC after the older ones (the checkpoint record stores the number). */
enum soak_bucket_type { SOAK_BUCKET_DIMM, SOAK_BUCKET_RANGE, SOAK_BUCKET_NO_ADDRESS,
			SOAK_BUCKET_OTHER, SOAK_BUCKET_UMC, NR_SOAK_BUCKET_TYPES };

struct soak_bucket {
	enum soak_bucket_type type;
	/*
	 * RANGE: the node and why not a DIMM (enum smbios_where). DIMM, UMC: the memory node of
	 * its errors' addresses (UMC: the lowest one known, not part of the key).
	 */
	u8 node, where;
	u16 dimm;		/* DIMM: index in the map */
	/* UMC, the key: the logging CPU's AMD node (SOAK_NO_NODE unknown), channel, DIMM, rank */
	u8 umc_node, umc_dimm, umc_rank;
	u16 umc;
	u64 base, size;		/* RANGE: the soak range, or the page (outside the ranges) */
	u32 count[NR_SOAK_EV];
};

struct soak_ledger {
	const struct soak_where_map *map;
	struct soak_event *ev;
	struct soak_event last;		/* the last event recorded, stored or not */
	unsigned int cap, nr;
	u64 count[NR_SOAK_EV];
	u64 node_count[NUMA_MAX_NODES][NR_SOAK_EV];	/* of the events with a node */
	u64 not_stored;
	unsigned int nr_buckets;
	struct soak_bucket bucket[SOAK_MAX_BUCKETS];
};

void soak_ledger_init(struct soak_ledger *l, struct soak_event *storage, unsigned int cap,
		      const struct soak_where_map *map);
/* @kind: SOAK_EV_CORRECTED, SOAK_EV_DEFERRED or SOAK_EV_UC_RECOVERED, as the caller graded. */
void soak_ledger_mca(struct soak_ledger *l, u64 t_ns, u16 cpu, enum soak_ev_kind kind,
		     const struct soak_mca *m);
/*
 * Poison met by a verify or a copy with no bank to tell (emulated poison, a #PF): an
 * uncorrected-recovered event at @phys with granularity 2^@lsb (6: the line verify names).
 */
void soak_ledger_poison(struct soak_ledger *l, u64 t_ns, u16 cpu, u64 phys, unsigned int lsb);
void soak_ledger_miscompare(struct soak_ledger *l, u64 t_ns, u16 cpu, u64 phys, u64 expected,
			    u64 actual, const struct soak_writer *w, bool reread, u64 reread_value);
/* CPU @cpu (on node @node) stuck at @rip. */
void soak_ledger_stuck(struct soak_ledger *l, u64 t_ns, u16 cpu, u8 node, u64 rip);
void soak_ledger_retire(struct soak_ledger *l, u64 t_ns, u16 cpu, u64 phys,
			enum soak_ev_kind cause);

/*
 * For a checkpoint while @l's CPU still records (the reading CPU writes nothing in @l):
 * the entries stored so far, each whole and never written again (acquire); and a copy of
 * @from's counts and buckets into @to, which shares @from's stored entries read-only (@to's
 * cap is 0: nothing may be recorded in it), so a fold of @to knows each kind's earliest
 * event as a fold of @from does. A bucket is copied once its key is
 * published; counts are read one by one (relaxed), so the copy is of no single instant: an
 * event recorded during it may be in a count and not yet in its bucket.
 */
unsigned int soak_ledger_stored(const struct soak_ledger *l);
void soak_ledger_snapshot(struct soak_ledger *to, const struct soak_ledger *from);

enum soak_reread soak_reread_class(u64 expected, u64 actual, u64 reread);

/* Whether bucket type @type has a memory node (DIMM, RANGE, UMC). */
bool soak_bucket_has_node(unsigned int type);
/* Whether @a and @b are UMC buckets of one DIMM (node, UMC, DIMM; any rank). */
bool soak_same_umc_dimm(const struct soak_bucket *a, const struct soak_bucket *b);

/* Every ledger folded, with the run's own facts. */
struct soak_totals {
	u64 seed, elapsed_ns, bytes_verified, bytes_per_pass, free_bytes;
	u32 passes, cpus;
	u32 ce_threshold;		/* 0: SOAK_CE_THRESHOLD */
	u64 count[NR_SOAK_EV];
	u64 node_count[NUMA_MAX_NODES][NR_SOAK_EV];
	u64 not_stored;
	unsigned int nr_buckets;
	struct soak_bucket bucket[SOAK_MAX_BUCKETS];
	/*
	 * Of each kind, the earliest stored event with an address or a bank-named rank (the
	 * verdict names it: its address, its rank, or both).
	 */
	struct soak_first {
		bool known;
		u16 cpu;
		u64 t_ns, phys;
		bool phys_known, umc_known;
		u8 umc_node, cs;	/* umc_known: as a UMC bucket's key (cs = 2 DIMM + rank) */
		u16 umc;
	} first[NR_SOAK_EV];
	struct soak_first node_first[NUMA_MAX_NODES][NR_SOAK_EV];	/* the same, per node */
};

void soak_totals_init(struct soak_totals *t);
void soak_totals_add(struct soak_totals *t, const struct soak_ledger *l);

/* The verdict rules, in order; the first that fails names the verdict's reason. */
enum soak_scope { SOAK_SCOPE_RUN, SOAK_SCOPE_BUCKET, SOAK_SCOPE_NOTHING_SOAKED };
struct soak_rule {
	const char *name;
	enum soak_scope scope;
	u8 kind;		/* the event kind it counts */
	bool threshold;		/* the limit is the run's corrected-error threshold, else 0 */
};
extern const struct soak_rule soak_rules[];
extern const unsigned int soak_nr_rules;

struct soak_verdict {
	bool pass;
	int rule;		/* the first failing rule, or -1 */
	int bucket;		/* for a bucket rule: the bucket, else -1 */
	u64 count, limit;	/* what it counted, and the most it allows */
	/* A node's verdict (soak_judge_node): @node is the node; else the whole soak's. */
	bool of_node;
	u8 node;
	/*
	 * A failure the run found and the ledger cannot see (rule -1): a CPU that did not cover
	 * its pages, a soak_fault= knob that did not do what it asked. NULL: none.
	 */
	const char *run_reason;
};
void soak_judge(const struct soak_totals *t, struct soak_verdict *v);
/* The same rules over node @node's own events and buckets ("nothing soaked" is the run's). */
void soak_judge_node(const struct soak_totals *t, unsigned int node, struct soak_verdict *v);

const char *soak_ev_name(enum soak_ev_kind k);
const char *soak_reread_name(enum soak_reread r);

#endif
