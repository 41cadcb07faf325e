/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * decode.h - turn machine-check register values into facts and words: the error address and
 * its granularity, STATUS bit names, and the meaning of the MCA error code. Plain C.
 */
#ifndef CK_MCE_DECODE_H
#define CK_MCE_DECODE_H

#include "kernel/include/types.h"

struct mce_addr {
	bool valid;		/* usable as a physical address */
	u64 phys;		/* masked to the reported granularity */
	unsigned int lsb;	/* least significant valid bit */
	const char *why;	/* why not valid, or the mode */
};

/* Whose banks these are: the address rules differ. */
struct mce_addr_src {
	bool amd;		/* AMD or Hygon rules: which addresses are usable */
	bool smca;		/* AMD's scalable MCA: the LSB in ADDR[61:56], the address [55:0] */
	bool hygon;
	bool ser_p;		/* MCG_CAP.SER_P: Linux then masks by MISC's LSB (any vendor) */
	unsigned int bank;
};

/*
 * Linux's mce_read_aux() and mce_usable_address(). Intel (and others): usable when ADDRV and
 * MISCV are set, MISC's address mode is physical and its LSB is at most 12; the address is
 * ADDR with the bits below that LSB cleared. AMD, as Linux's amd_mce_usable_address(): with
 * ADDRV, a legacy northbridge bank 4 address only for a DRAM ECC error (extended error code
 * 8), any other bank's only with the Poison bit set (SMCA memory-controller banks log a
 * normalised, not a system, address otherwise); Hygon: any ADDRV address. The granularity:
 * SMCA's LSB is ADDR[61:56] and the address ADDR[55:LSB] (smca_extract_err_addr); a legacy
 * AMD bank reports none: Linux takes ADDR as it is, masked by MISC's LSB only when MCG_CAP
 * has SER_P and MISCV is set (as for any vendor), so the LSB is 0 otherwise. Then the LSB at
 * most 12, as for Intel.
 */
struct mce_addr mce_decode_addr(u64 status, u64 addr, u64 misc, const struct mce_addr_src *src);

/* "VAL UC EN MISCV ADDRV S AR", space separated, into @buf. */
void mce_status_bits(u64 status, bool amd, char *buf, size_t size);
/* The MCA error code (STATUS[15:0]) in words, e.g. "cache hierarchy: data read, data, L0". */
void mce_mcacod_desc(u16 mcacod, char *buf, size_t size);

#endif
