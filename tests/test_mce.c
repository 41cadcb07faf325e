// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mce.c - machine-check handling inside the image.
 *
 *  - MCA is enabled as mce_init promises; a software "int $18" is told apart from a #MC.
 *  - simulate: every grading rule row, raised as int $18 over simulated MSRs, is graded by
 *    that row, its bank is cleared and MCG_STATUS is written last.
 *  - emulate: the 512-offset poison sweep for every machine-check-safe routine, with the
 *    poisoned page's loads turned into #MC records; then the hwpoison refusal, and two
 *    recoveries in a row on different pages.
 *  - qemu (inject=qemu): a real #MC injected through QEMU's monitor during copy_mc.
 *  - einj: the ACPI EINJ table, when the firmware has one.
 *  - every online CPU set up as the boot CPU (every_cpu_mca).
 *  - the bring-up mce_suite_verdict, with the per-CPU table and the "# mce-cpus:" line.
 */
#include "copy/ops.h"
#include "copy/pages.h"
#include "copy/routines.h"
#include "kernel/arch/desc.h"
#include "kernel/arch/paging.h"
#include "kernel/arch/pmem.h"
#include "kernel/arch/traps.h"
#include "kernel/console/fbcon.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"
#include "kernel/lib/string.h"
#include "kernel/platform/acpi.h"
#include "kernel/platform/cpu.h"
#include "kernel/platform/smp.h"
#include "kernel/platform/tsc.h"
#include "mce/einj.h"
#include "mce/einj_io.h"
#include "mce/mce.h"
#include "mce/mce_regs.h"
#include "mce/msr.h"
#include "tests/ctx.h"
#include "tests/ktap.h"
#include "tests/lib/copy_sweep.h"
#include "tests/lib/mce_vectors.h"
#include "tests/mce_suite.h"


static void mca_enabled(struct ck_test *t)
{
	const struct mce_caps *c = mce_caps();
	u64 v = 0;

	if (!c->mca) {
		ck_skip(t, "no MCA on this CPU");
		return;
	}
	report(t, c->enabled && c->nbanks > 0, "MCA enabled with %u banks", c->nbanks);
	report(t, read_cr4() & CR4_MCE, "CR4.MCE set");
	if (c->ctl_p)
		report(t, rdmsr_safe(MSR_IA32_MCG_CTL, &v) == 0 && v == ~0ULL,
		       "MCG_CTL all ones (0x%llx)", (unsigned long long)v);
	report(t, rdmsr_safe(mce_bank_msr(c->nbanks - 1, MCE_REG_CTL), &v) == 0 && v == ~0ULL,
	       "last bank's CTL all ones (0x%llx)", (unsigned long long)v);
	ck_diag("%u banks, %s layout, SER_P %s, LMCE_P %s, %u stale", c->nbanks,
		c->smca ? "SMCA" : "legacy", c->ser_p ? "yes" : "no", c->lmce_p ? "yes" : "no",
		c->stale);
}

struct cpu_mca_state {
	bool cr4_mce, mcg_ctl_ones, last_ctl_ones;
};

static void read_mca_state(void *arg)
{
	struct cpu_mca_state *st = (struct cpu_mca_state *)arg + smp_processor_id();
	const struct mce_caps *c = mce_caps();
	u64 v = 0;

	st->cr4_mce = read_cr4() & CR4_MCE;
	st->mcg_ctl_ones = !c->ctl_p || (!rdmsr_safe(MSR_IA32_MCG_CTL, &v) && v == ~0ULL);
	st->last_ctl_ones = !rdmsr_safe(mce_bank_msr(c->nbanks - 1, MCE_REG_CTL), &v) &&
			    v == ~0ULL;
}

