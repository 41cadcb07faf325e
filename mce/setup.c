// SPDX-License-Identifier: GPL-2.0-only
/*
 * setup.c - enable MCA on this CPU: MCG_CTL and every bank's CTL to all ones, what firmware
 * left in the banks logged and cleared, CR4.MCE, and the #MC handler installed. The same
 * per-CPU part (mce_cpu_setup) runs on every AP from mce_cpus_init (mce/smp.c).
 */
#include "kernel/arch/cpuid.h"
#include "kernel/arch/percpu.h"
#include "kernel/arch/traps.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"
#include "kernel/platform/cpu.h"
#include "mce/core.h"
#include "mce/decode.h"
#include "mce/mce.h"
#include "mce/mce_regs.h"

void mce_handler_install(void)
{
	static bool installed;

	if (installed)
		return;
	installed = true;
	mce_mc_install();
	mce_emulate_install();
}

void mce_early_init(void)
{
	mce_handler_install();
	/* Without CR4.MCE a machine check shuts the processor down: take it from here on. */
	if (cpu_has(X86_FEATURE_MCE)) {
		printk("cpu: CR4.MCE on (machine checks)\n");
		write_cr4(read_cr4() | CR4_MCE);
	}
}


/* The boot CPU's; the APs' come from mce_cpus_init (mce/smp.c). */
static struct mce_cpu mce_boot_cpu;

/*
 * Local machine checks (Intel): only with SER_P and LMCE_P, and when firmware locked
 * IA32_FEATURE_CONTROL with its LMCE bit set; otherwise writing MCG_EXT_CTL faults.
 */
static bool lmce_enable(u64 mcg_cap)
{
	u64 fc, ext;

	if (!(mcg_cap & MCG_SER_P) || !(mcg_cap & MCG_LMCE_P))
		return false;
	if (rdmsr_safe(MSR_IA32_FEATURE_CONTROL, &fc) ||
	    (fc & (FEATURE_CONTROL_LOCKED | FEATURE_CONTROL_LMCE)) !=
	    (FEATURE_CONTROL_LOCKED | FEATURE_CONTROL_LMCE))
		return false;
	if (rdmsr_safe(MSR_IA32_MCG_EXT_CTL, &ext) ||
	    wrmsr_safe(MSR_IA32_MCG_EXT_CTL, ext | MCG_EXT_CTL_LMCE_EN) ||
	    rdmsr_safe(MSR_IA32_MCG_EXT_CTL, &ext))
		return false;
	return ext & MCG_EXT_CTL_LMCE_EN;
}

