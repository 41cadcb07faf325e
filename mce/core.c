// SPDX-License-Identifier: GPL-2.0-only
/*
 * core.c - what the machine-check code knows and keeps: this CPU's MCA capabilities, the bank
 * register layout, where each CPU's machine-check state lives, and the fixed ring of records
 * the handlers fill and the report reads.
 */
#include "kernel/arch/percpu.h"
#include "kernel/include/x86.h"
#include "kernel/platform/smp.h"
#include "mce/core.h"
#include "mce/mce.h"
#include "mce/mce_regs.h"

static struct mce_caps caps;
static bool broadcast_capable;

void mce_broadcast_set(bool capable)
{
	broadcast_capable = capable;
}

bool mce_broadcast_capable(void)
{
	return broadcast_capable;
}

void mce_caps_set(const struct mce_caps *c)
{
	caps = *c;
}

const struct mce_caps *mce_caps(void)
{
	return &caps;
}

bool mce_can_recover(void)
{
	return caps.enabled && (caps.amd ? caps.succor : caps.ser_p);
}

u32 mce_bank_msr(unsigned int bank, int reg)
{
	if (caps.smca) {
		static const u32 off[] = { 0, 1, 2, 3, 5, 6 };

		return MSR_SMCA_CTL(bank) + off[reg];
	}
	return MSR_MC_CTL(bank) + (u32)reg;
}

/* ---- each CPU's state: these three bodies are all that know where it is kept ---- */

/* The per-CPU section (kernel/arch/percpu.h): each CPU's own copy of the pointer. */
static DEFINE_PER_CPU(struct mce_cpu *, mce_cpu_ptr);

struct mce_cpu *mce_cpu_this(void)
{
	return *this_cpu_ptr(&mce_cpu_ptr);
}

struct mce_cpu *mce_cpu_of(unsigned int cpu)
{
	return smp_cpu(cpu) ? *per_cpu_ptr(&mce_cpu_ptr, cpu) : NULL;
}

int mce_cpu_amd_node(unsigned int cpu)
{
	const struct mce_cpu *mc = mce_cpu_of(cpu);

	return mc && mc->facts.started ? mc->facts.amd_node : -1;
}

void mce_cpu_attach(unsigned int cpu, struct mce_cpu *mc)
{
	if (smp_cpu(cpu))
		*per_cpu_ptr(&mce_cpu_ptr, cpu) = mc;
}

struct mce_sim *mce_sim_this(void)
{
	struct mce_cpu *mc = mce_cpu_this();

	return mc ? &mc->sim : NULL;
}

void mce_sim_route(bool on)
{
	struct mce_cpu *mc = mce_cpu_this();

	if (mc)
		mc->backend = on ? &mc->sim : NULL;
}

/*
 * ---- the record ring ----
 *
 * A writer takes the next sequence number with one atomic add, copies its record into the
 * slot and then stamps the slot with seq + 1 (release). The count readers see (ring_done)
 * only moves over slots already stamped, one at a time and in order, and any writer moves it
 * as far as it can: a slow writer holds back the count, never another writer, and nobody
 * waits for anybody unless the ring wrapped onto a slot still being filled. Stamps only grow,
 * so "stamp > seq" says record seq was whole once (it may have been overwritten since).
 */
#define MCE_RING	16
/* How long a writer waits for the slot's previous record to be whole (a stuck writer). */
#define MCE_SLOT_SPINS	100000000UL

struct mce_slot {
	struct mce_record rec;
	u64 stamp;		/* seq + 1 of the record held, once whole; 0: never used */
};

static struct mce_slot ring[MCE_RING];
static u64 ring_next;		/* the next sequence number to hand out */
static u64 ring_done;		/* records 0 .. ring_done - 1 are whole: mce_count() */

static void ring_publish(void)
{
	u64 done = __atomic_load_n(&ring_done, __ATOMIC_ACQUIRE);

	while (done < __atomic_load_n(&ring_next, __ATOMIC_ACQUIRE) &&
	       __atomic_load_n(&ring[done % MCE_RING].stamp, __ATOMIC_ACQUIRE) > done) {
		/* On failure @done is reloaded: someone else moved it; look again from there. */
		if (__atomic_compare_exchange_n(&ring_done, &done, done + 1, false,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			done++;
	}
}

u64 mce_record_commit(struct mce_record *r)
{
	u64 seq = __atomic_fetch_add(&ring_next, 1, __ATOMIC_ACQ_REL);
	struct mce_slot *s = &ring[seq % MCE_RING];
	unsigned long spins = MCE_SLOT_SPINS;

	/*
	 * Sixteen records in flight at once: the slot's last one may still be copied in. Only
	 * a writer that stopped (the machine is stopping) holds it longer than a copy takes.
	 */
	while (seq >= MCE_RING && __atomic_load_n(&s->stamp, __ATOMIC_ACQUIRE) <=
	       seq - MCE_RING && spins--)
		cpu_relax();
	r->seq = seq;
	s->rec = *r;
	__atomic_store_n(&s->stamp, seq + 1, __ATOMIC_RELEASE);
	ring_publish();
	return seq;
}

u64 mce_count(void)
{
	return __atomic_load_n(&ring_done, __ATOMIC_ACQUIRE);
}

const struct mce_record *mce_get(u64 seq)
{
	const struct mce_slot *s = &ring[seq % MCE_RING];

	if (seq >= mce_count() || __atomic_load_n(&s->stamp, __ATOMIC_ACQUIRE) != seq + 1)
		return NULL;		/* not yet counted, or overwritten by a later record */
	return &s->rec;
}

const struct mce_record *mce_last(void)
{
	u64 n = mce_count();

	return n ? mce_get(n - 1) : NULL;
}
