// SPDX-License-Identifier: GPL-2.0-only
/*
 * Self-test of the Linux v6.17 MCE oracle. Each expectation was derived by
 * hand from reading severity.c / core.c (see NOTES.md), not from the oracle.
 *
 * Built and run by make host-tests as build/host/test_oracle_mce (KTAP); alone:
 *	gcc -std=gnu11 -I. ktest/oracle/linux_mce.c ktest/oracle/selftest_linux_mce.c \
 *		-o /tmp/st && /tmp/st
 */
#include "ktest/oracle/linux_mce.h"

#include <stdio.h>
#include <string.h>

#define VAL	LX_MCI_VAL
#define OVER	LX_MCI_OVER
#define UC	LX_MCI_UC
#define EN	LX_MCI_EN
#define MISCV	LX_MCI_MISCV
#define ADDRV	LX_MCI_ADDRV
#define PCC	LX_MCI_PCC
#define S	LX_MCI_S
#define AR	LX_MCI_AR
#define DEFER	LX_MCI_DEFERRED
#define POISON	LX_MCI_POISON

#define RIPV	LX_MCG_RIPV
#define EIPV	LX_MCG_EIPV
#define MCIP	LX_MCG_MCIP
#define LMCES	LX_MCG_LMCES

/* A local #MC with both IPs valid, as a kernel load would raise it. */
#define MCG_OK	(RIPV | EIPV | MCIP | LMCES)
#define SRAR_DATA	(VAL | UC | EN | MISCV | ADDRV | S | AR | LX_MCACOD_DATA)
#define SRAR_INSTR	(VAL | UC | EN | MISCV | ADDRV | S | AR | LX_MCACOD_INSTR)
#define SRAO_SCRUB	(VAL | UC | EN | MISCV | ADDRV | S | 0xc5)

static int failures;
static int number;

/* One check: counted, and named when it fails (the case it belongs to then fails). */
static void check(bool good, const char *name)
{
	number++;
	if (!good) {
		failures++;
		printf("# check failed: %s\n", name);
	}
}

/* Check severity, its reason text, end result and page queueing in one go. */
static void expect(const char *name, const struct lx_mce_in *in, enum lx_sev sev,
		   const char *sev_why, enum lx_end end, const char *end_why, bool queues)
{
	const char *got_sev_why = NULL;
	const char *got_end_why = NULL;
	enum lx_sev got_sev = lx_mce_severity(in, &got_sev_why);
	enum lx_end got_end = lx_mce_end(in, &got_end_why);
	bool got_queue = lx_mce_queues_page(in);
	bool good = got_sev == sev && got_end == end && got_queue == queues;

	if (sev_why && (!got_sev_why || strcmp(sev_why, got_sev_why)))
		good = false;
	if (end_why && (!got_end_why || strcmp(end_why, got_end_why)))
		good = false;
	check(good, name);
	if (!good)
		printf("#   got sev %s (%s), end %s (%s), queues %d\n", lx_sev_name(got_sev),
		       got_sev_why ? got_sev_why : "-", lx_end_name(got_end),
		       got_end_why ? got_end_why : "-", got_queue);
}

