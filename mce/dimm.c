// SPDX-License-Identifier: GPL-2.0-only
/*
 * dimm.c - name the DIMM of a DRAM error from an SMCA UMC bank (AMD's MCA_IPID and MCA_SYND
 * layout; the rules Linux's amd64_edac follows, drivers/edac/amd64_edac.c and
 * arch/x86/kernel/cpu/mce/amd.c): the bank type from IPID's HardwareID and McaType, the
 * channel from its instance, the chip select from SYND, two chip selects per DIMM.
 */
#include "kernel/lib/format.h"
#include "mce/dimm.h"
#include "mce/mce_regs.h"

#define CS_PER_DIMM	2	/* chip selects 2d and 2d+1 are DIMM d */

static enum dimm_why bank_kind(const struct dimm_bank *b)
{
	u64 hwid = (b->ipid >> SMCA_IPID_HWID_SHIFT) & SMCA_IPID_HWID_MASK;
	u64 type = (b->ipid >> SMCA_IPID_MCATYPE_SHIFT) & SMCA_IPID_MCATYPE_MASK;
	u64 xec = (b->status >> MCI_STATUS_XEC_SHIFT) & SMCA_XEC_MASK;

	if (!b->smca)
		return DIMM_NOT_SMCA;
	if (!(b->status & MCI_STATUS_VAL))
		return DIMM_NOT_VALID;
	if (hwid != SMCA_HWID_UMC)
		return DIMM_NOT_UMC;
	if (type == SMCA_MCATYPE_UMC_V2)
		return DIMM_GPU_UMC;
	if (type != SMCA_MCATYPE_UMC)
		return DIMM_NOT_UMC;
	if (xec != SMCA_UMC_XEC_DRAM_ECC)
		return DIMM_NOT_DRAM_ECC;
	if (!(b->status & MCI_STATUS_SYNDV))
		return DIMM_NO_SYNDROME;
	return DIMM_KNOWN;
}

static enum dimm_sev severity(u64 status)
{
	u64 ecc = (status >> MCI_STATUS_ECC_SHIFT) & MCI_STATUS_ECC_MASK;

	if (status & MCI_STATUS_DEFERRED)
		return DIMM_SEV_DEFERRED;
	if (ecc == MCI_ECC_CORRECTED)
		return DIMM_SEV_CORRECTED;
	if (ecc == MCI_ECC_UNCORRECTED)
		return DIMM_SEV_UNCORRECTED;
	return DIMM_SEV_OTHER;
}

struct dimm_loc dimm_decode(const struct dimm_bank *b)
{
	struct dimm_loc l = { .why = bank_kind(b), .node = b->node };

	if (l.why != DIMM_KNOWN)
		return l;
	l.sev = severity(b->status);
	l.umc = (unsigned int)((b->ipid & SMCA_IPID_INSTANCE_MASK) >> SMCA_UMC_CHANNEL_SHIFT);
	l.cs = (unsigned int)(b->synd & SMCA_SYND_CS_MASK);
	l.dimm = l.cs / CS_PER_DIMM;
	l.rank = l.cs % CS_PER_DIMM;
	l.syndrome_len_zero = l.sev == DIMM_SEV_CORRECTED &&
			      !((b->synd >> SMCA_SYND_LEN_SHIFT) & SMCA_SYND_LEN_MASK);
	return l;
}

const char *dimm_why_text(enum dimm_why why)
{
	switch (why) {
	case DIMM_KNOWN:	return "decoded from MCA_IPID and MCA_SYND";
	case DIMM_NOT_SMCA:	return "not an SMCA CPU: no MCA_IPID to tell a memory controller";
	case DIMM_NOT_UMC:	return "not a UMC bank";
	case DIMM_GPU_UMC:	return "a UMC v2 (GPU node) bank: not decoded";
	case DIMM_NOT_VALID:	return "VAL clear: no error in the bank";
	case DIMM_NOT_DRAM_ECC:	return "not a DRAM ECC error";
	case DIMM_NO_SYNDROME:	return "SyndV clear: MCA_SYND holds no chip select";
	}
	return "?";
}

const char *dimm_sev_name(enum dimm_sev sev)
{
	switch (sev) {
	case DIMM_SEV_CORRECTED:	return "corrected";
	case DIMM_SEV_UNCORRECTED:	return "uncorrected";
	case DIMM_SEV_DEFERRED:		return "deferred";
	case DIMM_SEV_OTHER:		return "other";
	}
	return "?";
}

void dimm_describe(const struct dimm_loc *l, int node, const char *label, char *buf,
		   size_t size)
{
	if (l->why != DIMM_KNOWN)
		ck_snprintf(buf, size, "unknown (%s)", dimm_why_text(l->why));
	else if (node < 0)
		ck_snprintf(buf, size, "UMC %u chip select %u: DIMM %u rank %u, %s, node unknown "
			    "(no CPUID topology leaf)", l->umc, l->cs, l->dimm, l->rank,
			    dimm_sev_name(l->sev));
	else
		ck_snprintf(buf, size, "node %d UMC %u chip select %u: DIMM %u rank %u, %s, "
			    "label %s", node, l->umc, l->cs, l->dimm, l->rank,
			    dimm_sev_name(l->sev), label);
}
