// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_soak_umc.c - the soak ledger keys DRAM errors by the rank the SMCA UMC bank names
 * (soak/ledger.c with mce/dimm.c), and its reports, checkpoint and black box say so.
 *
 * The machine: two sockets (AMD nodes 0 and 1) of four CPUs each; each socket's eight UMC
 * banks are one set of registers every CPU of the socket sees (a shared bank), and the board
 * puts slots A-H on UMCs 0 1 3 2 6 7 5 4. Errors are written into those shared registers and
 * the CPUs poll them in a random order, reading a bank only when the ownership rule
 * (mce/poll_core.c's mce_poll_ownership) gives it to them, clearing what they read, each into
 * its own ledger. The expected counts come from the injected errors through
 * ktest/oracle/amd_umc.c (Linux's amd64_edac rules, rasdaemon's labels), never from
 * mce/dimm.c: every rank's count exact, each error once, whichever CPU read it.
 *
 * The errors fall on 24 ranks (four UMCs, chip selects 0, 1 and 5, two sockets), so the
 * ledger's 31 buckets hold every one of them with the non-DRAM errors.
 *
 * - shared banks, ownership by IPID (the lowest CPU of a socket reads) and unknown (every
 *   CPU in turn, the first reader clears): each error in exactly one bucket, the rank's;
 *   non-DRAM and SyndV-clear errors never in a rank's bucket; each label the oracle's;
 * - the corrected-error threshold counts a DIMM's two ranks together (mcelog's per-DIMM
 *   rule); a deferred error's verdict (and the KTAP that says it) names its first rank;
 * - the summary's JSON and text, the checkpoint (version 3) and the black box JSON name the
 *   rank and its label; a version 2 record cannot hold it.
 */
#include "ktest/oracle/amd_umc.h"
#include "mce/dimm_labels.h"
#include "mce/poll_core.h"
#include "soak/blackbox.h"
#include "soak/report.h"
#include "tests/host/host_test.h"

/* Raw values written out, not built from mce_regs.h (the same words as test_dimm.c). */
#define ST_CE		0x9c20400000000000ULL	/* VAL EN MISCV ADDRV SyndV, ECC type 2 */
#define ST_DEFERRED	0x9820100000000000ULL	/* VAL EN MISCV SyndV Deferred */
#define ST_NO_SYNDV	0x9c00400000000000ULL	/* corrected, SyndV clear */
#define ST_XEC(x)	(ST_CE | ((uint64_t)(x) << 16))
#define IPID_UMC(ch)	(0x0000009600000000ULL | ((uint64_t)(ch) << 20) | 0x50f00ULL)
#define IPID_LS		0x000000b000000000ULL	/* load-store unit: not a UMC */

#define NODES		2
#define CPUS_PER_NODE	4
#define NR_CPUS		(NODES * CPUS_PER_NODE)
#define UMCS		8
#define BANK0		16	/* the UMC banks' numbers in every CPU's bank list */
#define NBANKS		(BANK0 + UMCS)

static const char board[] =
	"Vendor: Example Server Co.\n"
	"  Model: H13DSH\n"
	"    P0_A: 0.0.0, 0.1.0;  P0_B: 0.0.1, 0.1.1;  P0_C: 0.0.3, 0.1.3;  P0_D: 0.0.2, 0.1.2;\n"
	"    P0_E: 0.0.6, 0.1.6;  P0_F: 0.0.7, 0.1.7;  P0_G: 0.0.5, 0.1.5;  P0_H: 0.0.4, 0.1.4;\n"
	"    P1_A: 1.0.0, 1.1.0;  P1_B: 1.0.1, 1.1.1;  P1_C: 1.0.3, 1.1.3;  P1_D: 1.0.2, 1.1.2;\n"
	"    P1_E: 1.0.6, 1.1.6;  P1_F: 1.0.7, 1.1.7;  P1_G: 1.0.5, 1.1.5;  P1_H: 1.0.4, 1.1.4;\n";

static struct dimm_labels db;

static const char *label_of(unsigned int node, unsigned int cs, unsigned int umc)
{
	return dimm_labels_find(&db, node, cs, umc);
}

static struct soak_where_map map = { .dimm_label = label_of };

/* The oracle's label for (mc, row, channel), or "" when the file has none. */
static const char *want_label(unsigned int node, unsigned int cs, unsigned int ch)
{
	static char out[64];
	unsigned int bad = 0;

	if (lx_labels_lookup(board, sizeof(board) - 1, "Example Server Co.", "H13DSH", node, cs,
			     ch, out, sizeof(out), &bad) != 1)
		out[0] = '\0';
	return out;
}