/* Every online CPU set up as the boot CPU: CR4.MCE, MCG_CTL and the bank CTLs all ones. */
static void every_cpu_mca(struct ck_test *t)
{
	static struct cpu_mca_state st[64];
	unsigned int n = MIN(smp_nr_cpus(), 64U), late;

	if (!mce_caps()->mca) {
		ck_skip(t, "no MCA on this CPU");
		return;
	}
	memset(st, 0, sizeof(st));
	late = on_each_cpu(read_mca_state, st, 1000);
	report(t, late == 0, "every online CPU answered (%u late)", late);
	for (unsigned int c = 0; c < n; c++) {
		const struct mce_cpu_facts *f = mce_cpu_facts(c);

		if (!cpu_online(c))
			continue;
		report(t, f && f->started && f->mca && f->nbanks, "CPU %u: MCA set up, %u banks",
		       c, f ? f->nbanks : 0);
		report(t, st[c].cr4_mce && st[c].mcg_ctl_ones && st[c].last_ctl_ones,
		       "CPU %u: CR4.MCE %d, MCG_CTL all ones %d, last bank CTL all ones %d", c,
		       st[c].cr4_mce, st[c].mcg_ctl_ones, st[c].last_ctl_ones);
	}
	ck_diag("%u of %u CPUs online; broadcast machine checks %s", smp_nr_online(),
		smp_nr_cpus(), mce_broadcast_capable() ?
		"(Intel family 6 model >= 0xe): handled through the rendezvous" :
		"are not expected on this CPU model: each CPU handles its own");
}

static void software_int18(struct ck_test *t)
{
	u64 before = mce_count();
	const struct mce_record *r;

	__asm__ volatile("int $18" ::: "memory");
	r = mce_last();
	report(t, mce_count() == before + 1 && r && r->kind == MCE_KIND_SOFTWARE,
	       "int $18 recorded as software (kind %d)", r ? (int)r->kind : -1);
	report(t, r && r->frame < ist_stack_top(IST_MC) &&
	       r->frame >= ist_stack_top(IST_MC) - IST_STACK_SIZE, "on the #MC IST stack");
	mce_report_new("    # ");
}

/* Raise vector 18 at a point with (or without) an MCE-safe entry on the next instruction. */
static void raise_mc(bool fixup)
{
	if (fixup)
		__asm__ volatile("int $18\n"
				 "1:\n"
				 _ASM_EXTABLE_TYPE(1b, 1b, EX_TYPE_DEFAULT_MCE_SAFE) ::: "memory");
	else
		__asm__ volatile("int $18" ::: "memory");
}

/* The recoverable SRAR data load, simulated on bank 1 with Intel rules and SER_P. */
static void sim_srar(void)
{
	mce_sim_reset();
	mce_sim.vendor = SIM_VENDOR_INTEL;
	mce_sim.ser = true;
	mce_sim.no_panic = true;
	mce_sim_set(MSR_IA32_MCG_CAP, 2 | MCG_SER_P);
	mce_sim_set(MSR_IA32_MCG_STATUS, MCG_STATUS_RIPV | MCG_STATUS_EIPV | MCG_STATUS_MCIP);
	mce_sim_set(mce_bank_msr(1, MCE_REG_STATUS), 0xbd80000000000134ULL);
	mce_sim_set(mce_bank_msr(1, MCE_REG_ADDR), 0x12345040ULL);
	mce_sim_set(mce_bank_msr(1, MCE_REG_MISC), 0x86);
}

static void sim_done(void)
{
	mce_sim.active = false;
	mce_sim.nested = false;
	mce_sim.no_panic = false;
	mce_sim.vendor = SIM_VENDOR_REAL;
	mce_sim_reset();
}

/* A plain (fault-type) exception-table entry at RIP must not be used for a #MC. */
static void plain_entry_not_used_for_mc(struct ck_test *t)
{
	const struct mce_record *r;
	u64 trap = 0;

	sim_srar();
	mce_sim.active = true;
	__asm__ volatile("int $18\n"
			 "1:\n"
			 _ASM_EXTABLE_TYPE(1b, 1b, EX_TYPE_FAULT | EX_DATA_REG(EX_REG_RSI))
			 : "+S"(trap) :: "memory");
	sim_done();
	r = mce_last();
	report(t, r && r->fixup_found && !r->fixup_mce_safe, "a plain entry was found at RIP");
	report(t, r && !r->recovered && r->would_panic && r->rule &&
	       !strcmp(r->rule->name, "data load in unrecoverable area of kernel"),
	       "not recovered through it: \"%s\"", r && r->rule ? r->rule->name : "?");
	report(t, trap == 0, "the FAULT entry did not run (trap number %llu)",
	       (unsigned long long)trap);
}