static void intel_cases(void)
{
	struct lx_mce_in in;

	/* SRAR data load at a copy_mc-style RIP: row "data load in recoverable area". */
	in = (struct lx_mce_in){ .status = SRAR_DATA, .mcg_status = MCG_OK, .ser_p = true,
				 .fixup_mce_safe = true };
	expect("intel SRAR data, MC-safe fixup -> AR, recover via fixup", &in, LX_SEV_AR,
	       "Action required: data load in error recoverable area of kernel",
	       LX_END_RECOVER, NULL, false);

	/* Same without any fixup: "Data load in unrecoverable area of kernel". */
	in.fixup_mce_safe = false;
	expect("intel SRAR data, no fixup -> panic (local)", &in, LX_SEV_PANIC,
	       "Data load in unrecoverable area of kernel", LX_END_PANIC,
	       "Fatal local machine check", false);

	/* A non-MC-safe fixup does not make the kernel context recoverable. */
	in.fixup_other = true;
	expect("intel SRAR data, ordinary fixup -> panic", &in, LX_SEV_PANIC,
	       "Data load in unrecoverable area of kernel", LX_END_PANIC, NULL, false);

	/* Broadcast (no LMCES), this CPU is Monarch alone: mce_reign() panics. */
	in.fixup_other = false;
	in.mcg_status = RIPV | EIPV | MCIP;
	expect("intel SRAR data, broadcast -> reign panic", &in, LX_SEV_PANIC, NULL,
	       LX_END_PANIC, "Fatal machine check", false);

	/* EIPV clear: context falls back to KERNEL and the "continuable" row matches. */
	in = (struct lx_mce_in){ .status = SRAR_DATA, .mcg_status = RIPV | MCIP | LMCES,
				 .ser_p = true, .fixup_mce_safe = true };
	expect("intel SRAR, RIPV only, local -> KEEP, not counted", &in, LX_SEV_KEEP,
	       "Action required but unaffected thread is continuable", LX_END_IGNORE, NULL,
	       false);

	/* ...and the same on a broadcast #MC: nothing worse than KEEP seen by the Monarch. */
	in.mcg_status = RIPV | MCIP;
	expect("intel SRAR, RIPV only, broadcast -> unknown source panic", &in, LX_SEV_KEEP,
	       NULL, LX_END_PANIC, "Fatal machine check from unknown source", false);

	/* SRAR instruction fetch even with an MC-safe fixup: unknown MCACOD row. */
	in = (struct lx_mce_in){ .status = SRAR_INSTR, .mcg_status = MCG_OK, .ser_p = true,
				 .fixup_mce_safe = true };
	expect("intel SRAR instr fetch, MC-safe fixup -> panic", &in, LX_SEV_PANIC,
	       "Action required: unknown MCACOD", LX_END_PANIC, NULL, false);

	/* SRAO memory scrub in kernel: logged, resume, page goes to memory_failure. */
	in = (struct lx_mce_in){ .status = SRAO_SCRUB, .mcg_status = MCG_OK, .ser_p = true };
	expect("intel SRAO scrub -> AO, resume, queue page", &in, LX_SEV_AO,
	       "Action optional: memory scrubbing error", LX_END_RESUME, NULL, true);

	/* Filter bit 12 is ignored by the scrub mask. */
	in.status |= 0x1000;
	expect("intel SRAO scrub with filter bit -> AO", &in, LX_SEV_AO, NULL, LX_END_RESUME,
	       NULL, true);

	/* No restart IP in kernel: panic before any SER row is looked at. */
	in = (struct lx_mce_in){ .status = SRAO_SCRUB, .mcg_status = EIPV | MCIP | LMCES,
				 .ser_p = true };
	expect("intel no RIPV in kernel -> panic", &in, LX_SEV_PANIC,
	       "In kernel and no restart IP", LX_END_PANIC, NULL, false);

	/* MCIP clear in the handler. */
	in.mcg_status = RIPV | EIPV | LMCES;
	expect("intel MCIP clear -> panic", &in, LX_SEV_PANIC, "MCIP not set in MCA handler",
	       LX_END_PANIC, NULL, false);

	/* UCNA (UC, S=0, AR=0): left to CMCI/poll, which grades it UCNA and offlines. */
	in = (struct lx_mce_in){ .status = VAL | UC | EN | MISCV | ADDRV | 0x9f,
				 .mcg_status = MCG_OK, .ser_p = true };
	expect("intel UCNA -> not counted, queued by poller", &in, LX_SEV_UCNA,
	       "Uncorrected no action required", LX_END_IGNORE, NULL, true);

	/* UC, S=0, AR=1, no overflow: illegal combination. */
	in.status |= AR;
	expect("intel UC S=0 AR=1 -> illegal combination panic", &in, LX_SEV_PANIC,
	       "Illegal combination (UCNA with AR=1)", LX_END_PANIC, NULL, false);

	/* Not enabled: NO, bank cleared and ignored. */
	in = (struct lx_mce_in){ .status = VAL | UC | S | AR | PCC, .mcg_status = MCG_OK,
				 .ser_p = true };
	expect("intel EN=0 (even with PCC) -> NO, ignored", &in, LX_SEV_NO, "Not enabled",
	       LX_END_IGNORE, NULL, false);

	/* PCC wins over everything after VAL/EN. */
	in.status |= EN;
	expect("intel PCC -> panic", &in, LX_SEV_PANIC, "Processor context corrupt",
	       LX_END_PANIC, NULL, false);

	/* Without SER: UC in kernel panics unless an MC-safe fixup makes it KERNEL_RECOV. */
	in = (struct lx_mce_in){ .status = VAL | UC | EN, .mcg_status = RIPV | EIPV | MCIP };
	expect("intel no SER, UC in kernel -> panic", &in, LX_SEV_PANIC,
	       "Uncorrected in kernel", LX_END_PANIC, "Fatal machine check", false);
	in.fixup_mce_safe = true;
	expect("intel no SER, UC, MC-safe fixup -> UC, resume (no fixup)", &in, LX_SEV_UC,
	       "Uncorrected", LX_END_RESUME, NULL, false);
	in.status |= OVER;
	expect("intel no SER, UC+OVER -> panic", &in, LX_SEV_PANIC, "Overflowed uncorrected",
	       LX_END_PANIC, NULL, false);

	/* TDX: recoverable row matches first but the SEAM branch returns to RIP. */
	in = (struct lx_mce_in){ .status = SRAR_DATA, .mcg_status = MCG_OK | LX_MCG_SEAM_NR,
				 .ser_p = true, .fixup_mce_safe = true };
	expect("intel SRAR data + SEAM_NR + fixup -> AR, resume", &in, LX_SEV_AR, NULL,
	       LX_END_RESUME, NULL, false);
	in.fixup_mce_safe = false;
	expect("intel SRAR data + SEAM_NR, no fixup -> AR (SEAM row), resume", &in, LX_SEV_AR,
	       "Data load error in SEAM non-root mode", LX_END_RESUME, NULL, false);

	/* Copy from user without any extable entry: fixup_exception() fails. */
	in = (struct lx_mce_in){ .status = SRAR_DATA, .mcg_status = MCG_OK, .ser_p = true,
				 .copy_user = true };
	expect("intel SRAR copy-from-user, no fixup -> failed recovery", &in, LX_SEV_AR, NULL,
	       LX_END_PANIC, "Failed kernel mode recovery", false);
	in.fixup_other = true;
	expect("intel SRAR copy-from-user, uaccess fixup -> recover, kill_me_never", &in,
	       LX_SEV_AR, NULL, LX_END_RECOVER, NULL, true);
}

