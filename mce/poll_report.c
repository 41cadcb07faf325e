// SPDX-License-Identifier: GPL-2.0-only
/*
 * poll_report.c - the run's last look for corrected errors (mce_poll_final, poll.h): the
 * records of machine checks not printed yet, then each online CPU in turn polls its banks
 * and hands over what its queue holds, and each finding is printed decoded, with the CPU,
 * its node, the bank, the address with its granularity and the node that holds it. Runs
 * after the suites, never in a handler.
 */
#include "kernel/arch/traps.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"
#include "kernel/lib/format.h"
#include "kernel/platform/numa.h"
#include "kernel/platform/smp.h"
#include "kernel/platform/tsc.h"
#include "mce/decode.h"
#include "mce/dimm_report.h"
#include "mce/mce.h"
#include "mce/mce_regs.h"
#include "mce/poll.h"
#include "mce/poll_core.h"

/* One CPU's answer: its findings and counts, filled on that CPU. */
struct final_poll {
	struct mce_poll_event ev[MCE_POLL_QUEUE];
	unsigned int n;
	u64 left;			/* banks this poll left for the #MC handler */
	struct mce_poll_stats st;	/* since its poller started */
};

static struct final_poll answer;

static void final_fn(void *arg)
{
	struct final_poll *fp = arg;
	struct mce_poll_stats before;

	mce_poll_stats_this(&before);
	mce_poll_cpu();
	fp->n = mce_poll_take(fp->ev, MCE_POLL_QUEUE);
	mce_poll_stats_this(&fp->st);
	fp->left = fp->st.left_for_mc - before.left_for_mc;
}

static void print_event(const char *p, unsigned int c, const struct mce_poll_event *ev)
{
	const struct mce_caps *caps = mce_caps();
	struct percpu *pc = smp_cpu(c);
	char bits[128], code[96];

	mce_status_bits(ev->status, caps->amd, bits, sizeof(bits));
	mce_mcacod_desc((u16)(ev->status & MCI_STATUS_MCACOD), code, sizeof(code));
	printk("%smce-poll: CPU %u (APIC id %u, node %d) bank %u: %s%s, STATUS 0x%016llx [%s], "
	       "MCACOD 0x%04llx: %s\n", p, c, pc ? pc->apic_id : 0, smp_cpu_node(c), ev->bank,
	       mce_poll_kind_name(ev->kind), ev->over ? ", OVER (an earlier error was lost)" : "",
	       (unsigned long long)ev->status, bits,
	       (unsigned long long)(ev->status & MCI_STATUS_MCACOD), code);
	if (ev->addr_valid)
		printk("%smce-poll:   address 0x%llx (ADDR 0x%llx, LSB %u: %llu-byte granularity), "
		       "node %d\n", p, (unsigned long long)ev->phys, (unsigned long long)ev->addr,
		       ev->lsb, 1ULL << ev->lsb, numa_node_of(numa(), ev->phys));
	else
		printk("%smce-poll:   no usable address (ADDR 0x%llx MISC 0x%llx)\n", p,
		       (unsigned long long)ev->addr, (unsigned long long)ev->misc);
	if (caps->smca) {
		char sub[40];

		printk("%smce-poll:   IPID 0x%llx SYND 0x%llx AMD node %d\n", p,
		       (unsigned long long)ev->ipid, (unsigned long long)ev->synd,
		       mce_cpu_amd_node(c));
		ck_snprintf(sub, sizeof(sub), "%smce-poll:   ", p);
		mce_dimm_report(sub, mce_cpu_amd_node(c), true, ev->status, ev->synd,
				ev->ipid);
	}
	if (ev->kind == MCE_POLL_THRESHOLD)
		printk("%smce-poll:   threshold counter overflowed (MISC0 0x%llx)\n", p,
		       (unsigned long long)ev->misc);
	else
		printk("%smce-poll:   grade %s, by rule \"%s\"; found by %s\n", p,
		       mce_grade_name(ev->rule->grade), ev->rule->name,
		       ev->from_cmci ? "the CMCI interrupt" : "a poll");
}