/* A #MC while MCIP is set and a handler runs is recognised as nested (and would panic). */
static void nested_mc_recognised(struct ck_test *t)
{
	const struct mce_record *r;

	sim_srar();
	mce_sim.nested = true;
	mce_sim.active = true;
	raise_mc(true);
	sim_done();
	r = mce_last();
	report(t, r && r->kind == MCE_KIND_NESTED && r->would_panic && !r->recovered,
	       "recorded as nested, would stop the machine (kind %d)", r ? (int)r->kind : -1);
	report(t, r && (r->mcg_status & MCG_STATUS_MCIP), "MCIP was set");
	mce_report_new("    # ");
}

/*
 * A 20-bank part: an SRAR data load in bank 1, action-optional scrub errors in banks 2..10
 * (addresses in the MMIO hole, so no real frame is marked), and in the first run a PCC
 * error in bank 19. Every valid bank must be graded and cleared, the log says how many it
 * could not hold, the PCC decides; without it the copy recovers and every scrubbed page is
 * queued.
 */
static void every_bank_graded(struct ck_test *t)
{
	const u64 srao = 0xbd000000000000c3ULL;	/* VAL UC EN MISCV ADDRV S */
	const struct mce_record *r;

	for (int run = 0; run < 2; run++) {
		bool cleared = true;

		sim_srar();
		mce_sim_set(MSR_IA32_MCG_CAP, 20 | MCG_SER_P);
		for (unsigned int b = 2; b <= 10; b++) {
			mce_sim_set(mce_bank_msr(b, MCE_REG_STATUS), srao);
			mce_sim_set(mce_bank_msr(b, MCE_REG_ADDR), 0xfd000000ULL + b * SZ_4K);
			mce_sim_set(mce_bank_msr(b, MCE_REG_MISC), 0x86);
		}
		if (run == 0)
			mce_sim_set(mce_bank_msr(19, MCE_REG_STATUS),
				    0xbd80000000000134ULL | MCI_STATUS_PCC);
		mce_sim.active = true;
		raise_mc(true);
		mce_sim.active = false;
		for (unsigned int b = 0; b < 20; b++)
			cleared &= mce_sim_get(mce_bank_msr(b, MCE_REG_STATUS)) == 0;
		r = mce_last();
		if (!report(t, r != NULL, "a record"))
			break;
		report(t, cleared, "run %d: every bank's STATUS cleared", run);
		report(t, r->nr_valid == 10u + (run == 0) && r->nr_banks == MCE_LOG_BANKS,
		       "run %d: %u valid banks graded, %u held in the log", run, r->nr_valid,
		       r->nr_banks);
		if (run == 0) {
			report(t, r->would_panic && !r->recovered && r->rule &&
			       !strcmp(r->rule->name, "processor context corrupt (PCC)"),
			       "the PCC error in bank 19 decides: \"%s\"",
			       r->rule ? r->rule->name : "?");
		} else {
			report(t, r->recovered && !r->would_panic, "without it: recovered");
			report(t, r->queued == 9 && on_poison_list(0xfd000 + 2) &&
			       on_poison_list(0xfd000 + 10), "the 9 scrubbed pages are queued (%u)",
			       r->queued);
		}
		mce_report_new("    # ");
		sim_done();
	}
}

static bool end_matches(const struct mce_record *r, enum mce_vector_end end)
{
	switch (end) {
	case VEC_RECOVER:
		return r->recovered && !r->would_panic;
	case VEC_PANIC:
		return r->would_panic && !r->recovered;
	default:
		return !r->recovered && !r->would_panic;
	}
}