static void amd_cases(void)
{
	struct lx_mce_in in;
	uint64_t mcg = RIPV | EIPV | MCIP;

	in = (struct lx_mce_in){ .status = VAL | UC | EN | ADDRV | POISON, .mcg_status = mcg,
				 .amd = true, .succor = true, .fixup_mce_safe = true,
				 .smca = true };
	expect("amd UC poison, SUCCOR, MC-safe fixup -> AR, recover", &in, LX_SEV_AR, NULL,
	       LX_END_RECOVER, NULL, false);

	in.fixup_mce_safe = false;
	expect("amd UC in kernel, no fixup -> panic", &in, LX_SEV_PANIC,
	       "Uncorrected unrecoverable error in kernel context", LX_END_PANIC,
	       "Fatal local machine check", false);

	in.fixup_mce_safe = true;
	in.succor = false;
	expect("amd UC without SUCCOR -> panic", &in, LX_SEV_PANIC,
	       "Uncorrected error without MCA Recovery", LX_END_PANIC, NULL, false);

	in.succor = true;
	in.status |= OVER;
	expect("amd UC+OVER without OverflowRecov -> panic", &in, LX_SEV_PANIC,
	       "Overflowed uncorrected error without MCA Overflow Recovery", LX_END_PANIC,
	       NULL, false);
	in.overflow_recov = true;
	expect("amd UC+OVER with OverflowRecov -> AR, recover", &in, LX_SEV_AR, NULL,
	       LX_END_RECOVER, NULL, false);

	/* EIPV clear: the context cannot be recoverable. */
	in = (struct lx_mce_in){ .status = VAL | UC | EN, .mcg_status = RIPV | MCIP,
				 .amd = true, .succor = true, .fixup_mce_safe = true };
	expect("amd UC, EIPV clear -> panic", &in, LX_SEV_PANIC, NULL, LX_END_PANIC, NULL,
	       false);

	/* Deferred: left to the poller, which grades it DEFERRED and offlines the page. */
	in = (struct lx_mce_in){ .status = VAL | EN | DEFER | ADDRV, .mcg_status = mcg,
				 .amd = true, .succor = true };
	expect("amd deferred -> not counted, queued by poller", &in, LX_SEV_DEFERRED, NULL,
	       LX_END_IGNORE, NULL, true);
	in.mcg_status = EIPV | MCIP;
	expect("amd deferred, no RIPV -> still returns to RIP", &in, LX_SEV_DEFERRED, NULL,
	       LX_END_IGNORE, NULL, true);

	/* Corrected. */
	in = (struct lx_mce_in){ .status = VAL | EN, .mcg_status = mcg, .amd = true };
	expect("amd corrected -> KEEP, not counted", &in, LX_SEV_KEEP, NULL, LX_END_IGNORE,
	       NULL, false);

	/* PCC first. */
	in.status |= PCC | DEFER;
	expect("amd PCC -> panic", &in, LX_SEV_PANIC, "Processor Context Corrupt",
	       LX_END_PANIC, NULL, false);
}