static u64 rng = 0x9e3779b97f4a7c15ULL;

static unsigned int rnd(unsigned int n)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned int)((rng >> 33) % n);
}

/* One socket's shared UMC registers, as the hardware holds them. */
struct shared_bank {
	bool full;
	u64 status, ipid, synd;
};

/* What the oracle expects per (node, channel, DIMM, rank) and kind, and who logged it. */
struct expect {
	u32 count[NR_SOAK_EV];
	u32 cpus;		/* bit c: CPU c read one of its errors */
};

static struct expect want[NODES][UMCS][4][2];
static struct soak_event store[NR_CPUS][1024];
static struct soak_ledger led[NR_CPUS];
static struct soak_totals tot;

/* The banks CPU @cpu reads: its own (bits below BANK0) and the shared ones it owns. */
static u64 owned_banks(unsigned int cpu, enum mce_share_method how)
{
	struct mce_poll_share in = { .share = how, .nbanks = NBANKS };
	u64 owned, unknown;

	/* Every CPU but a socket's first also sees its socket's UMC banks on a lower CPU. */
	if (cpu % CPUS_PER_NODE)
		in.ipid_below = ((1ULL << UMCS) - 1) << BANK0;
	mce_poll_ownership(&in, &owned, &unknown);
	return owned | unknown;
}

/*
 * @n errors into the shared banks, each polled at once by the CPUs in a random order; the
 * first CPU whose banks include it reads and clears it. Returns how many errors were not
 * DRAM errors the oracle decodes (they belong in no rank's bucket).
 */
static unsigned int run(enum mce_share_method how, unsigned int n)
{
	struct shared_bank sb[NODES][UMCS] = { 0 };
	unsigned int other = 0;

	memset(want, 0, sizeof(want));
	for (unsigned int c = 0; c < NR_CPUS; c++)
		soak_ledger_init(&led[c], store[c], 1024, &map);
	for (unsigned int i = 0; i < n; i++) {
		static const unsigned int chans[] = { 1, 3, 4, 6 }, css[] = { 0, 1, 5 };
		unsigned int node = rnd(NODES), ch = chans[rnd(4)], pick = rnd(16), order[NR_CPUS];
		struct shared_bank *b = &sb[node][ch];
		struct lx_umc_out o;

		b->full = true;
		b->ipid = IPID_UMC(ch);
		b->synd = css[rnd(3)] | 0x1c0000ULL;	/* chip select, syndrome length 7 */
		b->status = pick < 10 ? ST_CE : pick < 13 ? ST_DEFERRED :
			    pick < 14 ? ST_NO_SYNDV : pick < 15 ? ST_XEC(1) : ST_CE;
		if (pick == 15)
			b->ipid = IPID_LS;		/* some other bank type */
		lx_umc_decode(b->status, b->ipid, b->synd, node, true, &o);
		for (unsigned int c = 0; c < NR_CPUS; c++)
			order[c] = c;
		for (unsigned int c = NR_CPUS - 1; c > 0; c--) {
			unsigned int j = rnd(c + 1), t = order[c];

			order[c] = order[j];
			order[j] = t;
		}
		for (unsigned int k = 0; k < NR_CPUS; k++) {
			unsigned int c = order[k];
			enum soak_ev_kind kind = b->status == ST_DEFERRED ? SOAK_EV_DEFERRED :
						 SOAK_EV_CORRECTED;
			struct soak_mca m = { .bank = (u16)(BANK0 + ch), .status = b->status,
					      .amd = true, .smca = true, .ipid = b->ipid,
					      .synd = b->synd,
					      .cpu_node = (int)(c / CPUS_PER_NODE) };

			if (c / CPUS_PER_NODE != node || !(owned_banks(c, how) >> (BANK0 + ch) & 1))
				continue;
			soak_ledger_mca(&led[c], i, (u16)c, kind, &m);
			b->full = false;			/* read and cleared */
			if (o.path != LX_UMC_DECODED) {
				other++;
			} else {
				want[o.node][o.channel][o.dimm][o.rank].count[kind]++;
				want[o.node][o.channel][o.dimm][o.rank].cpus |= 1u << c;
			}
			break;
		}
		CHECK(!b->full, "error %u on node %u UMC %u read by no CPU", i, node, ch);
	}
	soak_totals_init(&tot);
	for (unsigned int c = 0; c < NR_CPUS; c++)
		soak_totals_add(&tot, &led[c]);
	return other;
}

