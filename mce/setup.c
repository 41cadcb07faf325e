// SPDX-License-Identifier: GPL-2.0-only
/*
 * setup.c - enable MCA on this CPU: MCG_CTL and every bank's CTL to all ones, what firmware
 * left in the banks logged and cleared, CR4.MCE, and the #MC handler installed.
 */
#include "kernel/arch/traps.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"
#include "kernel/platform/cpu.h"
#include "mce/core.h"
#include "mce/decode.h"
#include "mce/mce.h"
#include "mce/mce_regs.h"

void mce_early_init(void)
{
	mce_handler_install();
	/* Without CR4.MCE a machine check shuts the processor down: take it from here on. */
	if (cpuid(1).edx & BIT(7))
		write_cr4(read_cr4() | CR4_MCE);
}

bool mce_init(void)
{
	const struct cpu_ident *c = cpu();
	u64 v;

	struct mce_caps caps = { .mce = c->mce, .mca = c->mca };


	mce_handler_install();
	if (!c->mce || !c->mca || rdmsr_safe(MSR_IA32_MCG_CAP, &v)) {
		printk("MCE: no machine-check architecture on this CPU: #MC handling only\n");
		if (c->mce)
			write_cr4(read_cr4() | CR4_MCE);
		mce_caps_set(&caps);
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
	if (caps.ctl_p)
		wrmsr_safe(MSR_IA32_MCG_CTL, ~0ULL);
	for (unsigned int b = 0; b < caps.nbanks; b++) {
		u64 status = 0, addr = 0, misc = 0;

		if (!rdmsr_safe(mce_bank_msr(b, MCE_REG_STATUS), &status) &&
		    (status & MCI_STATUS_VAL)) {
			char bits[96];

			rdmsr_safe(mce_bank_msr(b, MCE_REG_ADDR), &addr);
			rdmsr_safe(mce_bank_msr(b, MCE_REG_MISC), &misc);
			mce_status_bits(status, caps.amd, bits, sizeof(bits));
			printk("MCE: bank %u left by firmware: STATUS 0x%016llx (%s) ADDR 0x%llx "
			       "MISC 0x%llx; cleared\n", b, (unsigned long long)status, bits,
			       (unsigned long long)addr, (unsigned long long)misc);
			caps.stale++;
		}
		wrmsr_safe(mce_bank_msr(b, MCE_REG_CTL), ~0ULL);
		wrmsr_safe(mce_bank_msr(b, MCE_REG_STATUS), 0);
	}
	write_cr4(read_cr4() | CR4_MCE);
	caps.enabled = true;
	mce_caps_set(&caps);
	printk("MCE: enabled: %u banks (%s), MCG_CAP 0x%llx, MCG_CTL %s, SER_P %s, LMCE_P %s%s%s, "
	       "%u stale bank%s cleared\n", caps.nbanks, caps.smca ? "SMCA" : "legacy",
	       (unsigned long long)v, caps.ctl_p ? "set" : "absent", caps.ser_p ? "yes" : "no",
	       caps.lmce_p ? "yes" : "no", caps.amd ? ", SUCCOR " : "",
	       caps.amd ? (caps.succor ? "yes" : "no") : "", caps.stale,
	       caps.stale == 1 ? "" : "s");
	return true;
}
