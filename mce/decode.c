// SPDX-License-Identifier: GPL-2.0-only
/*
 * decode.c - machine-check register decoding (Intel SDM vol. 3 "Interpreting the MCA Error
 * Codes": simple codes, and compound codes for TLB, memory controller, cache hierarchy and
 * bus errors; bit 12 is the correction-report filter flag and is ignored).
 */
#include "kernel/lib/format.h"
#include "mce/decode.h"
#include "mce/mce_regs.h"

static const char *amd_unusable(u64 status, const struct mce_addr_src *src)
{
	if (src->hygon)
		return NULL;
	if (!src->smca && src->bank == 4)
		return ((status >> 16) & 0x1f) == 8 ? NULL :
		       "northbridge bank 4 and not a DRAM ECC error: address not usable";
	return status & MCI_STATUS_POISON ? NULL :
	       "Poison clear: the address is not a usable system address";
}

struct mce_addr mce_decode_addr(u64 status, u64 addr, u64 misc, const struct mce_addr_src *src)
{
	struct mce_addr a = { .valid = false };

	if (!(status & MCI_STATUS_ADDRV)) {
		a.why = "ADDRV clear: no address";
		return a;
	}
	if (src->amd) {
		a.phys = addr & ((1ULL << 56) - 1);
		if (src->smca)
			a.lsb = (unsigned int)((addr >> 56) & 0x3f);
		else	/* legacy banks: no LSB of their own; MISC's only where Linux uses it */
			a.lsb = src->ser_p && (status & MCI_STATUS_MISCV) ? MCI_MISC_LSB(misc) : 0;
		a.why = amd_unusable(status, src);
		if (a.why)
			return a;
	} else {
		if (!(status & MCI_STATUS_MISCV)) {
			a.why = "MISCV clear: address granularity unknown";
			return a;
		}
		if (MCI_MISC_MODE(misc) != MCI_MISC_MODE_PHYS) {
			a.why = "address mode is not physical";
			return a;
		}
		a.lsb = MCI_MISC_LSB(misc);
		a.phys = addr;
	}
	if (a.lsb > 12) {
		a.why = "granularity coarser than a page";
		return a;
	}
	a.phys &= ~((1ULL << a.lsb) - 1);
	a.valid = true;
	a.why = "physical";
	return a;
}

void mce_status_bits(u64 status, bool amd, char *buf, size_t size)
{
	static const struct {
		int bit;
		const char *intel, *amd;
	} bits[] = {
		{ 63, "VAL", "VAL" }, { 62, "OVER", "OVER" }, { 61, "UC", "UC" },
		{ 60, "EN", "EN" }, { 59, "MISCV", "MISCV" }, { 58, "ADDRV", "ADDRV" },
		{ 57, "PCC", "PCC" }, { 56, "S", "ErrCoreIdVal" }, { 55, "AR", "TCC" },
		{ 44, NULL, "Deferred" }, { 43, NULL, "Poison" },
	};
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(bits); i++) {
		const char *n = amd ? bits[i].amd : bits[i].intel;

		if (n && (status & BIT(bits[i].bit)) && len < size)
			len += (size_t)ck_snprintf(buf + len, size - len, "%s%s",
						   len ? " " : "", n);
	}
	if (!len)
		ck_snprintf(buf, size, "(none)");
}

static const char *const level[] = { "L0", "L1", "L2", "generic level" };
static const char *const ttype[] = { "instruction", "data", "generic", "?" };
static const char *const request[16] = {
	"generic", "read", "write", "data read", "data write", "instruction fetch", "prefetch",
	"eviction", "snoop", "?", "?", "?", "?", "?", "?", "?",
};
static const char *const mem_txn[8] = {
	"generic", "read", "write", "address/command", "scrubbing", "?", "?", "?",
};

void mce_mcacod_desc(u16 code, char *buf, size_t size)
{
	u16 c = code & MCACOD_FILTER_MASK;

	if (c == 0)
		ck_snprintf(buf, size, "no error");
	else if (c == 1)
		ck_snprintf(buf, size, "unclassified");
	else if (c == 2)
		ck_snprintf(buf, size, "microcode ROM parity");
	else if (c == 3)
		ck_snprintf(buf, size, "external error");
	else if (c == 4)
		ck_snprintf(buf, size, "FRC error");
	else if (c == 5)
		ck_snprintf(buf, size, "internal parity error");
	else if (c == 0x400)
		ck_snprintf(buf, size, "internal timer error");
	else if ((c & 0xfc00) == 0x0400)
		ck_snprintf(buf, size, "internal unclassified error");
	else if ((c & 0xf800) == 0x0800)
		ck_snprintf(buf, size, "bus/interconnect: %s, %s, %s%s", request[(c >> 4) & 15],
			    ttype[(c >> 2) & 3], level[c & 3], c & 0x100 ? ", timeout" : "");
	else if ((c & 0xff00) == 0x0100)
		ck_snprintf(buf, size, "cache hierarchy: %s, %s, %s", request[(c >> 4) & 15],
			    ttype[(c >> 2) & 3], level[c & 3]);
	else if ((c & 0xff80) == 0x0080)
		ck_snprintf(buf, size, "memory controller: %s, channel %s%u", mem_txn[(c >> 4) & 7],
			    (c & 15) == 15 ? "unspecified " : "", (c & 15) == 15 ? 0 : c & 15);
	else if ((c & 0xfff0) == 0x0010)
		ck_snprintf(buf, size, "TLB: %s, %s", ttype[(c >> 2) & 3], level[c & 3]);
	else
		ck_snprintf(buf, size, "model-specific or unknown code 0x%04x", code);
}