/* Every UMC bucket against the oracle's counts; the rest hold exactly the other errors. */
static void check_buckets(const char *how, unsigned int n, unsigned int other)
{
	unsigned int keys = 0, umc_buckets = 0, multi = 0;
	u64 rest = 0, all = 0;

	for (unsigned int i = 0; i < tot.nr_buckets; i++) {
		const struct soak_bucket *b = &tot.bucket[i];
		const struct expect *e;

		for (int k = 0; k < NR_SOAK_EV; k++)
			all += b->count[k];
		if (b->type != SOAK_BUCKET_UMC) {
			rest += b->count[SOAK_EV_CORRECTED] + b->count[SOAK_EV_DEFERRED];
			continue;
		}
		umc_buckets++;
		if (b->umc_node >= NODES || b->umc >= UMCS || b->umc_dimm >= 4 || b->umc_rank > 1) {
			CHECK(0, "%s: bucket %u key out of range", how, i);
			continue;
		}
		e = &want[b->umc_node][b->umc][b->umc_dimm][b->umc_rank];
		CHECK(b->count[SOAK_EV_CORRECTED] == e->count[SOAK_EV_CORRECTED] &&
		      b->count[SOAK_EV_DEFERRED] == e->count[SOAK_EV_DEFERRED],
		      "%s: node %u UMC %u DIMM %u rank %u: %u corrected %u deferred, oracle %u %u",
		      how, b->umc_node, b->umc, b->umc_dimm, b->umc_rank,
		      b->count[SOAK_EV_CORRECTED], b->count[SOAK_EV_DEFERRED],
		      e->count[SOAK_EV_CORRECTED], e->count[SOAK_EV_DEFERRED]);
		multi += __builtin_popcount(e->cpus) > 1;
	}
	for (unsigned int nd = 0; nd < NODES; nd++)
		for (unsigned int ch = 0; ch < UMCS; ch++)
			for (unsigned int d = 0; d < 4; d++)
				for (unsigned int r = 0; r < 2; r++)
					keys += want[nd][ch][d][r].count[SOAK_EV_CORRECTED] +
						want[nd][ch][d][r].count[SOAK_EV_DEFERRED] > 0;
	CHECK(tot.nr_buckets < SOAK_MAX_BUCKETS, "%s: buckets overflowed", how);
	CHECK(umc_buckets == keys, "%s: %u rank buckets, the oracle names %u ranks", how,
	      umc_buckets, keys);
	CHECK(rest == other && all == n, "%s: %llu in other buckets (oracle %u), %llu in all (%u)",
	      how, (unsigned long long)rest, other, (unsigned long long)all, n);
	CHECK(tot.count[SOAK_EV_CORRECTED] + tot.count[SOAK_EV_DEFERRED] == n,
	      "%s: the counts by kind add up to %u", how, n);
	if (!strncmp(how, "unknown", 7))
		CHECK(multi > 0, "no rank was read through two CPUs: the test shows nothing");
}

static void test_shared_banks_count_each_error_once(void)
{
	unsigned int other;

	other = run(MCE_SHARE_IPID, 800);
	check_buckets("ipid", 800, other);
	other = run(MCE_SHARE_UNKNOWN, 800);
	check_buckets("unknown", 800, other);
	/* A checkpoint's copies of the ledgers (soak_ledger_snapshot) fold to the same buckets. */
	for (unsigned int c = 0; c < NR_CPUS; c++) {
		static struct soak_ledger copy;

		soak_ledger_snapshot(&copy, &led[c]);
		led[c] = copy;
	}
	soak_totals_init(&tot);
	for (unsigned int c = 0; c < NR_CPUS; c++)
		soak_totals_add(&tot, &led[c]);
	check_buckets("unknown, from snapshots", 800, other);
}

static void test_labels_are_the_oracles(void)
{
	char line[512];

	run(MCE_SHARE_UNKNOWN, 400);
	for (unsigned int i = 0; i < tot.nr_buckets; i++) {
		const struct soak_bucket *b = &tot.bucket[i];
		const char *w = NULL;
		char words[160];

		if (b->type != SOAK_BUCKET_UMC || b->umc_node >= NODES)
			continue;
		w = want_label(b->umc_node, 2 * b->umc_dimm + b->umc_rank, b->umc);
		snprintf(words, sizeof(words),
			 "node %u UMC %u DIMM %u rank %u (chip select %u, %s%s):", b->umc_node, b->umc, b->umc_dimm, b->umc_rank,
			 2 * b->umc_dimm + b->umc_rank, w[0] ? "label " : "no label", w);
		soak_bucket_text(&tot, i, &map, line, sizeof(line));
		CHECK(strstr(line, words), "%s / want %s", line, words);
	}
}

