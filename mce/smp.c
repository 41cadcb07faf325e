// SPDX-License-Identifier: GPL-2.0-only
/*
 * smp.c - machine checks on every CPU: MCA set up on each online AP as mce_init set it up on
 * the boot CPU (on_each_cpu), the banks two CPUs share (Intel: the SDM's CMCI ownership
 * probe, one CPU at a time; AMD SMCA: equal MCA_IPID values), the per-CPU table and the
 * summary line. The rendezvous itself is in rendezvous.c, its decisions in smp_logic.c.
 */
#include "kernel/arch/bootmem.h"
#include "kernel/arch/percpu.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"
#include "kernel/lib/string.h"
#include "kernel/platform/cpu.h"
#include "kernel/platform/smp.h"
#include "kernel/platform/tsc.h"
#include "mce/core.h"
#include "mce/decode.h"
#include "mce/mce.h"
#include "mce/mce_regs.h"
#include "mce/smp_logic.h"

#define SETUP_TIMEOUT_MS	1000

/* Online CPUs that did not finish the setup in time. */
static unsigned int nr_failed;

const struct mce_cpu_facts *mce_cpu_facts(unsigned int cpu)
{
	struct mce_cpu *mc = mce_cpu_of(cpu);

	return mc ? &mc->facts : NULL;
}

static const struct mce_cpu_facts *facts_fn(void *ctx, unsigned int cpu)
{
	return mce_cpu_facts(cpu);
}

int mce_cpus_summary_text(char *buf, size_t size)
{
	return mce_cpus_summary(facts_fn, NULL, smp_nr_cpus(), buf, size);
}

static void setup_fn(void *arg)
{
	struct mce_cpu *mc = mce_cpu_this();

	if (mc && !mc->facts.started)
		mce_cpu_setup(mc, mce_caps(), false);
}

/* The SDM's CMCI ownership probe of every bank of this CPU; CPUs take turns. */
static void probe_fn(void *arg)
{
	struct mce_cpu *mc = mce_cpu_this();

	if (!mc || !mc->facts.mca)
		return;
	for (unsigned int b = 0; b < mc->facts.nbanks; b++) {
		u64 before, after;

		if (rdmsr_safe(MSR_MC_CTL2(b), &before)) {
			mc->facts.cmci_none |= BIT(b);
			continue;
		}
		after = before;
		if (!(before & MCI_CTL2_CMCI_EN) &&
		    (wrmsr_safe(MSR_MC_CTL2(b), before | MCI_CTL2_CMCI_EN) ||
		     rdmsr_safe(MSR_MC_CTL2(b), &after)))
			after = before;
		switch (mce_cmci_probe(before, after)) {
		case MCE_CMCI_OTHER:
			mc->facts.shared |= BIT(b);
			break;
		case MCE_CMCI_MINE:
			mc->cmci_mine |= BIT(b);
			break;
		case MCE_CMCI_NONE:
			mc->facts.cmci_none |= BIT(b);
			break;
		}
	}
	mc->facts.share = MCE_SHARE_CMCI;
}

/* Leave CMCI_EN as the probe found it; each CPU's poller claims its own banks' CMCI again. */
static void unprobe_fn(void *arg)
{
	struct mce_cpu *mc = mce_cpu_this();
	u64 v;

	if (!mc)
		return;
	for (unsigned int b = 0; b < mc->facts.nbanks; b++)
		if ((mc->cmci_mine & BIT(b)) && !rdmsr_safe(MSR_MC_CTL2(b), &v))
			wrmsr_safe(MSR_MC_CTL2(b), v & ~MCI_CTL2_CMCI_EN);
}

