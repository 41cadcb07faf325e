// SPDX-License-Identifier: GPL-2.0-only
/*
 * core.c - what the machine-check code knows and keeps: this CPU's MCA capabilities, the bank
 * register layout, the fixed ring of records the handler fills and the report reads, and each
 * CPU's pointer to its machine-check state (mce_cpu_this(), mce_cpu_of() in core.h).
 */
#include "kernel/include/x86.h"
#include "mce/core.h"
#include "mce/mce.h"
#include "mce/mce_regs.h"

#define MCE_RING	16

static struct mce_caps caps;
static struct mce_record ring[MCE_RING];
static u64 nr_records;
static bool broadcast_capable;

DEFINE_PER_CPU(struct mce_cpu *, mce_cpu_ptr);

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

u64 mce_count(void)
{
	return nr_records;
}

struct mce_record *mce_get_rw(u64 seq)
{
	if (seq >= nr_records || nr_records - seq > MCE_RING)
		return NULL;
	return &ring[seq % MCE_RING];
}

const struct mce_record *mce_get(u64 seq)
{
	return mce_get_rw(seq);
}

const struct mce_record *mce_last(void)
{
	return nr_records ? mce_get(nr_records - 1) : NULL;
}

u32 mce_bank_msr(unsigned int bank, int reg)
{
	if (caps.smca) {
		static const u32 off[] = { 0, 1, 2, 3, 5, 6 };

		return MSR_SMCA_CTL(bank) + off[reg];
	}
	return MSR_MC_CTL(bank) + (u32)reg;
}


struct mce_record *mce_record_new(u64 rip, u64 frame, enum mce_kind kind)
{
	struct mce_record *r = &ring[nr_records % MCE_RING];

	*r = (struct mce_record){ .seq = nr_records, .tsc = rdtsc(), .kind = kind,
				  .rip = rip, .frame = frame, .worst = -1 };
	nr_records++;
	return r;
}

u64 mce_record_commit(const struct mce_record *src)
{
	u64 seq = __atomic_load_n(&nr_records, __ATOMIC_ACQUIRE);
	struct mce_record *r = &ring[seq % MCE_RING];

	*r = *src;
	r->seq = seq;
	__atomic_store_n(&nr_records, seq + 1, __ATOMIC_RELEASE);
	return seq;
}
