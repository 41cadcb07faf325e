/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dimm.h - which DIMM a DRAM error hit, from the machine-check bank itself: for an AMD SMCA
 * UMC bank and a DRAM ECC error with SyndV set, the node of the logging CPU, the UMC
 * channel (MCA_IPID), the chip select (MCA_SYND) and so the DIMM and rank, as Linux's
 * amd64_edac derives them; otherwise "unknown" with the reason. Never a guess. Plain C.
 */
#ifndef CK_MCE_DIMM_H
#define CK_MCE_DIMM_H

#include "kernel/include/types.h"

/* One bank's registers and the CPU that logged it. */
struct dimm_bank {
	u64 status, addr, misc, synd, ipid;
	unsigned int node;	/* the logging CPU's AMD node (CPUID 0x8000001e ECX[7:0]) */
	bool smca;		/* the CPU has scalable MCA (else MCA_IPID/MCA_SYND do not exist) */
};

enum dimm_why {
	DIMM_KNOWN,		/* every field below holds */
	DIMM_NOT_SMCA,		/* no SMCA: no IPID to tell a memory controller's bank */
	DIMM_NOT_UMC,		/* the bank is not a CPU's unified memory controller */
	DIMM_GPU_UMC,		/* a UMC v2 (GPU node) bank: numbered otherwise */
	DIMM_NOT_VALID,		/* STATUS.VAL clear: the bank holds no error */
	DIMM_NOT_DRAM_ECC,	/* a UMC bank, but not a DRAM ECC error */
	DIMM_NO_SYNDROME,	/* SyndV clear: MCA_SYND holds no chip select */
};

enum dimm_sev { DIMM_SEV_CORRECTED, DIMM_SEV_UNCORRECTED, DIMM_SEV_DEFERRED, DIMM_SEV_OTHER };

struct dimm_loc {
	enum dimm_why why;
	unsigned int node, umc, cs, dimm, rank;
	enum dimm_sev sev;
	bool syndrome_len_zero;	/* corrected, SYND length 0: Linux's "unknown syndrome" */
};

struct dimm_loc dimm_decode(const struct dimm_bank *b);
/* The reason in words ("SyndV clear: MCA_SYND holds no chip select", ...). */
const char *dimm_why_text(enum dimm_why why);
const char *dimm_sev_name(enum dimm_sev sev);
/*
 * The image's words after "DIMM: " for @l decoded on a CPU of AMD node @node (-1: unknown),
 * with @label the words for its label: "node 0 UMC 7 chip select 5: DIMM 2 rank 1,
 * corrected, label F", or "unknown (why)".
 */
void dimm_describe(const struct dimm_loc *l, int node, const char *label, char *buf,
		   size_t size);

#endif