void mce_cpu_setup(struct mce_cpu *mc, const struct mce_caps *caps, bool print)
{
	struct mce_cpu_facts *f = &mc->facts;
	u64 cap;

	f->started = true;
	/* The node Linux hands amd64_edac for this CPU's UMC banks (topology_amd_node_id). */
	f->amd_node = caps->smca && cpu_has(X86_FEATURE_TOPOEXT) ?
		      (int)(cpuid(CPUID_LEAF_TOPOLOGY_AMD).ecx & CPUID_AMD_NODE_ID_MASK) : -1;
	if (!caps->mca || rdmsr_safe(MSR_IA32_MCG_CAP, &cap)) {
		if (caps->mce)
			write_cr4(read_cr4() | CR4_MCE);
		return;
	}
	f->mca = true;
	f->mcg_cap = cap;
	f->nbanks = MIN((unsigned int)(cap & MCG_BANKCNT_MASK), MCE_MAX_BANKS);
	if (cap & MCG_CTL_P)
		wrmsr_safe(MSR_IA32_MCG_CTL, ~0ULL);
	for (unsigned int b = 0; b < f->nbanks; b++) {
		u64 status = 0, addr = 0, misc = 0, ctl = 0;

		if (!rdmsr_safe(mce_bank_msr(b, MCE_REG_STATUS), &status) &&
		    (status & MCI_STATUS_VAL)) {
			rdmsr_safe(mce_bank_msr(b, MCE_REG_ADDR), &addr);
			rdmsr_safe(mce_bank_msr(b, MCE_REG_MISC), &misc);
			if (print) {
				char bits[96];

				mce_status_bits(status, caps->amd, bits, sizeof(bits));
				printk("MCE: bank %u left by firmware: STATUS 0x%016llx (%s) "
				       "ADDR 0x%llx MISC 0x%llx; cleared\n", b,
				       (unsigned long long)status, bits,
				       (unsigned long long)addr, (unsigned long long)misc);
			}
			if (f->stale < MCE_STALE_LOG)
				mc->stale[f->stale] = (struct mce_stale){ (u16)b, status, addr,
									  misc };
			f->stale++;
		}
		wrmsr_safe(mce_bank_msr(b, MCE_REG_CTL), ~0ULL);
		if (rdmsr_safe(mce_bank_msr(b, MCE_REG_CTL), &ctl) || ctl != ~0ULL)
			f->not_enabled |= BIT(b);
		wrmsr_safe(mce_bank_msr(b, MCE_REG_STATUS), 0);
		if (caps->smca)
			rdmsr_safe(mce_bank_msr(b, MCE_REG_IPID), &mc->ipid[b]);
	}
	write_cr4(read_cr4() | CR4_MCE);
	if (!caps->amd)
		f->lmce = lmce_enable(cap);
}

bool mce_init(void)
{
	const struct cpu_ident *c = cpu();
	struct mce_caps caps = { .mce = c->mce, .mca = c->mca };
	u64 v;

	mce_handler_install();
	if (!c->mce || !c->mca || rdmsr_safe(MSR_IA32_MCG_CAP, &v)) {
		printk("MCE: no machine-check architecture on this CPU: #MC handling only\n");
		if (c->mce)
			write_cr4(read_cr4() | CR4_MCE);
		mce_caps_set(&caps);
		mce_boot_cpu.facts = (struct mce_cpu_facts){ .started = true };
		mce_cpu_attach(smp_processor_id(), &mce_boot_cpu);
		return false;
	}
	caps.mcg_cap = v;
	caps.nbanks = MIN((unsigned int)(v & MCG_BANKCNT_MASK), MCE_MAX_BANKS);
	caps.ctl_p = v & MCG_CTL_P;
	caps.ser_p = v & MCG_SER_P;
	caps.lmce_p = v & MCG_LMCE_P;
	caps.amd = c->vendor == VENDOR_AMD || c->vendor == VENDOR_HYGON;
	caps.smca = caps.amd && c->smca;
	caps.succor = caps.amd && c->succor;
	caps.ovf_recov = caps.amd && c->mca_ovf_recov;
	caps.hygon = c->vendor == VENDOR_HYGON;
	mce_caps_set(&caps);		/* the bank layout; not enabled yet */
	mce_boot_cpu.facts = (struct mce_cpu_facts){ 0 };
	mce_cpu_setup(&mce_boot_cpu, &caps, true);
	caps.stale = mce_boot_cpu.facts.stale;
	caps.enabled = true;
	mce_caps_set(&caps);
	mce_cpu_attach(smp_processor_id(), &mce_boot_cpu);
	printk("MCE: enabled: %u banks (%s), MCG_CAP 0x%llx, MCG_CTL %s, SER_P %s, LMCE_P %s%s%s, "
	       "%u stale bank%s cleared\n", caps.nbanks, caps.smca ? "SMCA" : "legacy",
	       (unsigned long long)v, caps.ctl_p ? "set" : "absent", caps.ser_p ? "yes" : "no",
	       caps.lmce_p ? "yes" : "no", caps.amd ? ", SUCCOR " : "",
	       caps.amd ? (caps.succor ? "yes" : "no") : "", caps.stale,
	       caps.stale == 1 ? "" : "s");
	return true;
}
