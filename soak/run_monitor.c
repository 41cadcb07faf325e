// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_monitor.c - the boot CPU's duties while the soak runs (run_int.h), between its own
 * pieces and, once those are done, until every CPU has finished or been found stuck:
 *
 *   - a progress line every soak_progress= seconds: elapsed, remaining, the slowest CPU's
 *     pass, bytes verified, GB/s per node, errors so far (counters the CPUs publish);
 *   - the watchdog (watch.h): a soaking CPU whose heartbeat has not moved for soak_watchdog=
 *     seconds is sent an NMI; the NMI path (kernel/arch/traps.c) captures where it was, and
 *     the monitor names the CPU with its RIP (as symbol+offset) and stack words. The soak
 *     goes on without it; its memory is not counted as covered;
 *   - the soak_fault= knobs' requests (run_fault.c);
 *   - a line when each CPU's passes end ("soak: CPU 1 done 12.345s into the soak, 1 whole
 *     pass"), as soon as the monitor sees it.
 * (run.c's boot CPU tick adds the black box's checkpoints, run_ckpt.c, after these.)
 *
 * The monitor's findings (stuck CPUs) go into the boot CPU's ledger: it is the only CPU that
 * writes there.
 */
#include "kernel/arch/apic.h"
#include "kernel/arch/traps.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"
#include "kernel/lib/ksyms.h"
#include "soak/run_int.h"

/* The monitor's own state: only the boot CPU touches it. */
static struct {
	struct soak_watch watch[SOAK_MAX_CPUS];
	u64 next_progress_us, last_us, last_bytes[NUMA_MAX_NODES];
	unsigned int nr_stuck;
	u8 stuck[SOAK_MAX_CPUS];
	u8 said_done[SOAK_MAX_CPUS];
} mon;

/* Read by every CPU at its barriers, written by the boot CPU alone. */
bool soak_is_stuck(unsigned int idx)
{
	return __atomic_load_n(&mon.stuck[idx], __ATOMIC_ACQUIRE);
}

unsigned int soak_nr_stuck(void)
{
	return mon.nr_stuck;
}

void soak_monitor_begin(void)
{
	u64 now = smp_now_us();

	for (unsigned int i = 0; i < soak.nr_cpus; i++)
		soak_watch_init(&mon.watch[i], soak_cpu_of(i)->beat, now);
	mon.last_us = now;
	mon.next_progress_us = now + (u64)soak.opts.progress_s * 1000000;
}

static u64 errors_so_far(void)
{
	u64 n = 0;

	for (unsigned int i = 0; i < soak.nr_cpus; i++)
		for (int k = 0; k < NR_SOAK_EV; k++)
			if (k != SOAK_EV_RETIRED_PAGE)
				n += __atomic_load_n(&soak_cpu_of(i)->ledger.count[k],
						     __ATOMIC_RELAXED);
	return n;
}

static void progress(u64 now)
{
	u64 elapsed = now - soak.t0_us, bytes[NUMA_MAX_NODES] = { 0 }, total = 0, dt;
	u32 pass = ~0u;

	for (unsigned int i = 0; i < soak.nr_cpus; i++) {
		struct soak_cpu *sc = soak_cpu_of(i);
		u64 b = sc->bytes_verified;

		bytes[soak.plan.cpu_node[i]] += b;
		total += b;
		if (!mon.stuck[i] && sc->passes < pass)
			pass = sc->passes;
	}
	printk("soak: progress: %llus elapsed, ", (unsigned long long)(elapsed / 1000000));
	if (soak.deadline_us)
		printk("%llus left", (unsigned long long)(soak.deadline_us > now ?
				     (soak.deadline_us - now) / 1000000 : 0));
	else
		printk("pass %u of %u under way", pass == ~0u ? 0 : pass + 1, soak.passes);
	printk(", %llu MiB verified, errors %llu", (unsigned long long)(total >> 20),
	       (unsigned long long)errors_so_far());
	dt = now - mon.last_us ? now - mon.last_us : 1;
	for (unsigned int n = 0; n < soak.plan.nr_nodes; n++) {
		u64 mbs = (bytes[n] - mon.last_bytes[n]) / dt;	/* bytes per us = MB/s */

		if (soak.plan.node[n].pages)
			printk(", node %u %llu.%03llu GB/s", n, (unsigned long long)(mbs / 1000),
			       (unsigned long long)(mbs % 1000));
		mon.last_bytes[n] = bytes[n];
	}
	printk("\n");
	mon.last_us = now;
}

