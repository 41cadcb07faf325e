// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_dimm.c - the DIMM of a DRAM error named from the bank (mce/dimm.c), rasdaemon's labels
 * (mce/dimm_labels.c) and ck-decode's record reader (host/decode/records.c), each against the
 * independent oracle ktest/oracle/amd_umc.c: every UMC instance, all eight chip selects, SyndV
 * clear, corrected, deferred and uncorrected errors, other banks; labels for a board whose
 * UMCs are not in slot order; files with errors, refused with their line.
 */
#include <stdint.h>

#include "host/decode/records.h"
#include "ktest/oracle/amd_umc.h"
#include "mce/dimm.h"
#include "mce/dimm_labels.h"
#include "tests/host/host_test.h"

/* Raw values written out, not built from mce_regs.h: the oracle's and the test's own. */
#define ST_CE		0x9c20400000000000ULL	/* VAL EN MISCV ADDRV SyndV, ECC type 2 */
#define ST_UE		0xbe20200000000000ULL	/* VAL UC EN MISCV ADDRV PCC SyndV, type 1 */
#define ST_DEFERRED	0x9820100000000000ULL	/* VAL EN MISCV SyndV Deferred */
#define ST_NO_SYNDV	0x9c00400000000000ULL
#define ST_XEC(x)	(ST_CE | ((uint64_t)(x) << 16))
#define IPID_UMC(ch)	(0x0000009600000000ULL | ((uint64_t)(ch) << 20) | 0x50f00ULL)
#define UMC_INSTANCES	16			/* a Zen 4 socket has 12; the field has 4096 */

/* Whether the decoder and the oracle agree on one bank; the oracle's path in @why. */
static void agree(uint64_t status, uint64_t ipid, uint64_t synd, unsigned int node, bool smca)
{
	struct dimm_bank b = { .status = status, .ipid = ipid, .synd = synd, .node = node,
			       .smca = smca };
	struct dimm_loc l = dimm_decode(&b);
	struct lx_umc_out o;
	static const enum dimm_why want[] = {
		[LX_UMC_NOT_SMCA] = DIMM_NOT_SMCA, [LX_UMC_OTHER_BANK] = DIMM_NOT_UMC,
		[LX_UMC_GPU_BANK] = DIMM_GPU_UMC, [LX_UMC_NOT_ECC] = DIMM_NOT_DRAM_ECC,
		[LX_UMC_NO_SYND] = DIMM_NO_SYNDROME, [LX_UMC_DECODED] = DIMM_KNOWN,
	};

	lx_umc_decode(status, ipid, synd, node, smca, &o);
	CHECK(l.why == want[o.path], "status %llx ipid %llx synd %llx: why %d, oracle path %d",
	      (unsigned long long)status, (unsigned long long)ipid, (unsigned long long)synd,
	      l.why, o.path);
	if (o.path != LX_UMC_DECODED || l.why != DIMM_KNOWN)
		return;
	CHECK(l.node == o.node && l.umc == o.channel && l.cs == o.csrow && l.dimm == o.dimm &&
	      l.rank == o.rank, "ipid %llx synd %llx: node %u umc %u cs %u dimm %u rank %u, "
	      "oracle %u %u %u %u %u", (unsigned long long)ipid, (unsigned long long)synd,
	      l.node, l.umc, l.cs, l.dimm, l.rank, o.node, o.channel, o.csrow, o.dimm, o.rank);
	CHECK((int)l.sev + 1 == (o.ecc_type == 2 ? 1 : o.ecc_type == 1 ? 2 : 3),
	      "severity %s, oracle ECC type %d", dimm_sev_name(l.sev), o.ecc_type);
	CHECK(l.syndrome_len_zero == o.syndrome_len_zero, "syndrome length 0 flag");
}

/* Every UMC instance, every chip select, the three kinds, on two nodes. */
static void test_every_umc_and_cs(void)
{
	static const uint64_t kinds[] = { ST_CE, ST_UE, ST_DEFERRED };

	for (unsigned int k = 0; k < 3; k++)
		for (unsigned int ch = 0; ch < UMC_INSTANCES; ch++)
			for (uint64_t cs = 0; cs < 8; cs++)
				for (unsigned int node = 0; node < 2; node++)
					agree(kinds[k], IPID_UMC(ch), cs | 0x1c0000ULL |
					      (0xabcdULL << 32), node, true);
	/* The field's ends: instance bits 31..20 all set, SYND upper bits set around cs. */
	agree(ST_CE, 0x00000096fff00000ULL, 0xfffffffffffffff8ULL | 3, 7, true);
	agree(ST_CE, IPID_UMC(5), 0x4ULL, 0, true);	/* length 0: Linux's ERR_CHANNEL */
}

