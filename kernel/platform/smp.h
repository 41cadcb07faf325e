/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * smp.h - every CPU under the kernel's control: starting the application processors the
 * MADT lists (INIT-SIPI-SIPI through a trampoline below 1 MiB, kernel/arch/trampoline.asm),
 * and running functions on them.
 *
 * CPUs are numbered 0 (the boot CPU) to smp_nr_cpus() - 1 in MADT order; a number stays
 * with its CPU whether it started or not. An idle AP halts with interrupts enabled only
 * inside "sti; hlt"; on_cpu() fills its work slot and wakes it with an IPI. Every wait is
 * bounded by a timeout in milliseconds and returns -ETIMEDOUT naming no one: the caller
 * reports (it knows what the CPU was asked to do).
 *
 * An AP reloads CR3 before each function it runs (the kernel changes the identity map's
 * attributes only while APs are idle, so that is its whole TLB shootdown); the test address
 * space (kernel/arch/paging.h) has a shootdown by IPI with acknowledgements,
 * smp_flush_tlb_range(). The panic path stops every online AP with an NMI before the report
 * is stored.
 */
#ifndef CK_SMP_H
#define CK_SMP_H

#include "kernel/arch/apic.h"
#include "kernel/arch/percpu.h"
#include "kernel/include/boot_info.h"

#define SMP_DEFAULT_TIMEOUT_MS	1000
#define ETIMEDOUT	110
#define EBUSY		16
#define ENODEV		19

struct smp_info {
	unsigned int nr_listed;		/* MADT processor entries kept (enabled + online-capable) */
	unsigned int nr_cpus;		/* numbered CPUs: enabled ones, up to smp= */
	unsigned int nr_online;		/* boot CPU included */
	unsigned int nr_failed, nr_not_enabled, nr_beyond_limit;
	unsigned int nr_unusable;	/* MADT entries neither enabled nor online-capable */
	u64 start_us;			/* starting all APs, first INIT to last check-in */
	u64 tramp;			/* physical address of the trampoline page, 0 if none */
	enum apic_mode mode;
	bool switched_x2apic;		/* the boot CPU was moved to x2APIC for ids above 254 */
	const char *single_why;		/* why the run stays on the boot CPU, or NULL */
};

/* What the platform knows of each numbered CPU besides its struct percpu (arch's part). */
struct smp_cpu_info {
	int node;			/* NUMA node (0 without a SRAT) */
	const char *fail_step;		/* why it did not start, or NULL */
	u32 fail_esr;			/* the APIC error status then */
	u64 start_us;			/* from its first SIPI to its check-in */
};

/* Start the APs: at most @max_cpus CPUs in all (0: every enabled one). */
void smp_init(const struct boot_info *bi, unsigned int max_cpus, u32 timeout_ms);
const struct smp_info *smp_info(void);
unsigned int smp_nr_cpus(void);
unsigned int smp_nr_online(void);
/* CPU @cpu's percpu, or NULL when @cpu is not numbered. */
struct percpu *smp_cpu(unsigned int cpu);
/* CPU @cpu's platform state, or NULL when @cpu is not numbered. */
const struct smp_cpu_info *smp_cpu_info(unsigned int cpu);
/* CPU @cpu's NUMA node; 0 when @cpu is not numbered. */
int smp_cpu_node(unsigned int cpu);
static inline bool cpu_online(unsigned int cpu)
{
	struct percpu *pc = smp_cpu(cpu);

	return pc && pc->state == CPU_ONLINE;
}
/* @pa is one of the unmapped guard pages below an AP's stacks (4 per AP). */
bool smp_is_guard_page(u64 pa);
/* Print one line per CPU that did not start, and the totals. */
void smp_report(void);

/* Post @fn(@arg) to @cpu (online, idle) and wake it; -ENODEV offline, -EBUSY still working. */
int on_cpu_async(unsigned int cpu, void (*fn)(void *arg), void *arg);
/* Wait for @cpu's last posted function, running any posted to this CPU; 0 or -ETIMEDOUT. */
int on_cpu_wait(unsigned int cpu, u32 timeout_ms);
/* Run @fn(@arg) on @cpu and wait (on this CPU it is a plain call). */
int on_cpu(unsigned int cpu, void (*fn)(void *arg), void *arg, u32 timeout_ms);
/*
 * Run @fn(@arg) on every online CPU, this one included, and wait for all. Returns the
 * number of CPUs that did not finish in time (their work slot stays behind).
 */
unsigned int on_each_cpu(void (*fn)(void *arg), void *arg, u32 timeout_ms);

/* A reusable barrier for @n CPUs (sense-reversing). */
struct smp_barrier {
	unsigned int n;
	volatile unsigned int count;
	volatile unsigned int gen;
};
void smp_barrier_init(struct smp_barrier *b, unsigned int n);
/* 0 when all @n arrived; -ETIMEDOUT otherwise (the barrier is then unusable). */
int smp_barrier_wait(struct smp_barrier *b, u32 timeout_ms);

/*
 * Do the online CPUs' TSCs run as one clock? Every CPU reads its TSC @loops times, in turn
 * under a lock; a read smaller than the previous one (from any CPU) is a warp. Returns 0
 * with the count and the largest warp in TSC ticks, or -ETIMEDOUT.
 */
int smp_tsc_warp(u32 loops, u64 *warps, u64 *max_warp_ticks);

/*
 * TLB shootdown by IPI (kernel/platform/smp_tlb.c): every other online CPU invalidates
 * [@start, @start + @size) with invlpg every @stride bytes (a full flush beyond 33 entries
 * or when @stride is 0) and acknowledges; this CPU does the same, then waits up to
 * @timeout_us for all. The CPUs that did not acknowledge are named in @r (the first
 * SMP_TLB_MAX_NAMED). Returns 0, or -ETIMEDOUT when one did not.
 */
#define SMP_TLB_MAX_NAMED	8
struct smp_tlb_result {
	unsigned int sent;		/* IPIs sent */
	unsigned int acked;		/* CPUs that invalidated, this one included */
	unsigned int nr_missing;
	unsigned int missing[SMP_TLB_MAX_NAMED];
};
int smp_flush_tlb_range(u64 start, u64 size, u64 stride, u32 timeout_us,
			struct smp_tlb_result *r);
/*
 * The same, asking only the @nr CPUs of @cpus (this one among them or not: it flushes and
 * counts itself either way); a listed CPU that is offline or busy counts as missing.
 */
int smp_flush_tlb_cpus(const unsigned int *cpus, unsigned int nr, u64 start, u64 size,
		       u64 stride, u32 timeout_us, struct smp_tlb_result *r);
/*
 * Inside a posted function that waits (a loop polling for its next command): take a pending
 * shootdown IPI now. Outside it a posted function runs with interrupts off.
 */
void smp_tlb_window(void);

/* Microseconds since boot from the TSC (0 before it is calibrated). */
u64 smp_now_us(void);

#endif