/* @ce0 corrected errors on rank 0 and @ce1 on rank 1 of node 1 UMC 3 DIMM 0 (slot P1_C). */
static void two_ranks(unsigned int ce0, unsigned int ce1, struct soak_verdict *v)
{
	struct soak_ledger l;

	soak_ledger_init(&l, store[0], 1024, &map);
	for (unsigned int i = 0; i < ce0 + ce1; i++) {
		struct soak_mca m = { .bank = BANK0 + 3, .status = ST_CE, .amd = true, .smca = true,
				      .ipid = IPID_UMC(3), .synd = (i < ce0 ? 0 : 1) | 0x1c0000ULL,
				      .cpu_node = 1 };

		soak_ledger_mca(&l, i, 4, SOAK_EV_CORRECTED, &m);
	}
	soak_totals_init(&tot);
	tot.bytes_verified = 4096;
	soak_totals_add(&tot, &l);
	soak_judge(&tot, v);
}

static void test_threshold_counts_a_dimms_ranks(void)
{
	struct soak_verdict v;
	char why[256];

	two_ranks(5, 5, &v);
	CHECK(v.pass && tot.nr_buckets == 2, "10 corrected on one DIMM: pass (%u buckets)",
	      tot.nr_buckets);
	two_ranks(6, 5, &v);
	soak_verdict_text(&tot, &v, &map, why, sizeof(why));
	CHECK(!v.pass && v.count == 11 && v.limit == SOAK_CE_THRESHOLD &&
	      strstr(why, "11 > 10 in node 1 UMC 3 DIMM 0 (its ranks together, label P1_C)"),
	      "6 + 5: %s", why);
	two_ranks(0, 11, &v);
	soak_verdict_text(&tot, &v, &map, why, sizeof(why));
	CHECK(!v.pass && v.count == 11 && strstr(why, "in node 1 UMC 3 DIMM 0"), "0 + 11: %s",
	      why);
	/* A CPU whose AMD node is unknown: UMC 3 of which socket? No rank's bucket, no guess. */
	{
		struct soak_ledger l;
		struct soak_mca m = { .bank = BANK0 + 3, .status = ST_CE, .amd = true, .smca = true,
				      .ipid = IPID_UMC(3), .synd = 1 | 0x1c0000ULL,
				      .cpu_node = -1 };

		soak_ledger_init(&l, store[0], 16, &map);
		soak_ledger_mca(&l, 1, 0, SOAK_EV_CORRECTED, &m);
		CHECK(l.nr_buckets == 1 && l.bucket[0].type != SOAK_BUCKET_UMC,
		      "node unknown: bucket type %u", l.bucket[0].type);
	}
}

/* @s with its newlines as '|' (a diagnostic stays one line). */
static const char *one_line(char *s)
{
	for (char *p = s; *p; p++)
		if (*p == '\n')
			*p = '|';
	return s;
}

/* A deferred error on a rank fails the soak; the verdict, its KTAP and LAVA lines name the rank. */
static void test_verdict_names_the_first_rank(void)
{
	struct soak_ledger l[2];
	struct soak_verdict v;
	char ktap[1024];

	soak_ledger_init(&l[0], store[0], 16, &map);
	soak_ledger_init(&l[1], store[1], 16, &map);
	for (unsigned int i = 0; i < 3; i++) {
		/* CPU 5 at t 20, 30, 40; CPU 4 at t 15: the first is CPU 4's, on chip select 1 */
		struct soak_mca m = { .bank = BANK0 + 3, .status = ST_DEFERRED, .amd = true,
				      .smca = true, .ipid = IPID_UMC(3), .synd = 4 | 0x1c0000ULL,
				      .cpu_node = 1 };

		soak_ledger_mca(&l[1], 20 + 10 * i, 5, SOAK_EV_DEFERRED, &m);
		if (!i) {
			m.synd = 1 | 0x1c0000ULL;
			soak_ledger_mca(&l[0], 15, 4, SOAK_EV_DEFERRED, &m);
		}
	}
	soak_totals_init(&tot);
	tot.bytes_verified = 4096;
	soak_totals_add(&tot, &l[1]);
	soak_totals_add(&tot, &l[0]);
	soak_judge(&tot, &v);
	soak_ktap_text(&tot, &v, &map, 1, 0, NULL, ktap, sizeof(ktap));
	CHECK(!v.pass && v.count == 4 &&
	      strstr(ktap, "    ok 1 node0\n    # ck-lava <soak.node0 pass>\n    # the soak fails "
			   "on no one node: deferred error (uncorrected, not consumed) (4), the "
			   "first on CPU 4 in node 1 UMC 3 DIMM 0 rank 1 (label P1_C)\n"
			   "not ok 1 soak"),
	      "%llu deferred; the KTAP document (newlines as |): %s", (unsigned long long)v.count,
	      one_line(ktap));
}