static void test_known_answers(void)
{
	struct dimm_bank b = { .status = ST_UE, .ipid = IPID_UMC(6), .synd = 5, .node = 1,
			       .smca = true };
	struct dimm_loc l = dimm_decode(&b);

	/* Worked by hand: UMC 6, cs 5 = DIMM 2 (cs 4 and 5), its odd chip select. */
	CHECK(l.why == DIMM_KNOWN && l.node == 1 && l.umc == 6 && l.cs == 5 && l.dimm == 2 &&
	      l.rank == 1 && l.sev == DIMM_SEV_UNCORRECTED, "UE UMC 6 cs 5");
	b.status = ST_DEFERRED;
	l = dimm_decode(&b);
	CHECK(l.sev == DIMM_SEV_DEFERRED, "deferred");
	b.status &= ~(1ULL << 63);
	CHECK(dimm_decode(&b).why == DIMM_NOT_VALID, "VAL clear");
}

static void test_unknown_reasons(void)
{
	agree(ST_NO_SYNDV, IPID_UMC(2), 3, 0, true);		/* SyndV clear */
	agree(ST_XEC(1), IPID_UMC(2), 3, 0, true);		/* a UMC, not DRAM ECC */
	agree(ST_XEC(0x20), IPID_UMC(2), 3, 0, true);		/* xec bit 5: SMCA's mask */
	agree(ST_CE, 0x000000b000000000ULL, 3, 0, true);	/* load-store unit */
	agree(ST_CE, 0x0000002e00000000ULL, 3, 0, true);	/* coherent slave (DF) */
	agree(ST_CE, 0x0001009600300000ULL, 3, 0, true);	/* UMC v2 (GPU) */
	agree(ST_CE, 0x0002009600300000ULL, 3, 0, true);	/* HWID 0x96, McaType 2 */
	agree(ST_CE, IPID_UMC(2), 3, 0, false);			/* not SMCA */
	agree(ST_CE, 0, 3, 0, true);				/* IPID 0 */
	for (unsigned int w = DIMM_KNOWN; w <= DIMM_NO_SYNDROME; w++)
		CHECK(dimm_why_text(w)[0] != '?', "reason %u has words", w);
}

/*
 * A board whose slots A-H sit on UMCs 0 1 3 2 6 7 5 4 (one DIMM per channel, chip selects 0
 * and 1), as public labels files show for some 8-channel boards; with a second vendor's
 * board of the same name, a one-layer entry for another board, and comments.
 */
static const char board_file[] =
	"# SPDX-License-Identifier: GPL-2.0\n"
	"Vendor: Example Server Co.\n"
	"  Model: OTHER-1\n"
	"    X: 0.0;\n"
	"  Model: H13SSL, H13SSL-N\n"
	"    A: 0.0.0, 0.1.0;  B: 0.0.1, 0.1.1;\n"
	"    C: 0.0.3, 0.1.3;  D: 0.0.2, 0.1.2;\n"
	"    E: 0.0.6, 0.1.6;  F: 0.0.7, 0.1.7;\n"
	"    G: 0.0.5, 0.1.5;  H: 0.0.4, 0.1.4;\n"
	"\n"
	"Vendor: Another Vendor\n"
	"  Model: H13SSL\n"
	"    Z1: 0.0.0;\n";

static void test_labels_out_of_order(void)
{
	static const char slots[] = "ABCDEFGH";
	static const unsigned int umc_of_slot[] = { 0, 1, 3, 2, 6, 7, 5, 4 };
	static struct dimm_labels db;
	size_t len = sizeof(board_file) - 1;

	CHECK(dimm_labels_parse(&db, board_file, len, "example server co.", "H13SSL-N") == 0 &&
	      db.board_found, "parsed, board found (%s)", db.error ? db.error : "");
	for (unsigned int s = 0; s < 8; s++)
		for (unsigned int cs = 0; cs < 2; cs++) {
			const char *got = dimm_labels_find(&db, 0, cs, umc_of_slot[s]);
			char want[32];
			unsigned int bad = 0;
			int r = lx_labels_lookup(board_file, len, "example server co.", "H13SSL-N",
						 0, cs, umc_of_slot[s], want, sizeof(want), &bad);

			CHECK(got && got[0] == slots[s] && !got[1], "UMC %u cs %u: %s, want %c",
			      umc_of_slot[s], cs, got ? got : "(none)", slots[s]);
			CHECK(r == 1 && got && !strcmp(got, want), "oracle says %s", want);
		}
	/* Nothing on mc 1, chip select 2, or for a board not listed; the other vendor's. */
	CHECK(!dimm_labels_find(&db, 1, 0, 0) && !dimm_labels_find(&db, 0, 2, 0), "absent");
	CHECK(dimm_labels_parse(&db, board_file, len, "Another Vendor", "h13ssl") == 0 &&
	      dimm_labels_find(&db, 0, 0, 0) && !strcmp(dimm_labels_find(&db, 0, 0, 0), "Z1"),
	      "the other vendor's H13SSL");
	CHECK(dimm_labels_parse(&db, board_file, len, "Example Server Co.", "H12SSL") == 0 &&
	      !db.board_found && db.n == 0, "board not listed");
}