static void shared_by_cmci(unsigned int n)
{
	u64 other = 0;

	for (unsigned int c = 0; c < n; c++) {
		struct mce_cpu *mc = mce_cpu_of(c);

		if (!mc || !mc->facts.started || !mc->facts.mca ||
		    on_cpu(c, probe_fn, NULL, SETUP_TIMEOUT_MS))
			continue;
		other |= mc->facts.shared;
	}
	/* The owner of a bank others found owned shares it too (same bank number). */
	for (unsigned int c = 0; c < n; c++) {
		struct mce_cpu *mc = mce_cpu_of(c);

		if (mc && mc->facts.share == MCE_SHARE_CMCI)
			mc->facts.shared |= other & mc->cmci_mine;
	}
	on_each_cpu(unprobe_fn, NULL, SETUP_TIMEOUT_MS);
}

static void shared_by_ipid(unsigned int n)
{
	for (unsigned int c = 0; c < n; c++) {
		struct mce_cpu *mc = mce_cpu_of(c);

		if (!mc || !mc->facts.started || !mc->facts.mca)
			continue;
		mc->facts.share = MCE_SHARE_IPID;
		for (unsigned int d = 0; d < n; d++) {
			struct mce_cpu *o = mce_cpu_of(d);

			if (d == c || !o || !o->facts.started || !o->facts.mca)
				continue;
			mc->facts.shared |= mce_ipid_shared(mc->ipid, mc->facts.nbanks, o->ipid,
							    o->facts.nbanks);
		}
	}
}

static void print_stale(const char *prefix, unsigned int cpu, const struct mce_cpu *mc)
{
	const struct mce_caps *caps = mce_caps();

	for (unsigned int i = 0; i < mc->facts.stale && i < MCE_STALE_LOG; i++) {
		const struct mce_stale *s = &mc->stale[i];
		struct mce_addr_src src = { .amd = caps->amd, .smca = caps->smca,
					    .hygon = caps->hygon, .ser_p = caps->ser_p,
					    .bank = s->bank };
		struct mce_addr a = mce_decode_addr(s->status, s->addr, s->misc, &src);
		char bits[128], code[96];

		mce_status_bits(s->status, caps->amd, bits, sizeof(bits));
		mce_mcacod_desc((u16)(s->status & MCI_STATUS_MCACOD), code, sizeof(code));
		printk("%sCPU %u bank %u left by firmware: STATUS 0x%016llx [%s], MCACOD 0x%04llx: "
		       "%s; ADDR 0x%llx MISC 0x%llx: %s; cleared\n", prefix, cpu, s->bank,
		       (unsigned long long)s->status, bits,
		       (unsigned long long)(s->status & MCI_STATUS_MCACOD), code,
		       (unsigned long long)s->addr, (unsigned long long)s->misc,
		       a.valid ? "a usable physical address" : a.why);
	}
	if (mc->facts.stale > MCE_STALE_LOG)
		printk("%sCPU %u: %u more stale banks cleared (the first %u are shown)\n", prefix,
		       cpu, mc->facts.stale - MCE_STALE_LOG, MCE_STALE_LOG);
}

static const char *share_name(const struct mce_cpu_facts *f)
{
	switch (f->share) {
	case MCE_SHARE_CMCI:
		return "CMCI probe";
	case MCE_SHARE_IPID:
		return "SMCA IPID";
	default:
		return "no CMCI, no SMCA";
	}
}

static void print_cpu(const char *prefix, unsigned int c, bool with_stale)
{
	struct percpu *pc = smp_cpu(c);
	struct mce_cpu *mc = mce_cpu_of(c);
	char ne[64], sh[64];

	if (!pc)
		return;
	if (!mc || !mc->facts.started) {
		printk("%sCPU %u (APIC id %u): %s\n", prefix, c, pc->apic_id,
		       pc->state == CPU_ONLINE ? "did not finish the MCA setup in time" :
		       "not started: its machine checks are not handled");
		return;
	}
	if (!mc->facts.mca) {
		printk("%sCPU %u (APIC id %u): no MCA (CR4.MCE %s)\n", prefix, c, pc->apic_id,
		       mce_caps()->mce ? "set" : "absent");
		return;
	}
	mce_bank_list(mc->facts.not_enabled, ne, sizeof(ne));
	mce_bank_list(mc->facts.shared, sh, sizeof(sh));
	printk("%sCPU %u (APIC id %u): %u banks, MCG_CAP 0x%llx, %u stale, not enabling: %s, "
	       "shared: %s (%s), LMCE %s\n", prefix, c, pc->apic_id, mc->facts.nbanks,
	       (unsigned long long)mc->facts.mcg_cap, mc->facts.stale, ne,
	       mc->facts.share == MCE_SHARE_UNKNOWN ? "unknown" : sh, share_name(&mc->facts),
	       mc->facts.lmce ? "on" : "off");
	if (with_stale)
		print_stale(prefix, c, mc);
}