/* Wait up to @wait_s seconds for an NMI on this CPU: the runner's sign its injections are in. */
static void wait_for_nmi(const char *p, unsigned int wait_s)
{
	unsigned int me = smp_processor_id();
	u64 seen = nmi_record_of(me)->count, t0 = rdtsc();
	u64 end = t0 + tsc_info()->hz * wait_s;

	printk("%smce-poll: waiting up to %u s for an NMI before the final poll (mce_poll_wait=)\n",
	       p, wait_s);
	while (__atomic_load_n(&nmi_record_of(me)->count, __ATOMIC_ACQUIRE) == seen &&
	       rdtsc() < end)
		cpu_relax();
	if (__atomic_load_n(&nmi_record_of(me)->count, __ATOMIC_ACQUIRE) != seen)
		printk("%smce-poll: NMI received after %llu ms: polling\n", p,
		       (unsigned long long)(tsc_to_ns(rdtsc() - t0) / 1000000));
	else
		printk("%smce-poll: no NMI within %u s: polling anyway\n", p, wait_s);
}

/* Into @sum: what was shown by kind, what this poll left, and the counts since boot. */
static void add_answer(struct mce_poll_stats *sum, const struct final_poll *fp)
{
	for (unsigned int i = 0; i < fp->n; i++)
		sum->found[fp->ev[i].kind]++;
	sum->left_for_mc += fp->left;
	sum->dropped += fp->st.dropped;
	sum->cmcis += fp->st.cmcis;
	sum->storms += fp->st.storms;
	sum->lock_skips += fp->st.lock_skips;
}

void mce_poll_final(const char *p, unsigned int wait_s)
{
	struct mce_poll_stats sum = { 0 };
	unsigned int polled = 0, late = 0, shown = 0;

	if (!mce_caps()->enabled) {
		printk("%smce-poll: no machine-check architecture enabled: nothing to poll\n", p);
		return;
	}
	if (wait_s)
		wait_for_nmi(p, wait_s);
	/* A machine check the runner sent meanwhile: its record first (which banks it left). */
	mce_report_new(p);
	for (unsigned int c = 0; c < smp_nr_cpus(); c++) {
		if (!cpu_online(c))
			continue;
		answer = (struct final_poll){ .n = 0 };
		if (on_cpu(c, final_fn, &answer, SMP_DEFAULT_TIMEOUT_MS)) {
			printk("%smce-poll: CPU %u did not answer within %u ms: not polled\n", p, c,
			       SMP_DEFAULT_TIMEOUT_MS);
			late++;
			continue;
		}
		polled++;
		for (unsigned int i = 0; i < answer.n; i++)
			print_event(p, c, &answer.ev[i]);
		shown += answer.n;
		add_answer(&sum, &answer);
	}
	printk("%smce-poll: final poll of %u CPU%s%s: %u finding%s (%llu corrected, %llu deferred, "
	       "%llu UCNA, %llu threshold), %llu bank%s left for the #MC handler; since boot: "
	       "%llu dropped (queue full), %llu CMCI, %llu storms, %llu polls without the lock\n",
	       p, polled, polled == 1 ? "" : "s", late ? " (some did not answer)" : "", shown,
	       shown == 1 ? "" : "s", (unsigned long long)sum.found[MCE_POLL_CORRECTED],
	       (unsigned long long)sum.found[MCE_POLL_DEFERRED],
	       (unsigned long long)sum.found[MCE_POLL_UCNA],
	       (unsigned long long)sum.found[MCE_POLL_THRESHOLD],
	       (unsigned long long)sum.left_for_mc, sum.left_for_mc == 1 ? "" : "s",
	       (unsigned long long)sum.dropped, (unsigned long long)sum.cmcis,
	       (unsigned long long)sum.storms, (unsigned long long)sum.lock_skips);
}