/* CPU @idx went silent: an NMI, then what it captured, then the ledger entry. */
static void name_stuck(unsigned int idx, u64 silent_us)
{
	unsigned int cpu = soak.cpu_of[idx];
	struct nmi_stack st = { 0 };
	char sym[96];
	bool got = false;

	apic_send_nmi(smp_cpu(cpu)->apic_id);
	for (u64 end = smp_now_us() + 1000000; !got && smp_now_us() < end;)
		got = nmi_stack_of(cpu, &st) && st.nr;
	if (got)
		ksym_format(st.rip, sym, sizeof(sym));
	printk("soak: watchdog: CPU %u (APIC id %u) silent for %llu.%03llus: sent an NMI; ", cpu,
	       smp_cpu(cpu)->apic_id, (unsigned long long)(silent_us / 1000000),
	       (unsigned long long)(silent_us / 1000 % 1000));
	if (got) {
		printk("RIP %s RSP 0x%llx RFLAGS 0x%llx, stack:", sym, (unsigned long long)st.rsp,
		       (unsigned long long)st.rflags);
		for (unsigned int w = 0; w < st.nr_words && w < NMI_STACK_WORDS; w++)
			printk(" %llx", (unsigned long long)st.word[w]);
		printk("\n");
	} else {
		printk("no answer to the NMI within 1 s: where it is stays unknown\n");
	}
	printk("soak: watchdog: the soak goes on without CPU %u; its memory is not counted as "
	       "covered\n", cpu);
	soak_ledger_stuck(&this_cpu_ptr(&soak_cpu)->ledger, soak_elapsed_ns(), (u16)cpu,
			  soak.plan.cpu_node[idx], got ? st.rip : 0);
	__atomic_store_n(&mon.stuck[idx], 1, __ATOMIC_RELEASE);
	mon.nr_stuck++;
}

/* CPU @idx's passes ended (its last poll made): said once, when the monitor sees it. */
static void say_done(unsigned int idx)
{
	struct soak_cpu *sc = soak_cpu_of(idx);

	if (mon.said_done[idx] || !__atomic_load_n(&sc->done, __ATOMIC_ACQUIRE))
		return;
	mon.said_done[idx] = 1;
	printk("soak: CPU %u done %llu.%03llus into the soak, %u whole pass%s\n", soak.cpu_of[idx],
	       (unsigned long long)(sc->done_ns / 1000000000ULL),
	       (unsigned long long)(sc->done_ns / 1000000 % 1000), sc->passes,
	       sc->passes == 1 ? "" : "es");
}

void soak_monitor_tick(void)
{
	u64 now = smp_now_us(), limit = (u64)soak.opts.watchdog_s * 1000000;

	soak_fault_serve();
	for (unsigned int i = 1; i < soak.nr_cpus; i++) {
		struct soak_cpu *sc = soak_cpu_of(i);

		if (soak_watch_judge(&mon.watch[i], sc->beat,
				     __atomic_load_n(&sc->done, __ATOMIC_ACQUIRE), now, limit))
			name_stuck(i, mon.watch[i].silent_us);
		say_done(i);
	}
	if (now >= mon.next_progress_us) {
		progress(now);
		mon.next_progress_us = now + (u64)soak.opts.progress_s * 1000000;
	}
}

/* After the boot CPU's own passes: @tick until every other CPU is done or stuck. */
void soak_monitor_finish(void (*tick)(void))
{
	say_done(0);
	for (;;) {
		bool all = true;

		for (unsigned int i = 1; i < soak.nr_cpus; i++)
			all &= mon.stuck[i] ||
			       __atomic_load_n(&soak_cpu_of(i)->done, __ATOMIC_ACQUIRE);
		if (all)
			break;
		tick();
		for (int k = 0; k < 1000; k++)
			cpu_relax();
	}
	for (unsigned int i = 1; i < soak.nr_cpus; i++)
		say_done(i);
}