/* A location named twice: the file's last word wins (rasdaemon assigns into a hash). */
static void test_labels_last_wins(void)
{
	static const char twice[] = "Vendor: V\nModel: M\n A: 0.0.0;\n B: 0.0.0; C: 0.1.0;\n";
	static struct dimm_labels db;
	unsigned int bad = 0;
	char want[32];

	CHECK(dimm_labels_parse(&db, twice, sizeof(twice) - 1, "V", "M") == 0, "parsed");
	CHECK(lx_labels_lookup(twice, sizeof(twice) - 1, "V", "M", 0, 0, 0, want, sizeof(want),
			       &bad) == 1 && !strcmp(want, "B"), "oracle: %s", want);
	CHECK(dimm_labels_find(&db, 0, 0, 0) && !strcmp(dimm_labels_find(&db, 0, 0, 0), want),
	      "0.0.0 is %s", dimm_labels_find(&db, 0, 0, 0));
}

static void test_labels_errors(void)
{
	static const struct { const char *text; unsigned int line; } bad[] = {
		{ "Model: X\n A: 0.0.0;\n", 1 },
		{ "Vendor: V\n A: 0.0.0;\n", 2 },
		{ "Vendor: V\nModel: M\n A 0.0.0;\n", 3 },
		{ "Vendor: V\nModel: M\n A: 0.x.0;\n", 3 },
		{ "Vendor: V\nModel: M\n A: 0.0.0, 0.1;\n", 3 },
		{ "Vendor: V\nModel: M\n\n A: 0.0.0.0.0;\n", 4 },
		{ "Vendor: V\nModel: M\n : 0.0.0;\n", 3 },
		{ "Vendor: V\nModel: M\n A: ;\n", 3 },
		{ "Vendor: V\nModel: M\n A: 0.0.0;\n B: 0.0.1; C: 0..1;\n", 4 },
		{ "Vendor:\n", 1 },
		{ "Vendor: V\nModel: M\n A: 0.0.70000;\n", 3 },
	};
	static struct dimm_labels db;
	char l[32];

	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		unsigned int oline = 0;
		int o = lx_labels_lookup(bad[i].text, strlen(bad[i].text), "V", "M", 0, 0, 0, l,
					 sizeof(l), &oline);
		int r = dimm_labels_parse(&db, bad[i].text, strlen(bad[i].text), "V", "M");

		CHECK(r == -1 && db.bad_line == bad[i].line && db.error && !db.n &&
		      !db.board_found, "file %u: %d at line %u (%s), want line %u", i, r,
		      db.bad_line, db.error ? db.error : "", bad[i].line);
		CHECK(o == -1 && oline == bad[i].line, "oracle: file %u at line %u", i, oline);
	}
}

/* ---- ck-decode's reader ---------------------------------------------------------- */

static char outs[16][768];
static unsigned int nout, bad_seen[8], nbad;

static void take_out(void *ctx, const char *json)
{
	(void)ctx;
	if (nout < 16)
		snprintf(outs[nout++], sizeof(outs[0]), "%s", json);
}

static void take_bad(void *ctx, unsigned int line, const char *why)
{
	(void)ctx, (void)why;
	if (nbad < 8)
		bad_seen[nbad++] = line;
}

static unsigned int read_text(const char *text, const struct dimm_labels *db)
{
	struct rec_reader r = { .labels = db, .out = take_out, .bad = take_bad };

	nout = nbad = 0;
	rec_read(&r, text, strlen(text));
	return r.bad_lines;
}

/* The JSON of record @i has "key":value exactly (the value as written, e.g. 3 or "A"). */
static bool has(unsigned int i, const char *key, const char *value)
{
	char want[96];

	snprintf(want, sizeof(want), "\"%s\":%s,", key, value);
	return i < nout && strstr(outs[i], want);
}