static void grading_rules(struct ck_test *t, bool amd)
{
	unsigned int n = 0, idx = 0;

	for (unsigned int i = 0; i < mce_nr_vectors; i++)
		n += mce_vectors[i].amd == amd;
	ck_params_begin(t, amd ? "grading_rules_amd" : "grading_rules_intel", n);
	for (unsigned int i = 0; i < mce_nr_vectors; i++) {
		const struct mce_vector *v = &mce_vectors[i];
		const struct mce_record *r;
		u32 st = mce_bank_msr(1, MCE_REG_STATUS);
		bool ok;

		if (v->amd != amd)
			continue;
		mce_sim_reset();
		mce_sim.vendor = amd ? SIM_VENDOR_AMD : SIM_VENDOR_INTEL;
		mce_sim.ser = v->ser;
		mce_sim.no_panic = true;
		mce_sim_set(MSR_IA32_MCG_CAP, 2 | (v->ser ? MCG_SER_P : 0));
		mce_sim_set(MSR_IA32_MCG_STATUS, v->mcg_status);
		mce_sim_set(st, v->status);
		mce_sim_set(mce_bank_msr(1, MCE_REG_ADDR), 0x12345040ULL | (amd ? 6ULL << 56 : 0));
		mce_sim_set(mce_bank_msr(1, MCE_REG_MISC), 0x86);
		mce_sim.active = true;
		raise_mc(v->fixup);
		mce_sim.active = false;
		r = mce_last();
		if (v->handler_reaches)
			ok = r && r->kind == MCE_KIND_SIMULATED && r->nr_banks == 1 &&
			     !strcmp(r->banks[0].rule->name, v->rule) && mce_sim_get(st) == 0 &&
			     mce_sim.last_write == MSR_IA32_MCG_STATUS &&
			     mce_sim_get(MSR_IA32_MCG_STATUS) == 0 && end_matches(r, v->end);
		else	/* an invalid bank is never graded: MCIP set, nothing valid */
			ok = r && r->nr_banks == 0 && end_matches(r, v->end);
		if (!ok && r)
			ck_diag("row \"%s\": bank rule \"%s\", decided by \"%s\" (%s%s, kind %d)",
				v->rule, r->nr_banks ? r->banks[0].rule->name : "-",
				r->rule ? r->rule->name : "?", r->recovered ? "recovered" : "",
				r->would_panic ? "would panic" : "", r->kind);
		ck_param_result(t, ++idx, ok, v->rule);
	}
	mce_sim_reset();
	mce_sim.vendor = SIM_VENDOR_REAL;
	mce_sim.no_panic = false;
	mce_report_skip("    # ");	/* one simulated record per row, checked above */
	mce_suite_verdict.sim_ok = !t->failed;
}

static void grading_rules_intel(struct ck_test *t)
{
	grading_rules(t, false);
}

static void grading_rules_amd(struct ck_test *t)
{
	grading_rules(t, true);
}

/* ---- emulated poison ---- */

static struct sweep_env env;
static bool env_ready;

static void poison_page(void *page, bool present)
{
	u64 a = (u64)(uintptr_t)page;

	pg_set_attr(a, a + SZ_4K, present ? PG_RAM : PG_CACHE(PG_CACHE_WB));
	if (present)
		mce_emulate_disarm(a);
	else
		mce_emulate_arm(a);
}

static u64 records(void)
{
	return mce_count();
}

static u64 record_addr(void)
{
	const struct mce_record *r = mce_last();

	return r && r->worst >= 0 ? r->banks[r->worst].addr & ~0xfffULL : 0;
}

static bool cannot_recover(struct ck_test *t)
{
	if (mce_can_recover())
		return false;
	ck_skip(t, "this CPU cannot recover (%s): an emulated #MC would panic, as in Linux",
		!mce_caps()->enabled ? "no MCA" : mce_caps()->amd ? "AMD without SUCCOR" :
		"no SER_P");
	return true;
}

static bool get_env(struct ck_test *t)
{
	static const u8 aligns[] = { 0, 7 };

	if (env_ready)
		return true;
	env = (struct sweep_env){
		.src = (u8 *)(uintptr_t)pmem_alloc(SWEEP_BUF, SZ_4K),
		.dst = (u8 *)(uintptr_t)pmem_alloc(SWEEP_BUF, SZ_4K),
		.fault_area = (u8 *)(uintptr_t)pmem_alloc(4 * SZ_4K, SZ_4K),
		.other_area = (u8 *)(uintptr_t)pmem_alloc(4 * SZ_4K, SZ_4K),
		.set_present = poison_page, .fault_count = records, .fault_addr = record_addr,
		.aligns = aligns, .nr_aligns = 2,
	};
	if (!report(t, env.src && env.dst && env.fault_area && env.other_area, "buffers"))
		return false;
	sweep_fill(&env);
	env_ready = true;
	return true;
}

