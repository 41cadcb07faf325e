// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mce.c - the mce suite: its list of cases, MCA set up as mce_init promises on the boot
 * CPU and on every online CPU, and the bring-up verdict at the end (with the per-CPU table
 * and the "# mce-cpus:" line). The cases in between live by what they test:
 *
 *  - test_mce_rules.c: the handler over simulated MSRs (every grading rule row, int $18).
 *  - test_mce_emulate.c: emulated poison (the sweep, hwpoison, recoveries on several CPUs).
 *  - test_mce_poll.c: the corrected-error poller over every CPU's simulated registers.
 *  - mce_inject.c: a real #MC from QEMU's monitor (inject=qemu) or ACPI EINJ (inject=einj).
 */
#include "copy/ops.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"
#include "kernel/lib/string.h"
#include "kernel/platform/cpu.h"
#include "kernel/platform/smp.h"
#include "ktest/lib/ktap.h"
#include "ktest/mce_suite.h"
#include "mce/mce.h"
#include "mce/mce_regs.h"

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
	 CK_CASE(recoveries_on_several_cpus_at_once),
	 CK_CASE(poller_over_simulated_banks),
	 CK_CASE(qemu_injection),
	 CK_CASE(einj_table),
	 CK_CASE(einj_plumbing),
	 CK_CASE(bringup_verdict));
