// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mce_poll.c - the mce suite's case for the corrected-error poller (mce/poll.h): on every
 * online CPU at once, its poller reads that CPU's own simulated register file (inject=simulate
 * routing) holding a corrected error, a UCNA and an action-required error, and must log the
 * first two decoded, clear them, and leave the third for the #MC handler, as Linux's
 * machine_check_poll() does. The expected values are the ones written into the file here.
 */
#include "kernel/lib/string.h"
#include "kernel/platform/smp.h"
#include "ktest/lib/ktap.h"
#include "ktest/mce_suite.h"
#include "mce/mce.h"
#include "mce/mce_regs.h"
#include "mce/msr.h"
#include "mce/poll.h"

#define POLL_CPUS	64
#define CORRECTED	0x9c0000000000009fULL	/* VAL EN MISCV ADDRV, memory read */
#define UCNA		0xbc0000000000009fULL	/* VAL UC EN MISCV ADDRV, S clear */
#define SRAR		0xbd80000000000134ULL	/* VAL UC EN MISCV ADDRV S AR, data load */

struct poll_seen {
	bool ran, had_state;
	unsigned int n;
	struct mce_poll_event ev[4];
	u64 after[4];		/* each bank's STATUS after the poll */
};

/* CPU @cpu's addresses: apart per CPU, in the MMIO hole (no real frame is named). */
static u64 addr_of(unsigned int cpu, unsigned int bank)
{
	return 0xfd000000ULL + cpu * 0x10000ULL + bank * 0x1000ULL + 0x7c;
}

static void poll_own_sim(void *arg)
{
	struct poll_seen *seen = (struct poll_seen *)arg + smp_processor_id();
	unsigned int cpu = smp_processor_id();
	struct mce_sim *s = mce_sim_this();

	seen->ran = true;
	if (!s)
		return;
	seen->had_state = true;
	mce_sim_reset(s);
	s->vendor = SIM_VENDOR_INTEL;
	s->ser = true;
	s->no_panic = true;
	mce_sim_set(s, MSR_IA32_MCG_CAP, 4 | MCG_SER_P);
	mce_sim_set(s, mce_bank_msr(1, MCE_REG_STATUS), CORRECTED);
	mce_sim_set(s, mce_bank_msr(2, MCE_REG_STATUS), SRAR);
	mce_sim_set(s, mce_bank_msr(3, MCE_REG_STATUS), UCNA);
	for (unsigned int b = 1; b <= 3; b++) {
		mce_sim_set(s, mce_bank_msr(b, MCE_REG_ADDR), addr_of(cpu, b));
		mce_sim_set(s, mce_bank_msr(b, MCE_REG_MISC), 0x86);	/* LSB 6, physical */
	}
	mce_sim_route(true);
	mce_poll_cpu();
	mce_sim_route(false);
	seen->n = mce_poll_take(seen->ev, 4);
	for (unsigned int b = 0; b < 4; b++)
		seen->after[b] = mce_sim_get(s, mce_bank_msr(b, MCE_REG_STATUS));
	mce_sim_reset(s);
}

static void check_cpu(struct ck_test *t, unsigned int c, const struct poll_seen *p)
{
	const struct mce_poll_event *e = p->ev;

	if (!report(t, p->ran && p->had_state, "CPU %u: ran with its machine-check state", c))
		return;
	if (!report(t, p->n == 2, "CPU %u: two events (%u)", c, p->n))
		return;
	report(t, e[0].bank == 1 && e[0].kind == MCE_POLL_CORRECTED && e[0].status == CORRECTED &&
	       e[0].addr_valid && e[0].lsb == 6 && e[0].phys == (addr_of(c, 1) & ~0x3fULL) &&
	       !e[0].over && !e[0].from_cmci, "CPU %u: bank 1 corrected at 0x%llx, LSB %u", c,
	       (unsigned long long)e[0].phys, e[0].lsb);
	report(t, e[1].bank == 3 && e[1].kind == MCE_POLL_UCNA && e[1].addr_valid &&
	       e[1].phys == (addr_of(c, 3) & ~0x3fULL) && e[1].rule &&
	       e[1].rule->grade == MCE_GRADE_LOG, "CPU %u: bank 3 UCNA, graded \"%s\"", c,
	       e[1].rule ? e[1].rule->name : "?");
	report(t, !p->after[1] && !p->after[3], "CPU %u: the logged banks are cleared", c);
	report(t, p->after[2] == SRAR, "CPU %u: the action-required bank is left for the #MC "
	       "handler (STATUS 0x%llx)", c, (unsigned long long)p->after[2]);
}

void poller_over_simulated_banks(struct ck_test *t)
{
	static struct poll_seen seen[POLL_CPUS];
	unsigned int n = MIN(smp_nr_cpus(), (unsigned int)POLL_CPUS), late;

	if (!mce_caps()->enabled) {
		ck_skip(t, "MCA is not enabled here");
		return;
	}
	memset(seen, 0, sizeof(seen));
	late = on_each_cpu(poll_own_sim, seen, 1000);
	report(t, late == 0, "every online CPU answered (%u late)", late);
	for (unsigned int c = 0; c < n; c++)
		if (cpu_online(c))
			check_cpu(t, c, &seen[c]);
	ck_diag("%u CPUs polled their own simulated banks at once", smp_nr_online());
}
