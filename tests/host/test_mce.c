// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mce.c - the machine-check grading tables and decoders on the host: every row is hit
 * by its vector and has one, each vector ends as written by hand and as the model of Linux
 * says (tests/host/test_mce_oracle.c walks every input), and addresses and error codes decode
 * as documented.
 */
#include "ktest/lib/mce_vectors.h"
#include "ktest/oracle/linux_mce.h"
#include "mce/decode.h"
#include "mce/grade.h"
#include "mce/mce_regs.h"
#include "tests/host/host_test.h"

/* The vector as the handler grades it: bank 1 unless it names one, its CPU when it names one. */
static struct mce_grade_in vector_in(const struct mce_vector *v)
{
	return (struct mce_grade_in){ .status = v->status, .mcg_status = v->mcg_status,
				      .amd = v->amd, .ser = v->ser, .mce_safe_fixup = v->fixup,
				      .bank = v->bank ? v->bank : 1, .family = v->family,
				      .model = v->model, .stepping = v->stepping };
}

/* Linux's VFM_STEPPING(INTEL_SKYLAKE_X, 4): family 6, model 0x55, stepping 4 or later. */
static bool linux_skx_quirk(u8 family, u8 model, u8 stepping)
{
	return family == 6 && model == 0x55 && stepping >= 4;
}

static void test_every_vector_hits_its_row(void)
{
	for (unsigned int i = 0; i < mce_nr_vectors; i++) {
		const struct mce_vector *v = &mce_vectors[i];
		struct mce_grade_in in = vector_in(v);
		const struct mce_rule *r = mce_grade(&in);

		CHECK(!strcmp(r->name, v->rule), "%s vector %u: got \"%s\", want \"%s\"",
		      v->amd ? "AMD" : "Intel", i, r->name, v->rule);
	}
}

static void covered(const struct mce_rule *t, unsigned int n, bool amd)
{
	for (unsigned int r = 0; r < n; r++) {
		bool hit = false;

		for (unsigned int i = 0; i < mce_nr_vectors; i++)
			hit |= mce_vectors[i].amd == amd && !strcmp(mce_vectors[i].rule, t[r].name);
		CHECK(hit, "%s row %u \"%s\" has no vector", amd ? "AMD" : "Intel", r, t[r].name);
	}
}

static void test_every_row_has_a_vector(void)
{
	covered(mce_rules_intel, mce_nr_rules_intel, false);
	covered(mce_rules_amd, mce_nr_rules_amd, true);
}

/*
 * Each vector's hand-written end: the handler's decision must give it, and the model of
 * Linux must too, unless the vector is marked as one of the deliberate deviations.
 */
static void test_vector_ends(void)
{
	static const enum mce_end want[] = {
		[VEC_RESUME] = MCE_END_RESUME, [VEC_RECOVER] = MCE_END_RECOVER,
		[VEC_PANIC] = MCE_END_PANIC,
	};

	for (unsigned int i = 0; i < mce_nr_vectors; i++) {
		const struct mce_vector *v = &mce_vectors[i];
		struct mce_grade_in in = vector_in(v);
		bool skx = !v->amd && linux_skx_quirk(v->family, v->model, v->stepping);
		struct lx_mce_in lx = { .status = v->status, .mcg_status = v->mcg_status,
					.amd = v->amd, .ser_p = !v->amd && v->ser,
					.succor = v->amd && v->ser, .fixup_mce_safe = v->fixup,
					.bank = in.bank, .skx_quirk_cpu = skx };
		const struct mce_rule *r = mce_grade(&in);
		enum lx_end le = lx_mce_end(&lx, NULL);
		struct mce_decision d;
		struct mce_bank_fate f;
		bool linux_same;

		mce_bank_fate(&in, r, r->grade == MCE_GRADE_PANIC, &f);
		mce_decision_init(&d);
		if (v->status & MCI_STATUS_VAL)
			mce_decision_add(&d, r, f.logged, 0);
		mce_decide(&d, v->mcg_status, v->amd, v->fixup);
		CHECK(d.end == want[v->end], "\"%s\": handler ends %d, want %d (\"%s\")", v->rule,
		      d.end, want[v->end], d.why->name);
		linux_same = (le == LX_END_PANIC && v->end == VEC_PANIC) ||
			     (le == LX_END_RECOVER && v->end == VEC_RECOVER) ||
			     ((le == LX_END_RESUME || le == LX_END_IGNORE) && v->end == VEC_RESUME);
		CHECK(linux_same != v->deviates, "\"%s\": Linux ends %s; the vector says %s%s",
		      v->rule, lx_end_name(le), v->deviates ? "a deviation" : "the same",
		      v->deviates ? "" : " end");
	}
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
	CHECK(mce_grade(&in)->grade == MCE_GRADE_KEEP,
	      "RIPV without EIPV: the interrupted thread is unaffected, as Linux grades it");
}