/* Linux's lines for one bank, and the oracle's answer in the same terms. */
static void linux_vs_oracle(uint64_t status, unsigned int ch, unsigned int cs, unsigned int sock)
{
	char text[512], v[16];
	struct lx_umc_out o;
	uint64_t ipid = IPID_UMC(ch), synd = cs | 0x1c0000ULL;

	snprintf(text, sizeof(text),
		 "[  12.3] mce: [Hardware Error]: CPU 5: Machine Check: 0 Bank 16: %llx\n"
		 "[  12.3] mce: [Hardware Error]: TSC 0 ADDR 7f000 MISC d01a000000000000 "
		 "SYND %llx IPID %llx \n"
		 "[  12.3] mce: [Hardware Error]: PROCESSOR 2:a10f11 TIME 1700000000 SOCKET %u "
		 "APIC 5 microcode a10113e\n", (unsigned long long)status,
		 (unsigned long long)synd, (unsigned long long)ipid, sock);
	lx_umc_decode(status, ipid, synd, sock, true, &o);
	CHECK(read_text(text, NULL) == 0 && nout == 1, "one record, no bad line");
	if (o.path != LX_UMC_DECODED) {
		CHECK(has(0, "umc", "null") && has(0, "dimm", "null"), "unknown: %s", outs[0]);
		return;
	}
	snprintf(v, sizeof(v), "%u", o.node);
	CHECK(has(0, "node", v), "node %s: %s", v, outs[0]);
	snprintf(v, sizeof(v), "%u", o.channel);
	CHECK(has(0, "umc", v), "umc %s: %s", v, outs[0]);
	snprintf(v, sizeof(v), "%u", o.csrow);
	CHECK(has(0, "cs", v), "cs %s: %s", v, outs[0]);
	snprintf(v, sizeof(v), "%u", o.dimm);
	CHECK(has(0, "dimm", v), "dimm %s: %s", v, outs[0]);
	snprintf(v, sizeof(v), "%u", o.rank);
	CHECK(has(0, "rank", v), "rank %s: %s", v, outs[0]);
}

static void test_reader_linux_lines(void)
{
	for (unsigned int ch = 0; ch < 12; ch++)
		for (unsigned int cs = 0; cs < 8; cs++)
			linux_vs_oracle(ST_CE, ch, cs, ch % 2);
	linux_vs_oracle(ST_UE, 3, 1, 0);
	linux_vs_oracle(ST_DEFERRED, 4, 6, 1);
	linux_vs_oracle(ST_NO_SYNDV, 4, 6, 1);
	linux_vs_oracle(ST_XEC(3), 4, 6, 1);
	/* Naples: SOCKET is not the AMD node, so the node stays unknown, the DIMM does not. */
	CHECK(read_text("CPU 1: Machine Check: 0 Bank 15: 9c20400000000000\n"
			"TSC 0 SYND 1c0003 IPID 9600100000\n"
			"PROCESSOR 2:800f12 TIME 1 SOCKET 0 APIC 1 microcode 8001250\n", NULL) == 0 &&
	      has(0, "node", "null") && has(0, "umc", "1") && has(0, "dimm", "1"), "Naples: %s",
	      outs[0]);
}

static void test_reader_image_lines(void)
{
	static struct dimm_labels db;
	const char *text =
		"mce #3: machine check at RIP ffff8000 copy_mc+0x10\n"
		"  on CPU 2 (APIC id 4): handled by this CPU alone (AMD: machine checks are local)\n"
		"  bank 17: STATUS 0xbe20200000000000 [VAL UC EN MISCV ADDRV PCC]\n"
		"    MCACOD 0x0000: ...\n"
		"    ADDR 0x1000 MISC 0x0: address LSB 0, mode 0: Poison clear\n"
		"    IPID 0x9600700000 SYND 0x5 AMD node 0\n"
		"mce-poll: CPU 1 (APIC id 2, node 0) bank 18: corrected, STATUS 0x9c20400000000000 "
		"[VAL EN], MCACOD 0x0000: x\n"
		"mce-poll:   no usable address (ADDR 0x0 MISC 0x0)\n"
		"mce-poll:   IPID 0x9600200000 SYND 0x1c0000 AMD node 1\n";

	CHECK(dimm_labels_parse(&db, board_file, sizeof(board_file) - 1, "Example Server Co.",
				"H13SSL") == 0, "labels");
	CHECK(read_text(text, &db) == 0 && nout == 2, "two records: %u", nout);
	/* UMC 7 is slot F; mc 0, cs 5 is not in the file (one DIMM per channel). */
	CHECK(has(0, "cpu", "2") && has(0, "umc", "7") && has(0, "cs", "5") &&
	      has(0, "dimm", "2") && has(0, "label", "null"), "#MC bank: %s", outs[0]);
	/* UMC 2 is slot D, but on node 1, which the file does not list: no label. */
	CHECK(has(1, "node", "1") && has(1, "umc", "2") && has(1, "label", "null"), "poll: %s",
	      outs[1]);
	CHECK(read_text("mce-poll: CPU 1 (APIC id 2, node 0) bank 18: corrected, "
			"STATUS 0x9c20400000000000 [VAL]\n"
			"mce-poll:   IPID 0x9600200000 SYND 0x1c0001 AMD node 0\n", &db) == 0 &&
	      has(0, "label", "\"D\""), "slot D: %s", outs[0]);
}

