// SPDX-License-Identifier: GPL-2.0-only
/*
 * report.c - print machine-check records decoded: where it hit, every STATUS bit by name,
 * what the error code means, the address and its granularity, the rule that graded it and
 * what happened. Runs after the handler returned (or as the machine stops).
 */
#include "kernel/arch/percpu.h"
#include "kernel/console/printk.h"
#include "kernel/lib/format.h"
#include "kernel/lib/ksyms.h"
#include "kernel/platform/smp.h"
#include "mce/decode.h"
#include "mce/dimm_report.h"
#include "mce/mce.h"
#include "mce/mce_regs.h"
#include "mce/smp_logic.h"

static const char *kind_name(enum mce_kind k)
{
	switch (k) {
	case MCE_KIND_REAL:	 return "machine check";
	case MCE_KIND_SOFTWARE:	 return "software int $18";
	case MCE_KIND_NESTED:	 return "nested machine check";
	case MCE_KIND_EMULATED:	 return "emulated machine check (#PF on a poisoned page)";
	case MCE_KIND_SIMULATED: return "simulated machine check (simulated MSRs)";
	}
	return "?";
}

static const char *outcome(const struct mce_record *r)
{
	if (r->recovered)
		return "recovered: resumed at the fixup";
	if (r->would_panic)
		return "the machine stops (panic)";
	if (r->kind == MCE_KIND_SOFTWARE)
		return "ignored: not a machine check";
	return "continued";
}

/* Which CPU took it and, for a broadcast, its part in the rendezvous. */
static void report_cpu(const struct mce_record *r, const char *p)
{
	struct percpu *pc = smp_cpu(r->cpu);
	char ord[16];

	printk("%s  on CPU %u (APIC id %u): ", p, r->cpu, pc ? pc->apic_id : 0);
	if (!r->broadcast) {
		printk("handled by this CPU alone (%s)\n",
		       mce_caps()->amd ? "AMD: machine checks are local" :
		       r->mcg_status & MCG_STATUS_LMCES ? "local machine check: LMCES set" :
		       !(r->mcg_status & MCG_STATUS_MCIP) ? "MCIP clear" :
		       !mce_broadcast_capable() ? "this CPU model does not broadcast" :
		       "no rendezvous");
		return;
	}
	printk("broadcast, checked in %s", mce_rv_ordinal(r->order, ord, sizeof(ord)));
	if (r->monarch >= 0)
		printk("; Monarch CPU %d, %u of %u online CPUs checked in", r->monarch, r->nr_in,
		       r->nr_online);
	printk("\n");
}