static void usable_address_cases(void)
{
	struct lx_mce_in in = { .status = VAL | UC | EN | ADDRV | MISCV };

	/* MISC: LSB 12, address mode 2 (physical). */
	check(lx_mce_usable_address(&in, 0x8c, 0), "intel LSB 12 physical -> usable");
	check(!lx_mce_usable_address(&in, 0x8d, 0), "intel LSB 13 -> not usable");
	check(!lx_mce_usable_address(&in, 0x4c, 0), "intel linear mode -> not usable");
	in.status &= ~MISCV;
	check(!lx_mce_usable_address(&in, 0x8c, 0), "intel MISCV clear -> not usable");

	in = (struct lx_mce_in){ .status = VAL | UC | ADDRV | POISON, .amd = true,
				 .smca = true };
	check(lx_mce_usable_address(&in, 0, 0), "amd smca poison -> usable");
	in.status &= ~POISON;
	check(!lx_mce_usable_address(&in, 0, 0), "amd smca no poison -> not usable");
	in.hygon = true;
	check(lx_mce_usable_address(&in, 0, 0), "hygon ADDRV -> usable");

	in = (struct lx_mce_in){ .status = VAL | UC | ADDRV | (8ULL << 16), .amd = true,
				 .bank = 4 };
	check(lx_mce_usable_address(&in, 0, 0), "amd legacy bank 4 XEC 8 -> usable");
	in.status |= POISON;
	in.status &= ~(8ULL << 16);
	check(!lx_mce_usable_address(&in, 0, 0), "amd legacy bank 4 other XEC -> not usable");
	in.status &= ~ADDRV;
	in.status |= POISON;
	in.bank = 1;
	check(!lx_mce_usable_address(&in, 0, 0), "amd ADDRV clear -> not usable");
}

/* ---- One machine check over several banks and CPUs (lx_mce_event) ---- */

