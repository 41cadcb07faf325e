// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mce.c - the machine-check grading tables and decoders on the host: every row is hit
 * by its vector, every row but the Intel catch-all has a vector, an exhaustive walk shows the
 * Intel catch-all cannot be reached, and addresses and error codes decode as documented.
 */
#include "mce/decode.h"
#include "mce/grade.h"
#include "mce/mce_regs.h"
#include "tests/host/host_test.h"
#include "tests/lib/mce_vectors.h"

static void test_every_vector_hits_its_row(void)
{
	for (unsigned int i = 0; i < mce_nr_vectors; i++) {
		const struct mce_vector *v = &mce_vectors[i];
		struct mce_grade_in in = { .status = v->status, .mcg_status = v->mcg_status,
					   .amd = v->amd, .ser = v->ser,
					   .mce_safe_fixup = v->fixup };
		const struct mce_rule *r = mce_grade(&in);

		CHECK(!strcmp(r->name, v->rule), "%s vector %u: got \"%s\", want \"%s\"",
		      v->amd ? "AMD" : "Intel", i, r->name, v->rule);
	}
}

static void covered(const struct mce_rule *t, unsigned int n, bool amd, unsigned int skip_last)
{
	for (unsigned int r = 0; r < n - skip_last; r++) {
		bool hit = false;

		for (unsigned int i = 0; i < mce_nr_vectors; i++)
			hit |= mce_vectors[i].amd == amd && !strcmp(mce_vectors[i].rule, t[r].name);
		CHECK(hit, "%s row %u \"%s\" has no vector", amd ? "AMD" : "Intel", r, t[r].name);
	}
}

static void test_every_row_has_a_vector(void)
{
	covered(mce_rules_intel, mce_nr_rules_intel, false, 1);
	covered(mce_rules_amd, mce_nr_rules_amd, true, 0);
}

static void test_intel_catch_all_unreachable(void)
{
	static const u64 bits[] = { MCI_STATUS_VAL, MCI_STATUS_OVER, MCI_STATUS_UC, MCI_STATUS_EN,
				    MCI_STATUS_MISCV, MCI_STATUS_ADDRV, MCI_STATUS_PCC,
				    MCI_STATUS_S, MCI_STATUS_AR };
	static const u16 codes[] = { 0x134, 0x150, 0xc0, 0x17a, 0x5, 0x9f };
	const char *last = mce_rules_intel[mce_nr_rules_intel - 1].name;
	unsigned long hits = 0, total = 0;

	for (unsigned int m = 0; m < 1u << 9; m++)
		for (unsigned int g = 0; g < 8; g++)
			for (unsigned int k = 0; k < 6; k++)
				for (unsigned int f = 0; f < 4; f++) {
					struct mce_grade_in in = { .mcg_status = g,
								   .ser = f & 1,
								   .mce_safe_fixup = f & 2 };

					in.status = codes[k];
					for (unsigned int b = 0; b < 9; b++)
						if (m & (1u << b))
							in.status |= bits[b];
					total++;
					hits += !strcmp(mce_grade(&in)->name, last);
				}
	CHECK(hits == 0, "\"%s\" reached %lu times in %lu inputs", last, hits, total);
}

static void test_recover_needs_everything(void)
{
	const u64 srar = MCI_STATUS_VAL | MCI_STATUS_UC | MCI_STATUS_EN | MCI_STATUS_MISCV |
			 MCI_STATUS_ADDRV | MCI_STATUS_S | MCI_STATUS_AR | 0x134;
	const u64 ok = MCG_STATUS_RIPV | MCG_STATUS_EIPV | MCG_STATUS_MCIP;
	struct mce_grade_in in = { .status = srar, .mcg_status = ok, .ser = true,
				   .mce_safe_fixup = true };
	static const u64 drop[] = { MCI_STATUS_ADDRV, MCI_STATUS_MISCV };

	CHECK(mce_grade(&in)->grade == MCE_GRADE_RECOVER, "the full SRAR data load recovers");
	for (unsigned int i = 0; i < 2; i++) {
		in.status = srar & ~drop[i];
		CHECK(mce_grade(&in)->grade == MCE_GRADE_PANIC, "without %s it panics",
		      i ? "MISCV" : "ADDRV");
	}
	in.status = srar | 0x1000;	/* the filter bit is not part of the code */
	CHECK(mce_grade(&in)->grade == MCE_GRADE_RECOVER, "MCACOD bit 12 ignored");
	in.status = srar;
	in.mcg_status = MCG_STATUS_RIPV | MCG_STATUS_MCIP;
	CHECK(mce_grade(&in)->grade == MCE_GRADE_PANIC, "without EIPV it panics");
}

