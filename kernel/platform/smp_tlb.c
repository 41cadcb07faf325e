// SPDX-License-Identifier: GPL-2.0-only
/*
 * smp_tlb.c - the TLB shootdown: the initiator names a range in each other online CPU's
 * TLB slot, sends it VECTOR_TLB, invalidates its own TLB and waits, bounded, for every
 * CPU's acknowledgement. The interrupt reaches an AP where it takes interrupts: halted in
 * its idle loop, or in smp_tlb_window() inside a posted function (a worker that waits for
 * its next command). What Linux's flush_tlb_mm_range() does with its call-function IPI.
 *
 * The slot is per CPU: the initiator writes start, size and stride, then bumps seq; the
 * CPU invalidates and sets ack to seq. A CPU whose slot still holds an unacknowledged
 * request is not asked again: it counts as missing. smp_flush_tlb_range() asks every other
 * online CPU, smp_flush_tlb_cpus() those its caller lists (the CPUs that used the range, as
 * Linux asks mm_cpumask()).
 */
#include "kernel/arch/apic.h"
#include "kernel/arch/traps.h"
#include "kernel/include/x86.h"
#include "kernel/platform/madt.h"
#include "kernel/platform/smp.h"

struct smp_tlb {
	volatile u64 seq, ack;
	u64 start, size, stride;
};

static DEFINE_PER_CPU(struct smp_tlb, smp_tlb);

/* Linux's tlb_single_page_flush_ceiling: beyond 33 entries one CR3 reload is cheaper. */
#define TLB_FLUSH_CEILING	33

static void flush_local(u64 start, u64 size, u64 stride)
{
	if (!stride || size / stride > TLB_FLUSH_CEILING) {
		write_cr3(read_cr3());
		return;
	}
	for (u64 off = 0; off < size; off += stride)
		invlpg(start + off);
}

static void tlb_ipi(void)
{
	struct smp_tlb *t = this_cpu_ptr(&smp_tlb);
	u64 seq = __atomic_load_n(&t->seq, __ATOMIC_ACQUIRE);

	if (seq != t->ack) {
		flush_local(t->start, t->size, t->stride);
		__atomic_store_n(&t->ack, seq, __ATOMIC_RELEASE);
	}
	apic_eoi();
}

void smp_tlb_window(void)
{
	/*
	 * STI's shadow covers PAUSE; a pending IPI is taken after it or after the jump. The
	 * jump matters under QEMU TCG, which looks for interrupts only between translated
	 * blocks: without it "sti; pause; cli" is one block and the window never opens.
	 */
	__asm__ volatile("sti; pause; jmp 1f; 1: cli" ::: "memory");
}

static void note_missing(struct smp_tlb_result *r, unsigned int cpu)
{
	if (r->nr_missing < SMP_TLB_MAX_NAMED)
		r->missing[r->nr_missing] = cpu;
	r->nr_missing++;
}

/* Post the request to @cpu and send the IPI; false when its last one is not acknowledged. */
static bool post(unsigned int cpu, u64 start, u64 size, u64 stride)
{
	struct smp_tlb *t = per_cpu_ptr(&smp_tlb, cpu);

	if (__atomic_load_n(&t->ack, __ATOMIC_ACQUIRE) != t->seq)
		return false;
	t->start = start;
	t->size = size;
	t->stride = stride;
	__atomic_store_n(&t->seq, t->seq + 1, __ATOMIC_RELEASE);
	apic_send_ipi(smp_cpu(cpu)->apic_id, VECTOR_TLB);
	return true;
}

static bool acked(unsigned int cpu)
{
	const struct smp_tlb *t = per_cpu_ptr(&smp_tlb, cpu);

	return __atomic_load_n(&t->ack, __ATOMIC_ACQUIRE) == t->seq;
}

/* Post to every CPU @want names (not this one), flush here, wait for their acknowledgements. */
static int flush_wanted(const bool *want, u64 start, u64 size, u64 stride, u32 timeout_us,
			struct smp_tlb_result *r)
{
	unsigned int n = smp_nr_cpus();
	static bool asked[MADT_MAX_CPUS];
	u64 end;

	*r = (struct smp_tlb_result){ 0 };
	irq_set_tlb_handler(tlb_ipi);
	for (unsigned int c = 0; c < n; c++) {
		asked[c] = want[c] && cpu_online(c) && post(c, start, size, stride);
		if (asked[c])
			r->sent++;
		else if (want[c])
			note_missing(r, c);
	}
	flush_local(start, size, stride);
	r->acked = 1;		/* this CPU, by the flush above */
	end = smp_now_us() + timeout_us;
	for (unsigned int c = 0; c < n; c++) {
		if (!asked[c])
			continue;
		while (!acked(c) && smp_now_us() <= end)
			cpu_relax();
		if (acked(c))
			r->acked++;
		else
			note_missing(r, c);
	}
	return r->nr_missing ? -ETIMEDOUT : 0;
}

/* Which CPUs a shootdown asks: the initiator's alone, as flush_wanted() is. */
static bool want[MADT_MAX_CPUS];

int smp_flush_tlb_range(u64 start, u64 size, u64 stride, u32 timeout_us,
			struct smp_tlb_result *r)
{
	unsigned int self = smp_processor_id();

	for (unsigned int c = 0; c < smp_nr_cpus(); c++)
		want[c] = c != self && cpu_online(c);
	return flush_wanted(want, start, size, stride, timeout_us, r);
}

int smp_flush_tlb_cpus(const unsigned int *cpus, unsigned int nr, u64 start, u64 size,
		       u64 stride, u32 timeout_us, struct smp_tlb_result *r)
{
	unsigned int self = smp_processor_id();

	for (unsigned int c = 0; c < smp_nr_cpus(); c++)
		want[c] = false;
	for (unsigned int i = 0; i < nr; i++)
		if (cpus[i] < smp_nr_cpus() && cpus[i] != self)
			want[cpus[i]] = true;
	return flush_wanted(want, start, size, stride, timeout_us, r);
}