#define CE	(VAL | EN | MISCV | ADDRV | 0x9f)	/* corrected: UC and S clear */
#define UCNA	(VAL | UC | EN | MISCV | ADDRV | 0x9f)	/* UC, S and AR clear */
#define QEMU_BC	(VAL | UC)				/* QEMU's "mce -b" on the others */

/* Bank @b of CPU @c ended as given (poll_sev only looked at when the poller logs it). */
static void fate(const char *name, const struct lx_mce_event_result *r, unsigned int c,
		 unsigned int b, bool logged, bool cleared, bool left, bool poll_logs,
		 enum lx_sev poll_sev)
{
	const struct lx_bank_fate *f = &r->bank[c][b];
	bool good = f->logged == logged && f->cleared == cleared && f->left == left &&
		    f->poll_logs == poll_logs && (!poll_logs || f->poll_sev == poll_sev);

	check(good, name);
	if (!good)
		printf("#   CPU %u bank %u: logged %d cleared %d left %d poll %d (%s)\n", c, b,
		       f->logged, f->cleared, f->left, f->poll_logs, lx_sev_name(f->poll_sev));
}

static void event_is(const char *name, const struct lx_mce_event_result *r, bool panic,
		     const char *why, bool nwo)
{
	bool good = r->panic == panic && r->no_way_out == nwo &&
		    (!why || (r->why && !strcmp(r->why, why)));

	check(good, name);
	if (!good)
		printf("#   panic %d (%s), no_way_out %d\n", r->panic, r->why ? r->why : "-",
		       r->no_way_out);
}

/*
 * Intel with SER_P, a local #MC at a machine-check-safe load: the SRAR is taken; the
 * corrected error (S clear: not signalled) and the UCNA (S clear too) are left for
 * machine_check_poll(), which logs them (KEEP "Non signaled", UCNA). With PCC in the SRAR
 * bank, mce_no_way_out() finds it and the local path panics before any scan: nothing is
 * logged by the scan and nothing cleared.
 */
static void scan_local_cases(void)
{
	static struct lx_mce_cpu cpu;
	static struct lx_mce_event_result r;

	cpu = (struct lx_mce_cpu){ .in = { .mcg_status = MCG_OK, .ser_p = true,
					   .fixup_mce_safe = true }, .nbanks = 10 };
	cpu.status[1] = SRAR_DATA;
	cpu.status[2] = CE;
	cpu.status[3] = UCNA;
	lx_mce_event(&cpu, 1, &r);
	event_is("local SRAR beside CE and UCNA: no panic", &r, false, NULL, false);
	check(r.end[0] == LX_END_RECOVER, "local SRAR beside CE and UCNA: recovers");
	fate("local SRAR: taken", &r, 0, 1, true, true, false, false, LX_SEV_NO);
	fate("local CE: left, polled as KEEP", &r, 0, 2, false, false, true, true, LX_SEV_KEEP);
	fate("local UCNA: left, polled as UCNA", &r, 0, 3, false, false, true, true, LX_SEV_UCNA);

	cpu.status[1] |= PCC;
	lx_mce_event(&cpu, 1, &r);
	event_is("local PCC: panics before the scan", &r, true, "Fatal local machine check", true);
	for (unsigned int b = 1; b <= 3; b++)
		fate("local PCC: nothing logged by the scan, nothing cleared, nothing polled", &r,
		     0, b, false, false, false, false, LX_SEV_NO);

	/* Without SER_P "signalled" means UC: a CE is left, an uncorrected error taken. */
	cpu = (struct lx_mce_cpu){ .in = { .mcg_status = MCG_OK, .fixup_mce_safe = true },
				   .nbanks = 4 };
	cpu.status[1] = CE;
	cpu.status[2] = VAL | UC | EN | 0x9f;
	lx_mce_event(&cpu, 1, &r);
	event_is("no SER_P: UC at a fixup, CE beside it", &r, false, NULL, false);
	check(r.end[0] == LX_END_RESUME, "no SER_P: UC graded UC resumes at RIP");
	fate("no SER_P: CE left, polled", &r, 0, 1, false, false, true, true, LX_SEV_KEEP);
	fate("no SER_P: UC taken", &r, 0, 2, true, true, false, false, LX_SEV_NO);

	/* AMD (always local), SUCCOR, at a fixup: the UC error recovers, the CE is left. */
	cpu = (struct lx_mce_cpu){ .in = { .mcg_status = RIPV | EIPV | MCIP, .amd = true,
					   .succor = true, .fixup_mce_safe = true },
				   .nbanks = 6 };
	cpu.status[1] = VAL | UC | EN | ADDRV | POISON | 0x135;
	cpu.status[5] = VAL | EN | 0x11b;
	lx_mce_event(&cpu, 1, &r);
	event_is("AMD UC at a fixup beside a CE", &r, false, NULL, false);
	check(r.end[0] == LX_END_RECOVER, "AMD UC at a fixup: recovers");
	fate("AMD UC: taken", &r, 0, 1, true, true, false, false, LX_SEV_NO);
	fate("AMD CE: left, polled as KEEP", &r, 0, 5, false, false, true, true, LX_SEV_KEEP);

	/*
	 * A signalled bank graded DEFERRED is left too (the second skip of __mc_scan_banks):
	 * an AMD deferred error with UC set. The poller of a CPU without SER_P skips UC banks,
	 * so it stays in the bank.
	 */
	cpu.status[2] = VAL | UC | EN | ADDRV | DEFER | POISON | 0x9f;
	lx_mce_event(&cpu, 1, &r);
	fate("AMD deferred with UC: signalled, graded DEFERRED, left; not polled", &r, 0, 2,
	     false, false, true, false, LX_SEV_NO);
	check(r.end[0] == LX_END_RECOVER, "AMD deferred beside the UC error: still recovers");
}