static void emulated_sweep_one(struct ck_test *t, sweep_copy_fn fn, const char *name,
			       size_t slack)
{
	struct fault_result r;
	u64 before = mce_count();

	sweep_fault(&env, fn, false, slack, 1, &r);
	report(t, r.bad == 0, "%s: %lu of 512 offsets wrong (first at %zu: %s)", name, r.bad,
	       r.first_offset, r.why ? r.why : "");
	report(t, r.missed == 0, "%s: %lu copies without one #MC record at the poisoned line",
	       name, r.missed);
	report(t, mce_count() - before == 512 && mce_last()->kind == MCE_KIND_EMULATED &&
	       mce_last()->recovered, "%s: 512 emulated #MC records, all recovered", name);
}

static void emulated_poison_sweep(struct ck_test *t)
{
	struct dispatch_caps caps;

	if (cannot_recover(t) || !get_env(t))
		return;
	caps = t->ctx->caps;
	emulated_sweep_one(t, copy_mc_fragile, "copy_mc_fragile", 0);
	emulated_sweep_one(t, copy_mc_fast_string, "copy_mc_fast_string", REP_MOVSB_SLACK);
	if (caps.avx2)
		emulated_sweep_one(t, copy_mc_avx2_nt, "copy_mc_avx2_nt", 0);
	if (caps.avx512f)
		emulated_sweep_one(t, copy_mc_avx512_nt, "copy_mc_avx512_nt", 0);
	mce_report(mce_last(), "    # last record: ");
	mce_report_skip("    # ");	/* the other 1500-odd records say the same */
	mce_suite_verdict.emulate_ok = !t->failed;
}

/* Copy @nr pages at @src_pa with copy_mc_highpages while page @bad is poisoned (emulated). */
static int copy_over_poison(u64 src_pa, u64 dst_pa, unsigned long nr, unsigned long bad)
{
	u64 p = src_pa + bad * SZ_4K;
	int r;

	poison_page((void *)(uintptr_t)p, false);
	r = copy_mc_highpages(pfn_to_page(dst_pa >> 12), pfn_to_page(src_pa >> 12), nr);
	poison_page((void *)(uintptr_t)p, true);
	return r;
}

/*
 * The review's finding: a page already on the poison list (a prior memory_failure, or
 * MADV_HWPOISON) must be refused before any byte is read. The page is also unmapped here,
 * so a single load from it would fault: neither a #PF fixup nor a #MC record may appear.
 */
static void hwpoison_refuses_copy(struct ck_test *t)
{
	u64 src = pmem_alloc(8 * SZ_4K, SZ_4K), dst = pmem_alloc(8 * SZ_4K, SZ_4K);
	u64 bad = src + 5 * SZ_4K, faults = ex_last.count, mces = mce_count();
	int r;

	if (!report(t, src && dst, "buffers"))
		return;
	memset((void *)(uintptr_t)dst, 0xdd, 8 * SZ_4K);
	memory_failure_queue(bad >> 12);
	report(t, page_hwpoison(pfn_to_page(bad >> 12)), "queued page is marked hwpoison");
	pg_set_attr(bad, bad + SZ_4K, PG_CACHE(PG_CACHE_WB));
	r = copy_mc_highpages(pfn_to_page(dst >> 12), pfn_to_page(src >> 12), 8);
	pg_set_attr(bad, bad + SZ_4K, PG_RAM);
	report(t, r == -EHWPOISON, "copy_mc_highpages returned %d, want -EHWPOISON", r);
	report(t, ex_last.count == faults && mce_count() == mces,
	       "no byte was read: no fault, no #MC");
	report(t, *(volatile u8 *)(uintptr_t)dst == 0xdd, "nothing was written");
	r = copy_mc_highpage(pfn_to_page(dst >> 12), pfn_to_page(bad >> 12));
	report(t, r == -EHWPOISON && ex_last.count == faults, "copy_mc_highpage refuses too");
	pfn_to_page(bad >> 12)->flags = 0;
}