/* Up to this many CPUs every CPU gets its line; beyond, only those with something to say. */
#define MCE_TABLE_FULL	16

/* Nothing to say beyond CPU 0's line: same banks, MCG_CAP and sharing, clean, all enabling. */
static bool like_cpu0(unsigned int c)
{
	struct mce_cpu *m0 = mce_cpu_of(0), *mc = mce_cpu_of(c);

	if (!m0 || !mc || !mc->facts.started || !mc->facts.mca)
		return false;
	return mc->facts.nbanks == m0->facts.nbanks && mc->facts.mcg_cap == m0->facts.mcg_cap &&
	       !mc->facts.stale && !mc->facts.not_enabled && !m0->facts.not_enabled &&
	       mc->facts.shared == m0->facts.shared && mc->facts.share == m0->facts.share &&
	       mc->facts.lmce == m0->facts.lmce;
}

static void print_table(const char *prefix, unsigned int from)
{
	unsigned int n = smp_nr_cpus(), quiet = 0;

	for (unsigned int c = from; c < n; c++) {
		if (n > MCE_TABLE_FULL && c && like_cpu0(c)) {
			quiet++;
			continue;
		}
		print_cpu(prefix, c, true);
	}
	if (quiet)
		printk("%s%u more CPU%s as CPU 0 (same banks, MCG_CAP and sharing, no stale "
		       "error, every bank enabling): not listed one by one\n", prefix, quiet,
		       quiet == 1 ? "" : "s");
}

void mce_cpus_table(const char *prefix)
{
	print_table(prefix, 0);
}

void mce_cpus_init(void)
{
	const struct mce_caps *caps = mce_caps();
	const struct cpu_ident *id = cpu();
	unsigned int n = smp_nr_cpus();
	struct mce_cpu *aps = NULL;
	char line[256];

	if (n > 1)
		aps = (struct mce_cpu *)(uintptr_t)bootmem_alloc((u64)(n - 1) *
							      sizeof(struct mce_cpu), SZ_4K);
	for (unsigned int c = 1; c < n && aps; c++) {
		struct percpu *pc = smp_cpu(c);

		memset(&aps[c - 1], 0, sizeof(aps[c - 1]));
		if (pc && pc->state == CPU_ONLINE)
			mce_cpu_attach(c, &aps[c - 1]);
	}
	if (n > 1 && !aps)
		printk("MCE: no memory for the APs' machine-check state: APs not set up\n");
	if (caps->mca && aps)
		nr_failed = on_each_cpu(setup_fn, NULL, SETUP_TIMEOUT_MS);
	if (caps->mca && caps->smca)
		shared_by_ipid(n);
	else if (caps->mca && !caps->amd && (caps->mcg_cap & MCG_CMCI_P))
		shared_by_cmci(n);
	mce_rv_setup(mce_rv_broadcast_capable(caps->amd, id->family, id->model),
		     tsc_info()->hz * (id->hypervisor ? MCE_RV_TIMEOUT_VIRT_US :
				       MCE_RV_TIMEOUT_US) / 1000000ULL);
	/* The boot CPU's line and stale banks were printed by mce_init. */
	print_table("MCE: ", 1);
	mce_cpus_summary_text(line, sizeof(line));
	printk("MCE: every CPU: %s%s\n", line, nr_failed ? "; some CPUs did not answer" : "");
	mce_poll_start_all();
}