static void test_records_name_the_rank(void)
{
	static u8 rec[SOAK_CKPT_MAX], var[BB_MAX];
	char text[2048];
	struct soak_verdict v;
	struct soak_ckpt c, d;
	struct bb_header h = { .run_id = 0x1234, .seq = 1, .started = "" };
	struct bb_prev p = { 0 };
	const char *why;
	size_t len;

	two_ranks(6, 5, &v);
	soak_summary_json(&tot, &v, &map, text, sizeof(text));
	CHECK(strstr(text, "{\"type\":\"umc\",\"where\":\"node 1 UMC 3 DIMM 0 rank 0 (chip select "
			   "0, label P1_C)\",\"dimm\":null,\"node\":null,\"corrected\":6,") &&
	      strstr(text, "\"umc\":{\"node\":1,\"umc\":3,\"dimm\":0,\"rank\":1,\"cs\":1,"
			   "\"label\":\"P1_C\"}"), "summary JSON: %s", text);
	soak_event_text(&store[0][6], &map, text, sizeof(text));
	CHECK(strstr(text, " CPU 4 corrected: bank 19 ") &&
	      strstr(text, ", DIMM: node 1 UMC 3 chip select 1: DIMM 0 rank 1, corrected, label "
			   "P1_C"), "event: %s", text);
	soak_event_json(&store[0][6], &map, text, sizeof(text));
	CHECK(strstr(text, "\"ipid\":\"0x9600350f00\",\"synd\":\"0x1c0001\",\"bank_dimm\":{"
			   "\"node\":1,\"umc\":3,\"cs\":1,\"dimm\":0,\"rank\":1,"
			   "\"label\":\"P1_C\"}"),
	      "event JSON: %s", text);
	soak_ckpt_from(&c, &tot, &v, NULL, &map, true);
	len = soak_ckpt_encode(&c, rec, sizeof(rec));
	CHECK(len && rec[4] == 3 && rec[104] == 4 && rec[104 + 4] == 1 && rec[104 + 5] == 0 &&
	      rec[104 + 6] == 3 && !strcmp((char *)rec + 104 + 48, "P1_C"),
	      "record: version %u, bucket type %u", rec[4], rec[104]);
	CHECK(soak_ckpt_decode(rec, len, &d, &why) == 0, "decode: %s", why ? why : "");
	soak_ckpt_text(&d, text, sizeof(text));
	CHECK(strstr(text, "worst: node 1 UMC 3 DIMM 0 rank 0 (label P1_C) (6 corrected, 0 "
			   "uncorrected), node 1 UMC 3 DIMM 0 rank 1 (label P1_C) (5 corrected"),
	      "%s", text);
	len = bb_encode(&h, rec, len, var, sizeof(var));
	p.state = BB_PREV_FINISHED;
	CHECK(bb_decode(var, len, &p.v, &why) == 0, "black box: %s", why ? why : "");
	{
		struct json_writer w;

		json_record(&w, text, sizeof(text), "test");
		bb_prev_json(&w, "previous", &p);
		json_end(&w);
	}
	CHECK(strstr(text, "\"umc\":{\"node\":1,\"umc\":3,\"dimm\":0,\"rank\":0,\"cs\":0,"
			   "\"label\":\"P1_C\"}"), "black box JSON: %s", text);
	/* A version 2 record has no UMC bucket: not written, and not read. */
	c.version = 2;
	CHECK(soak_ckpt_encode(&c, rec, sizeof(rec)) == 0, "version 2 with a UMC bucket written");
	rec[4] = 2;
	memcpy(rec + len - BB_HEADER - 4, &(u32){ soak_crc32(rec, len - BB_HEADER - 4) }, 4);
	CHECK(soak_ckpt_decode(rec, len - BB_HEADER, &d, &why) == -1 && strstr(why, "bucket"),
	      "version 2 with a UMC bucket read: %s", why ? why : "(accepted)");
}

int main(void)
{
	if (dimm_labels_parse(&db, board, sizeof(board) - 1, "Example Server Co.", "H13DSH") ||
	    !db.board_found) {
		printf("# set-up: the labels file does not parse\n");
		return 1;
	}
	return RUN_TESTS(test_shared_banks_count_each_error_once, test_labels_are_the_oracles,
			 test_threshold_counts_a_dimms_ranks, test_verdict_names_the_first_rank,
			 test_records_name_the_rank);
}