static void two_recoveries_in_a_row(struct ck_test *t)
{
	u64 src, dst, seq = mce_count();
	int r1, r2;

	if (cannot_recover(t) || mce_copy_mc_unsafe(t))
		return;
	src = pmem_alloc(16 * SZ_4K, SZ_4K);
	dst = pmem_alloc(16 * SZ_4K, SZ_4K);
	if (!report(t, src && dst, "buffers"))
		return;
	r1 = copy_over_poison(src, dst, 8, 3);
	r2 = copy_over_poison(src + 8 * SZ_4K, dst + 8 * SZ_4K, 8, 3);	/* page 11 */
	report(t, r1 == -EHWPOISON && r2 == -EHWPOISON, "both copies report -EHWPOISON");
	report(t, mce_count() == seq + 2, "two #MC records");
	report(t, on_poison_list((src >> 12) + 3) && on_poison_list((src >> 12) + 11),
	       "both pfns (0x%llx, 0x%llx) are on the poison list",
	       (unsigned long long)(src >> 12) + 3, (unsigned long long)(src >> 12) + 11);
	mce_report_new("    # ");
}

static void bringup_verdict(struct ck_test *t)
{
	const struct mce_caps *c = mce_caps();
	const struct cpu_ident *id = cpu();

	ck_diag("mce-verdict: MCA %s, %u banks (%s)%s", c->enabled ? "present and enabled" :
		c->mca ? "present, NOT enabled" : "absent", c->nbanks, c->smca ? "SMCA" : "legacy",
		c->stale ? ", errors were left in banks by firmware" : "");
	ck_diag("mce-verdict: recovery features: SER_P %s, LMCE_P %s%s%s", c->ser_p ? "yes" : "no",
		c->lmce_p ? "yes" : "no", c->amd ? ", SUCCOR " : "",
		c->amd ? (c->succor ? "yes" : "no") : "");
	ck_diag("mce-verdict: backends: simulate %s, emulate %s, qemu %s, einj %s",
		mce_suite_verdict.sim_ok ? "ok" : "FAILED",
		!mce_can_recover() ? "not run (no recovery)" : mce_suite_verdict.emulate_ok ? "ok" : "FAILED",
		!mce_suite_verdict.qemu_ran ? "not run" : mce_suite_verdict.qemu_ok ? "ok" : "FAILED",
		mce_suite_verdict.einj_present ? "table present" : "no table");
	ck_diag("mce-verdict: copy_mc_to_kernel here is %s: %s",
		copy_mc_impl_desc(copy_ops.choice.copy_mc),
		copy_ops.choice.copy_mc == COPY_MC_MEMCPY ?
		"a machine check during a copy would NOT be recovered" :
		(c->amd ? c->succor : c->ser_p) ?
		"poison consumed during a copy is recoverable" :
		"the CPU does not advertise recovery (no SER_P/SUCCOR): Linux would panic");
	mce_cpus_table("    # mce-cpu: ");
	{
		char line[256];

		mce_cpus_summary_text(line, sizeof(line));
		ck_diag("mce-cpus: %s", line);
	}
	report(t, id->mca ? c->enabled : true, "MCA enabled wherever the CPU has it");
}

CK_SUITE(mce, 70,
	 CK_CASE(mca_enabled),
	 CK_CASE(every_cpu_mca),
	 CK_CASE(software_int18),
	 CK_CASE(grading_rules_intel),
	 CK_CASE(grading_rules_amd),
	 CK_CASE(plain_entry_not_used_for_mc),
	 CK_CASE(nested_mc_recognised),
	 CK_CASE(every_bank_graded),
	 CK_CASE(emulated_poison_sweep),
	 CK_CASE(hwpoison_refuses_copy),
	 CK_CASE(two_recoveries_in_a_row),
	 CK_CASE(qemu_injection),
	 CK_CASE(einj_table),
	 CK_CASE(einj_plumbing),
	 CK_CASE(bringup_verdict));