/*
 * Intel broadcasts (LMCES clear) on two CPUs, CPU 0 the Monarch. QEMU's "mce -b" puts
 * VAL|UC (EN and S clear) in bank 1 of the other CPUs with MCG_STATUS RIPV|MCIP.
 */
static void scan_broadcast_cases(void)
{
	static struct lx_mce_cpu cpus[2];
	static struct lx_mce_event_result r;
	const uint64_t mcg = RIPV | EIPV | MCIP, other = RIPV | MCIP;

	/* An SRAO on CPU 0 beside a CE; CPU 1 holds QEMU's filler and a CE it latched before. */
	cpus[0] = (struct lx_mce_cpu){ .in = { .mcg_status = mcg, .ser_p = true }, .nbanks = 10 };
	cpus[1] = (struct lx_mce_cpu){ .in = { .mcg_status = other, .ser_p = true },
				       .nbanks = 10 };
	cpus[0].status[1] = SRAO_SCRUB;
	cpus[0].status[3] = CE;
	cpus[1].status[1] = QEMU_BC;
	cpus[1].status[2] = CE;
	lx_mce_event(cpus, 2, &r);
	event_is("broadcast SRAO, CEs latched: goes on", &r, false, NULL, false);
	check(r.end[0] == LX_END_RESUME && r.end[1] == LX_END_IGNORE,
	      "broadcast SRAO: CPU 0 logged and resumes, CPU 1 logged nothing");
	fate("broadcast SRAO: taken", &r, 0, 1, true, true, false, false, LX_SEV_NO);
	fate("broadcast: CPU 0's CE left, polled", &r, 0, 3, false, false, true, true,
	     LX_SEV_KEEP);
	fate("broadcast: QEMU's VAL|UC left (S clear), polled as UCNA (EN clear is logged)", &r, 1,
	     1, false, false, true, true, LX_SEV_UCNA);
	fate("broadcast: CPU 1's CE left, polled", &r, 1, 2, false, false, true, true,
	     LX_SEV_KEEP);

	/* The same with an SRAR at a fixup on CPU 0: it recovers, the rest is the same. */
	cpus[0].in.fixup_mce_safe = true;
	cpus[0].status[1] = SRAR_DATA;
	lx_mce_event(cpus, 2, &r);
	event_is("broadcast SRAR at a fixup: goes on", &r, false, NULL, false);
	check(r.end[0] == LX_END_RECOVER, "broadcast SRAR at a fixup: CPU 0 recovers");
	fate("broadcast SRAR: taken", &r, 0, 1, true, true, false, false, LX_SEV_NO);
	fate("broadcast SRAR: CPU 1's CE left, polled", &r, 1, 2, false, false, true, true,
	     LX_SEV_KEEP);

	/*
	 * A signalled SRAR graded KEEP ("unaffected thread is continuable": RIPV without EIPV)
	 * on CPU 1 is left as well; the poller never logs a signalled UC bank with SER_P, so it
	 * stays there.
	 */
	cpus[1].status[3] = SRAR_DATA;
	lx_mce_event(cpus, 2, &r);
	event_is("broadcast SRAR beside an unaffected-thread SRAR: goes on", &r, false, NULL,
		 false);
	fate("signalled, graded KEEP: left, not polled", &r, 1, 3, false, false, true, false,
	     LX_SEV_NO);
	cpus[1].status[3] = 0;

	/*
	 * PCC in CPU 1's bank 2: global_nwo. Every CPU scans with no way out: everything valid
	 * it reaches is logged (the CE too), nothing is cleared; CPU 1's valid_banks stop at
	 * the PCC bank, so its bank 3 is never scanned. The Monarch's reign panics.
	 */
	cpus[1].status[1] = 0;
	cpus[1].status[2] = VAL | UC | EN | PCC | S | 0x150;
	cpus[1].status[3] = CE;
	lx_mce_event(cpus, 2, &r);
	event_is("broadcast with PCC on CPU 1: global no way out", &r, true, "Fatal machine check",
		 true);
	fate("no way out: CPU 0's SRAR logged, not cleared", &r, 0, 1, true, false, false, false,
	     LX_SEV_NO);
	fate("no way out: CPU 0's CE logged, not cleared", &r, 0, 3, true, false, false, false,
	     LX_SEV_NO);
	fate("no way out: the PCC bank logged, not cleared", &r, 1, 2, true, false, false, false,
	     LX_SEV_NO);
	check(!r.bank[1][3].scanned && !r.bank[1][3].logged && !r.bank[1][3].cleared,
	      "no way out: a bank after the PCC one is not in valid_banks");

	/* Nobody logs anything (a CE only): "unknown source"; the CE was not cleared. */
	cpus[0] = (struct lx_mce_cpu){ .in = { .mcg_status = mcg, .ser_p = true }, .nbanks = 4 };
	cpus[1] = (struct lx_mce_cpu){ .in = { .mcg_status = other, .ser_p = true },
				       .nbanks = 4 };
	cpus[1].status[2] = CE;
	lx_mce_event(cpus, 2, &r);
	event_is("broadcast, a CE only: unknown source", &r, true,
		 "Fatal machine check from unknown source", false);
	fate("unknown source: the CE neither logged nor cleared", &r, 1, 2, false, false, false,
	     false, LX_SEV_NO);
}

int main(void)
{
	static void (*const cases[])(void) = { intel_cases, amd_cases, usable_address_cases,
					       scan_local_cases, scan_broadcast_cases };
	static const char *const names[] = { "intel_cases", "amd_cases", "usable_address_cases",
					     "scan_local_cases", "scan_broadcast_cases" };
	unsigned int n = sizeof(cases) / sizeof(cases[0]), failed = 0;

	printf("KTAP version 1\n1..%u\n", n);
	printf("# oracle self-test: Linux's machine-check grading, handler and scan\n");
	for (unsigned int i = 0; i < n; i++) {
		int before = failures;

		cases[i]();
		printf("%s %u %s\n", failures != before ? "not ok" : "ok", i + 1, names[i]);
		failed += failures != before;
	}
	printf("# oracle self-test: %u cases, %u failed, %d checks\n", n, failed, number);
	return failed ? 1 : 0;
}