static void test_addresses(void)
{
	const u64 st = MCI_STATUS_VAL | MCI_STATUS_ADDRV | MCI_STATUS_MISCV;
	struct mce_addr a;

	a = mce_decode_addr(st, 0x12345678abcULL, 0x86, false);
	CHECK(a.valid && a.lsb == 6 && a.phys == 0x12345678a80ULL, "Intel LSB 6: 0x%llx",
	      (unsigned long long)a.phys);
	a = mce_decode_addr(st, 0x12345678abcULL, 0x8c, false);
	CHECK(a.valid && a.phys == 0x12345678000ULL, "Intel LSB 12 (page)");
	a = mce_decode_addr(st, 0x12345678abcULL, 0x8d, false);
	CHECK(!a.valid, "Intel LSB 13 is coarser than a page");
	a = mce_decode_addr(st, 0x12345678abcULL, 0x46, false);
	CHECK(!a.valid && strstr(a.why, "not physical"), "mode 1 (segment offset)");
	a = mce_decode_addr(st & ~MCI_STATUS_MISCV, 0x1000, 0x86, false);
	CHECK(!a.valid, "Intel needs MISCV");
	a = mce_decode_addr(MCI_STATUS_VAL, 0x1000, 0x86, false);
	CHECK(!a.valid, "no ADDRV, no address");
	a = mce_decode_addr(MCI_STATUS_VAL | MCI_STATUS_ADDRV, (6ULL << 56) | 0xabcdef123ULL, 0,
			    true);
	CHECK(a.valid && a.lsb == 6 && a.phys == 0xabcdef100ULL, "AMD LSB in ADDR[61:56]: 0x%llx",
	      (unsigned long long)a.phys);
}

static void test_error_codes(void)
{
	static const struct {
		u16 code;
		const char *want;
	} c[] = {
		{ 0x0134, "cache hierarchy: data read, data, L0" },
		{ 0x1134, "cache hierarchy: data read, data, L0" },
		{ 0x0150, "cache hierarchy: instruction fetch, instruction, L0" },
		{ 0x017a, "cache hierarchy: eviction, generic, L2" },
		{ 0x00c3, "memory controller: scrubbing, channel 3" },
		{ 0x009f, "memory controller: read, channel unspecified 0" },
		{ 0x0005, "internal parity error" },
		{ 0x0000, "no error" },
		{ 0x0015, "TLB: data, L1" },
	};
	char buf[96], bits[128];

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		mce_mcacod_desc(c[i].code, buf, sizeof(buf));
		CHECK(!strcmp(buf, c[i].want), "0x%04x: \"%s\", want \"%s\"", c[i].code, buf,
		      c[i].want);
	}
	mce_status_bits(0xbd80000000000134ULL, false, bits, sizeof(bits));
	CHECK(!strcmp(bits, "VAL UC EN MISCV ADDRV S AR"), "QEMU's SRAR status: %s", bits);
	mce_status_bits(MCI_STATUS_VAL | MCI_STATUS_DEFERRED, true, bits, sizeof(bits));
	CHECK(!strcmp(bits, "VAL Deferred"), "AMD names: %s", bits);
}

int main(void)
{
	return RUN_TESTS(test_every_vector_hits_its_row, test_every_row_has_a_vector,
			 test_intel_catch_all_unreachable, test_recover_needs_everything,
			 test_addresses, test_error_codes);
}