static void test_reader_bad_lines(void)
{
	unsigned int bad = read_text("noise\n"
				     "CPU 2: Machine Check: 0 Bank zz: 1\n"
				     "  bank 4: STATUS 0xq\n"
				     "mce-poll: CPU x (APIC id 2, node 0) bank 18: STATUS 0x1\n"
				     "CPU 3: Machine Check: 0 Bank 4: 9c20400000000000\n"
				     "PROCESSOR 2:a00f11 TIME 1 APIC 3\n", NULL);

	CHECK(bad == 4 && nbad == 4 && bad_seen[0] == 2 && bad_seen[1] == 3 &&
	      bad_seen[2] == 4 && bad_seen[3] == 6, "%u bad lines, first at %u", bad,
	      nbad ? bad_seen[0] : 0);
	CHECK(nout == 1 && has(0, "node", "null"), "the record with no SOCKET: %s", outs[0]);
}

/* The number after @key in record @i's JSON (-1: null or absent). */
static long field(unsigned int i, const char *key)
{
	char want[40];
	const char *p;

	snprintf(want, sizeof(want), "\"%s\":", key);
	p = i < nout ? strstr(outs[i], want) : NULL;
	return p && p[strlen(want)] != 'n' ? strtol(p + strlen(want), NULL, 10) : -1;
}

/*
 * The image and ck-decode agree: for every vector, the lines the image prints for a #MC bank
 * (mce/report.c's bank and IPID lines, then mce/dimm_report.c's "DIMM:" words from
 * dimm_describe()) read back by ck-decode's reader give the numbers the DIMM line says.
 */
static void test_image_and_ck_decode_agree(void)
{
	static const uint64_t kinds[] = { ST_CE, ST_UE, ST_DEFERRED, ST_NO_SYNDV, ST_XEC(2) };

	for (unsigned int k = 0; k < ARRAY_SIZE(kinds); k++)
		for (unsigned int ch = 0; ch < UMC_INSTANCES; ch++)
			for (unsigned int cs = 0; cs < 8; cs++) {
				unsigned int node = ch % 3, n, u, c, d, rk;
				struct dimm_bank b = { .status = kinds[k], .ipid = IPID_UMC(ch),
						       .synd = cs | 0x1c0000ULL, .node = node,
						       .smca = true };
				struct dimm_loc l = dimm_decode(&b);
				char words[160], text[512];

				dimm_describe(&l, (int)node, "(no labels file)", words,
					      sizeof(words));
				snprintf(text, sizeof(text),
					 "mce #1: machine check at RIP 0000000000001000 x+0x0\n"
					 "  bank 18: STATUS 0x%016llx [VAL]\n"
					 "    IPID 0x%llx SYND 0x%llx AMD node %u\n"
					 "    DIMM: %s\n", (unsigned long long)b.status,
					 (unsigned long long)b.ipid, (unsigned long long)b.synd,
					 node, words);
				CHECK(read_text(text, NULL) == 0 && nout == 1, "read: %s", text);
				if (l.why != DIMM_KNOWN) {
					CHECK(!strncmp(words, "unknown (", 9) &&
					      field(0, "dimm") == -1 && field(0, "umc") == -1,
					      "%s / %s", words, outs[0]);
					continue;
				}
				CHECK(sscanf(words, "node %u UMC %u chip select %u: DIMM %u rank %u",
					     &n, &u, &c, &d, &rk) == 5, "words: %s", words);
				CHECK(field(0, "node") == n && field(0, "umc") == u &&
				      field(0, "cs") == c && field(0, "dimm") == d &&
				      field(0, "rank") == rk, "%s / %s", words, outs[0]);
			}
}

int main(void)
{
	return RUN_TESTS(test_every_umc_and_cs, test_known_answers, test_unknown_reasons,
			 test_labels_out_of_order, test_labels_last_wins, test_labels_errors, test_reader_linux_lines,
			 test_reader_image_lines, test_reader_bad_lines,
			 test_image_and_ck_decode_agree);
}