void mce_report(const struct mce_record *r, const char *p)
{
	const struct mce_caps *c = mce_caps();
	char sym[96], bits[128], code[96];

	ksym_format(r->rip, sym, sizeof(sym));
	printk("%smce #%llu: %s at RIP %016llx %s\n", p, (unsigned long long)r->seq,
	       kind_name(r->kind), (unsigned long long)r->rip, sym);
	if (smp_nr_cpus() > 1 && (r->kind == MCE_KIND_REAL || r->broadcast))
		report_cpu(r, p);
	printk("%s  MCG_STATUS 0x%llx (RIPV %d EIPV %d MCIP %d), MCG_CAP 0x%llx; exception-table "
	       "entry at RIP: %s\n", p, (unsigned long long)r->mcg_status,
	       !!(r->mcg_status & MCG_STATUS_RIPV), !!(r->mcg_status & MCG_STATUS_EIPV),
	       !!(r->mcg_status & MCG_STATUS_MCIP), (unsigned long long)r->mcg_cap,
	       !r->fixup_found ? "none" : r->fixup_mce_safe ? "machine-check safe" :
	       "not machine-check safe (ignored for #MC)");
	for (unsigned int i = 0; i < r->nr_banks; i++) {
		const struct mce_bank_log *b = &r->banks[i];
		struct mce_addr_src src = { .amd = c->amd, .smca = c->smca, .hygon = c->hygon,
					    .ser_p = !!(r->mcg_cap & MCG_SER_P), .bank = b->bank };
		struct mce_addr a = mce_decode_addr(b->status, b->addr, b->misc, &src);

		mce_status_bits(b->status, c->amd, bits, sizeof(bits));
		mce_mcacod_desc((u16)(b->status & MCI_STATUS_MCACOD), code, sizeof(code));
		printk("%s  bank %u: STATUS 0x%016llx [%s]\n", p, b->bank,
		       (unsigned long long)b->status, bits);
		printk("%s    MCACOD 0x%04llx: %s\n", p,
		       (unsigned long long)(b->status & MCI_STATUS_MCACOD), code);
		printk("%s    ADDR 0x%llx MISC 0x%llx: address LSB %u, mode %u: %s",
		       p, (unsigned long long)b->addr, (unsigned long long)b->misc,
		       c->amd ? a.lsb : MCI_MISC_LSB(b->misc),
		       MCI_MISC_MODE(b->misc), a.why);
		if (a.valid)
			printk(" 0x%llx (pfn 0x%llx)", (unsigned long long)a.phys,
			       (unsigned long long)a.phys >> 12);
		printk("\n");
		if (c->smca) {
			char sub[40];

			printk("%s    IPID 0x%llx SYND 0x%llx AMD node %d\n", p,
			       (unsigned long long)b->ipid, (unsigned long long)b->synd,
			       mce_cpu_amd_node(r->cpu));
			ck_snprintf(sub, sizeof(sub), "%s    ", p);
			mce_dimm_report(sub, mce_cpu_amd_node(r->cpu), true, b->status, b->synd,
					b->ipid);
		}
		printk("%s    grade: %s, by rule \"%s\"; %s%s\n", p,
		       mce_grade_name(b->rule->grade), b->rule->name,
		       b->logged ? (b->cleared ? "logged and cleared by the handler" :
				    "logged by the handler, left in the bank") :
		       b->cleared ? "nothing to log, cleared" :
		       r->would_panic ? "left in the bank" : "left in the bank for the poller",
		       b->queued ? "; page queued for offlining" : "");
	}
	if (r->nr_valid > r->nr_banks)
		printk("%s  (%u more valid bank%s graded; the log holds %u)\n", p,
		       r->nr_valid - r->nr_banks, r->nr_valid - r->nr_banks == 1 ? "" : "s",
		       r->nr_banks);
	if (r->nr_left)
		printk("%s  %u of %u valid bank%s left in place: %s\n", p, r->nr_left, r->nr_valid,
		       r->nr_valid == 1 ? "" : "s", r->would_panic ?
		       "the machine stops, they stay for the next boot" :
		       "corrected, UCNA or not signalled, the poller's (as Linux leaves them)");
	printk("%s  verdict: %s, by rule \"%s\"; %s\n", p, mce_grade_name(r->grade),
	       r->rule ? r->rule->name : "?", outcome(r));
	if (r->recovered) {
		ksym_format(r->resume_rip, sym, sizeof(sym));
		printk("%s  resumed at %s\n", p, sym);
	}
	if (r->pfn_valid && r->recovered)
		printk("%s  poisoned pfn 0x%llx (from the bank address): the copy that consumed it "
		       "queues it\n", p, (unsigned long long)r->pfn);
}

static u64 reported;

/* One line for records [reported, upto): how many, and how they ended. */
static void summarize(const char *prefix, u64 upto)
{
	u64 rec = 0, pan = 0, seen = 0;

	if (upto <= reported)
		return;
	for (u64 s = reported; s < upto; s++) {
		const struct mce_record *r = mce_get(s);

		if (!r)
			continue;
		seen++;
		rec += r->recovered;
		pan += r->would_panic;
	}
	printk("%smce: %llu record%s (#%llu..#%llu) not printed one by one; of the %llu still "
	       "held: %llu recovered, %llu would have stopped the machine\n", prefix,
	       (unsigned long long)(upto - reported), upto - reported == 1 ? "" : "s",
	       (unsigned long long)reported, (unsigned long long)upto - 1,
	       (unsigned long long)seen, (unsigned long long)rec, (unsigned long long)pan);
	reported = upto;
}

void mce_report_skip(const char *prefix)
{
	summarize(prefix, mce_count());
}

void mce_report_new(const char *prefix)
{
	u64 n = mce_count();

	if (n - reported > 16)
		summarize(prefix, n - 16);
	for (; reported < n; reported++) {
		const struct mce_record *r = mce_get(reported);

		if (r)
			mce_report(r, prefix);
	}
}