static void test_addresses(void)
{
	const struct mce_addr_src intel = { 0 }, smca = { .amd = true, .smca = true, .bank = 3 };
	const struct mce_addr_src nb4 = { .amd = true, .bank = 4 };
	const struct mce_addr_src hygon = { .amd = true, .hygon = true, .smca = true };
	const u64 st = MCI_STATUS_VAL | MCI_STATUS_ADDRV | MCI_STATUS_MISCV;
	struct mce_addr a;

	a = mce_decode_addr(st, 0x12345678abcULL, 0x86, &intel);
	CHECK(a.valid && a.lsb == 6 && a.phys == 0x12345678a80ULL, "Intel LSB 6: 0x%llx",
	      (unsigned long long)a.phys);
	a = mce_decode_addr(st, 0x12345678abcULL, 0x8c, &intel);
	CHECK(a.valid && a.phys == 0x12345678000ULL, "Intel LSB 12 (page)");
	a = mce_decode_addr(st, 0x12345678abcULL, 0x8d, &intel);
	CHECK(!a.valid, "Intel LSB 13 is coarser than a page");
	a = mce_decode_addr(st, 0x12345678abcULL, 0x46, &intel);
	CHECK(!a.valid && strstr(a.why, "not physical"), "mode 1 (segment offset)");
	a = mce_decode_addr(st & ~MCI_STATUS_MISCV, 0x1000, 0x86, &intel);
	CHECK(!a.valid, "Intel needs MISCV");
	a = mce_decode_addr(MCI_STATUS_VAL, 0x1000, 0x86, &intel);
	CHECK(!a.valid, "no ADDRV, no address");
	a = mce_decode_addr(MCI_STATUS_VAL | MCI_STATUS_ADDRV | MCI_STATUS_POISON,
			    (6ULL << 56) | 0xabcdef123ULL, 0, &smca);
	CHECK(a.valid && a.lsb == 6 && a.phys == 0xabcdef100ULL, "AMD LSB in ADDR[61:56]: 0x%llx",
	      (unsigned long long)a.phys);
	a = mce_decode_addr(MCI_STATUS_VAL | MCI_STATUS_ADDRV, (6ULL << 56) | 0xabcdef123ULL, 0,
			    &smca);
	CHECK(!a.valid, "SMCA without Poison: a normalised address, not usable");
	a = mce_decode_addr(MCI_STATUS_VAL | MCI_STATUS_ADDRV | (8ULL << 16), 0xabcdef123ULL, 0,
			    &nb4);
	CHECK(a.valid, "legacy northbridge bank 4, DRAM ECC (extended code 8): usable");
	a = mce_decode_addr(MCI_STATUS_VAL | MCI_STATUS_ADDRV | MCI_STATUS_POISON | (3ULL << 16),
			    0xabcdef123ULL, 0, &nb4);
	CHECK(!a.valid, "legacy bank 4, another error: not usable even with Poison");
	a = mce_decode_addr(MCI_STATUS_VAL | MCI_STATUS_ADDRV, 0xabcdef123ULL, 0, &hygon);
	CHECK(a.valid, "Hygon: any ADDRV address");
}

/*
 * Legacy (non-SMCA) AMD banks, from Linux's mce_read_aux(): ADDR[61:56] is an SMCA field
 * (smca_extract_err_addr() returns at once without SMCA), so a legacy bank's address is taken
 * as the CPU wrote it; only "mca_cfg.ser && MISCV" (MCG_CAP.SER_P, any vendor) masks it by
 * MISC[5:0]. The page is (ADDR & physical-address bits) >> 12 (MCI_ADDR_PHYSADDR). Usable:
 * amd_mce_usable_address() (Poison set; bank 4 only for extended error code 8).
 */
static void test_amd_legacy_address(void)
{
	const struct mce_addr_src leg = { .amd = true, .bank = 2 };
	const struct mce_addr_src leg_ser = { .amd = true, .ser_p = true, .bank = 2 };
	const struct mce_addr_src nb4 = { .amd = true, .bank = 4 };
	const u64 st = MCI_STATUS_VAL | MCI_STATUS_ADDRV | MCI_STATUS_POISON;
	struct mce_addr a;

	/* Bits 61:56 hold 6: an SMCA LSB, meaningless here. The address stays whole. */
	a = mce_decode_addr(st, (6ULL << 56) | 0x12345678ULL, 0, &leg);
	CHECK(a.valid && a.lsb == 0 && a.phys == 0x12345678ULL,
	      "legacy: ADDR as written, no LSB: valid %d lsb %u 0x%llx", a.valid, a.lsb,
	      (unsigned long long)a.phys);
	/* MISCV with a MISC whose low bits say 6, but no SER_P: Linux does not mask. */
	a = mce_decode_addr(st | MCI_STATUS_MISCV, 0x12345678ULL, 0x86, &leg);
	CHECK(a.valid && a.lsb == 0 && a.phys == 0x12345678ULL,
	      "legacy without SER_P: MISC not used: lsb %u 0x%llx", a.lsb,
	      (unsigned long long)a.phys);
	/* With SER_P (QEMU's AMD models report it) and MISCV: masked by MISC[5:0] = 6. */
	a = mce_decode_addr(st | MCI_STATUS_MISCV, (6ULL << 56) | 0x12345678ULL, 0x86, &leg_ser);
	CHECK(a.valid && a.lsb == 6 && a.phys == 0x12345640ULL,
	      "legacy with SER_P and MISCV: MISC LSB 6: lsb %u 0x%llx", a.lsb,
	      (unsigned long long)a.phys);
	a = mce_decode_addr(st, 0x12345678ULL, 0x86, &leg_ser);
	CHECK(a.valid && a.lsb == 0 && a.phys == 0x12345678ULL, "SER_P but MISCV clear: no LSB");
	/* Northbridge bank 4, DRAM ECC: usable, the same whole address. */
	a = mce_decode_addr(MCI_STATUS_VAL | MCI_STATUS_ADDRV | (8ULL << 16),
			    (12ULL << 56) | 0xabcdef123ULL, 0, &nb4);
	CHECK(a.valid && a.lsb == 0 && a.phys == 0xabcdef123ULL, "bank 4 DRAM ECC: 0x%llx LSB %u",
	      (unsigned long long)a.phys, a.lsb);
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
			 test_vector_ends, test_recover_needs_everything,
			 test_addresses, test_amd_legacy_address, test_error_codes);
}
