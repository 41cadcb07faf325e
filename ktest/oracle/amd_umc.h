/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Independent oracle: how Linux's amd64_edac names a DRAM error from an AMD SMCA
 * machine-check bank (the bank recognised as a UMC by arch/x86/kernel/cpu/mce/amd.c, the
 * error passed on by drivers/edac/mce_amd.c's decode_smca_error(), the channel and chip
 * select taken by drivers/edac/amd64_edac.c's decode_umc_error()), and how rasdaemon's
 * labels database (util/ras-mc-ctl's parse_dimm_labels_file()) turns (mc, row, channel)
 * into a silkscreen label.
 *
 * Written from reading Linux and rasdaemon; ktest/oracle/NOTES.md gives the source of each
 * rule. Includes nothing of ours.
 */
#ifndef CK_KTEST_ORACLE_AMD_UMC_H
#define CK_KTEST_ORACLE_AMD_UMC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What Linux does with one bank, in its own terms. */
enum lx_umc_path {
	LX_UMC_NOT_SMCA,	/* no SMCA: amd64_edac's legacy (northbridge) path, not modelled */
	LX_UMC_OTHER_BANK,	/* not HWID 0x96: decode_smca_error never calls the DRAM decoder */
	LX_UMC_GPU_BANK,	/* HWID 0x96 McaType 1 (UMC v2, GPU nodes): other numbering */
	LX_UMC_NOT_ECC,		/* a UMC bank, extended error code not 0 (DRAM ECC) */
	LX_UMC_NO_SYND,		/* decode_umc_error: SyndV clear, ERR_SYND */
	LX_UMC_DECODED,		/* channel and chip select known */
};

struct lx_umc_out {
	enum lx_umc_path path;
	unsigned int node;	/* the logging CPU's AMD node (topology_amd_node_id) */
	unsigned int channel;	/* err.channel: MCA_IPID instance, bits 31..20 */
	unsigned int csrow;	/* err.csrow: MCA_SYND bits 2..0 */
	unsigned int dimm;	/* csrow >> 1 (get_cs_mode(csrow >> 1, ...)) */
	unsigned int rank;	/* csrow & 1: even or odd chip select of that DIMM */
	int ecc_type;		/* 1 uncorrected, 2 corrected, 3 deferred (Deferred wins) */
	bool syndrome_len_zero;	/* corrected with SYND[23:18] = 0: Linux says ERR_CHANNEL */
};

/* One bank as Linux's struct mce holds it, and the CPU that logged it. */
void lx_umc_decode(uint64_t status, uint64_t ipid, uint64_t synd, unsigned int cpu_node,
		   bool cpu_smca, struct lx_umc_out *out);

/*
 * rasdaemon's labels: look (mc, row, channel) up in @text for the board whose vendor and
 * board name (lower-cased before comparison, as ras-mc-ctl does) are @vendor and @model.
 * Returns 1 with the label copied to @label, 0 when the file has none, -1 when the file
 * breaks a rule (@bad_line set to its 1-based line).
 */
int lx_labels_lookup(const char *text, size_t len, const char *vendor, const char *model,
		     unsigned int mc, unsigned int row, unsigned int channel, char *label,
		     size_t label_size, unsigned int *bad_line);

#endif
