// SPDX-License-Identifier: GPL-2.0-only
/*
 * Self-test of the AMD UMC / rasdaemon labels oracle. Each expectation was worked out by hand
 * from the rules in NOTES.md (the register values are written out bit by bit below), not by
 * running the oracle. Built and run by make host-tests as build/host/test_oracle_umc (KTAP).
 */
#include "ktest/oracle/amd_umc.h"

#include <stdio.h>
#include <string.h>

static int failures, number, case_failures;

static void check(bool good, const char *name)
{
	number++;
	if (!good) {
		case_failures++;
		printf("# check failed: %s\n", name);
	}
}

static void end_case(int n, const char *name)
{
	printf("%s %d %s\n", case_failures ? "not ok" : "ok", n, name);
	failures += case_failures;
	case_failures = 0;
}

/*
 * STATUS 0x9c20400000000000: VAL(63) EN(60) MISCV(59) ADDRV(58) SyndV(53), bit 46 set so
 * bits 46..45 = 10b: corrected; extended error code (21..16) 0: a DRAM ECC error.
 * IPID 0x0000009600300000: HWID (43..32) 0x096, McaType (63..48) 0, instance 0x00300000,
 * whose bits 31..20 are 3: channel 3.
 */
static void case_decode(void)
{
	struct lx_umc_out o;

	/* ipid: HWID 0x96, McaType 0, instance 0x00300000 -> channel 3 */
	lx_umc_decode(0x9c20400000000000ULL, 0x0000009600300000ULL, 0x5ULL | (7ULL << 18), 1,
		      true, &o);
	check(o.path == LX_UMC_DECODED, "CE decoded");
	check(o.node == 1 && o.channel == 3 && o.csrow == 5, "node 1 channel 3 cs 5");
	check(o.dimm == 2 && o.rank == 1, "cs 5 is DIMM 2, odd (rank 1)");
	check(o.ecc_type == 2 && !o.syndrome_len_zero, "corrected, syndrome length 7");

	/* Same bank, SYND length 0 (bits 23..18 clear): Linux's ERR_CHANNEL, cs still 5. */
	lx_umc_decode(0x9c20400000000000ULL, 0x0000009600300000ULL, 0x5ULL, 1, true, &o);
	check(o.path == LX_UMC_DECODED && o.syndrome_len_zero && o.csrow == 5,
	      "syndrome length 0 flagged, chip select kept");

	/* SYND 0xff: only bits 2..0 count -> cs 7, DIMM 3, rank 1. */
	lx_umc_decode(0x9c20400000000000ULL, 0x0000009600b00000ULL, 0xffULL, 0, true, &o);
	check(o.channel == 11 && o.csrow == 7 && o.dimm == 3 && o.rank == 1, "cs 7 from 0xff");

	/* Uncorrected: bits 46..45 = 01b (0x2000 in the third group), UC(61) set. */
	lx_umc_decode(0xbc20200000000000ULL, 0x0000009600000000ULL, 0x2ULL, 0, true, &o);
	check(o.path == LX_UMC_DECODED && o.ecc_type == 1 && o.csrow == 2 && o.dimm == 1 &&
	      o.rank == 0, "UE cs 2 -> DIMM 1 rank 0");

	/* Deferred (bit 44 = 0x1000 in the third group) wins over bits 46..45. */
	lx_umc_decode(0x9c20500000000000ULL, 0x0000009600100000ULL, 0x1ULL, 0, true, &o);
	check(o.ecc_type == 3 && o.channel == 1 && o.dimm == 0 && o.rank == 1, "deferred");
	end_case(1, "decode");
}

static void case_unknown(void)
{
	struct lx_umc_out o;

	/* SyndV (bit 53 = 0x0020 in the top group) clear: 0x9c00... */
	lx_umc_decode(0x9c00400000000000ULL, 0x0000009600300000ULL, 0x5ULL, 0, true, &o);
	check(o.path == LX_UMC_NO_SYND, "SyndV clear");
	/* Extended error code 8 (bits 21..16 = 0x08 -> 0x0008_0000). */
	lx_umc_decode(0x9c20400000080000ULL, 0x0000009600300000ULL, 0x5ULL, 0, true, &o);
	check(o.path == LX_UMC_NOT_ECC, "xec 8 is not a DRAM ECC error");
	/* xec 0x20 (bit 21): the SMCA mask is six bits wide, so this is not 0 either. */
	lx_umc_decode(0x9c20400000200000ULL, 0x0000009600300000ULL, 0x5ULL, 0, true, &o);
	check(o.path == LX_UMC_NOT_ECC, "xec 0x20 is not 0");
	/* HWID 0xb0 McaType 0: load-store unit. */
	lx_umc_decode(0x9c20400000000000ULL, 0x000000b000000000ULL, 0x5ULL, 0, true, &o);
	check(o.path == LX_UMC_OTHER_BANK, "LS bank");
	/* HWID 0x96 McaType 1 (bits 63..48 = 0x0001): UMC v2. */
	lx_umc_decode(0x9c20400000000000ULL, 0x0001009600300000ULL, 0x5ULL, 0, true, &o);
	check(o.path == LX_UMC_GPU_BANK, "UMC v2");
	/* HWID 0x96 with McaType 2: no such SMCA type. */
	lx_umc_decode(0x9c20400000000000ULL, 0x0002009600300000ULL, 0x5ULL, 0, true, &o);
	check(o.path == LX_UMC_OTHER_BANK, "HWID 0x96 McaType 2");
	lx_umc_decode(0x9c20400000000000ULL, 0x0000009600300000ULL, 0x5ULL, 0, false, &o);
	check(o.path == LX_UMC_NOT_SMCA, "not SMCA");
	end_case(2, "unknown");
}

static const char board[] =
	"# a comment\n"
	"Vendor: Example Corp\n"
	"  Model: Other Board\n"
	"    X1: 0.0.0;\n"
	"  Model: EPYC-8CH, Spare Name\n"
	"    A: 0.0.0, 0.1.0;  B: 0.0.1, 0.1.1;\n"
	"    C: 0.0.3, 0.1.3;  D: 0.0.2, 0.1.2;\n"
	"\n"
	"Vendor: Someone Else\n"
	"  Model: EPYC-8CH\n"
	"    Z: 0.0.0;\n";

static void case_labels(void)
{
	char l[32];
	unsigned int bad = 0;
	size_t n = strlen(board);

	check(lx_labels_lookup(board, n, "example corp", "epyc-8ch", 0, 1, 0, l, sizeof(l),
			       &bad) == 1 && !strcmp(l, "A"), "A at 0.1.0, any case");
	check(lx_labels_lookup(board, n, "Example Corp", "Spare Name", 0, 0, 3, l, sizeof(l),
			       &bad) == 1 && !strcmp(l, "C"), "C at 0.0.3 via the second name");
	check(lx_labels_lookup(board, n, "Example Corp", "EPYC-8CH", 0, 0, 2, l, sizeof(l),
			       &bad) == 1 && !strcmp(l, "D"), "D at 0.0.2 (UMC 2 is slot D)");
	check(lx_labels_lookup(board, n, "Someone Else", "EPYC-8CH", 0, 0, 0, l, sizeof(l),
			       &bad) == 1 && !strcmp(l, "Z"), "other vendor's board");
	check(lx_labels_lookup(board, n, "Example Corp", "EPYC-8CH", 1, 0, 0, l, sizeof(l),
			       &bad) == 0, "mc 1 not listed");
	check(lx_labels_lookup(board, n, "Example Corp", "Unknown", 0, 0, 0, l, sizeof(l),
			       &bad) == 0, "board not listed");
	end_case(3, "labels");
}

static void case_bad_labels(void)
{
	static const char *const bad_files[] = {
		"Model: X\n A: 0.0.0;\n",			/* line 1: model before vendor */
		"Vendor: V\n A: 0.0.0;\n",			/* line 2: label before model */
		"Vendor: V\nModel: M\n A 0.0.0;\n",		/* line 3: no ':' */
		"Vendor: V\nModel: M\n A: 0.x.0;\n",		/* line 3: not a number */
		"Vendor: V\nModel: M\n A: 0.0.0, 0.1;\n",	/* line 3: layer count changes */
		"Vendor: V\nModel: M\n\n A: 0.0.0.0.0;\n",	/* line 4: five numbers */
		"Vendor: V\nModel: M\n : 0.0.0;\n",		/* line 3: empty label */
		"Vendor: V\nModel: M\n A: ;\n",			/* line 3: no location */
	};
	static const unsigned int lines[] = { 1, 2, 3, 3, 3, 4, 3, 3 };
	char l[32], name[48];

	for (unsigned int i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		unsigned int bad = 0;
		int r = lx_labels_lookup(bad_files[i], strlen(bad_files[i]), "V", "M", 0, 0, 0,
					 l, sizeof(l), &bad);

		snprintf(name, sizeof(name), "bad file %u at line %u", i, lines[i]);
		check(r == -1 && bad == lines[i], name);
	}
	end_case(4, "bad_labels");
}

int main(void)
{
	printf("KTAP version 1\n1..4\n");
	case_decode();
	case_unknown();
	case_labels();
	case_bad_labels();
	printf("# test_oracle_umc: %d checks, %d failed\n", number, failures);
	return failures ? 1 : 0;
}
