// SPDX-License-Identifier: GPL-2.0-only
/*
 * mtrr.c - read the MTRRs and answer "which memory type is this range" (see mtrr.h).
 *
 * The type of one address: below 1 MiB with fixed ranges enabled, the fixed range's; else
 * the variable ranges that match ((addr & mask) == (base & mask)): none gives the default
 * type, one gives its type, several give UC if any is UC, WT if they are WT and WB, and
 * otherwise an undefined combination (reported as MIXED, never used for a large page).
 * A range is uniform when every address in it has the same type; only the points where a
 * fixed or variable range starts or ends can change it, so those are the points checked.
 */
#include "kernel/arch/mtrr.h"

static u8 fixed_type(const struct mtrr_state *s, u64 a)
{
	if (a < 0x80000)
		return s->fixed[a >> 16];
	if (a < 0xc0000)
		return s->fixed[8 + ((a - 0x80000) >> 14)];
	return s->fixed[24 + ((a - 0xc0000) >> 12)];
}

static u8 point_type(const struct mtrr_state *s, u64 a)
{
	u8 t = 0xff;

	if (s->fixed_enabled && a < 0x100000)
		return fixed_type(s, a);
	for (unsigned int i = 0; i < s->nr_var; i++) {
		u8 v;

		if (!s->var[i].valid || (a & s->var[i].mask) != (s->var[i].base & s->var[i].mask))
			continue;
		v = s->var[i].type;
		if (t == 0xff || t == v)
			t = v;
		else if (t == MTRR_UC || v == MTRR_UC)
			t = MTRR_UC;
		else if ((t == MTRR_WT && v == MTRR_WB) || (t == MTRR_WB && v == MTRR_WT))
			t = MTRR_WT;
		else
			return MTRR_MIXED;
	}
	return t == 0xff ? s->def_type : t;
}

/* Whether variable range @i's mask is contiguous (ones then zeros): a single region. */
static bool contiguous(const struct mtrr_state *s, unsigned int i, u64 *lo, u64 *hi)
{
	u64 m = s->var[i].mask & s->phys_mask, size = (~m & s->phys_mask) + 1;

	if (size & (size - 1) || (m | (size - 1)) != s->phys_mask)
		return false;
	*lo = s->var[i].base & m;
	*hi = *lo + size;
	return true;
}

u8 mtrr_range_type(const struct mtrr_state *s, u64 start, u64 end)
{
	u8 t;

	if (!s->present || !s->enabled)
		return MTRR_NONE;
	if (end <= start)
		return point_type(s, start);
	t = point_type(s, start);
	/* Fixed ranges: every 4 KiB boundary below 1 MiB that the range crosses. */
	if (s->fixed_enabled && start < 0x100000) {
		for (u64 a = (start & ~0xfffULL) + 0x1000; a < end && a <= 0x100000; a += 0x1000)
			if (point_type(s, a) != t)
				return MTRR_MIXED;
	}
	for (unsigned int i = 0; i < s->nr_var; i++) {
		u64 lo, hi;

		if (!s->var[i].valid)
			continue;
		if (!contiguous(s, i, &lo, &hi)) {
			/* A scattered region: mixed unless it misses the range or agrees. */
			if (s->var[i].type != t)
				return MTRR_MIXED;
			continue;
		}
		if (lo > start && lo < end && point_type(s, lo) != t)
			return MTRR_MIXED;
		if (hi > start && hi < end && point_type(s, hi) != t)
			return MTRR_MIXED;
	}
	return t;
}

const char *mtrr_type_name(u8 type)
{
	switch (type) {
	case MTRR_UC:		return "UC";
	case MTRR_WC:		return "WC";
	case MTRR_WT:		return "WT";
	case MTRR_WP:		return "WP";
	case MTRR_WB:		return "WB";
	case MTRR_MIXED:	return "mixed";
	case MTRR_NONE:		return "none (MTRRs off)";
	}
	return "reserved";
}

#ifdef CK_KERNEL
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"

#define MSR_MTRRCAP		0xfe
#define MSR_MTRR_DEF_TYPE	0x2ff
#define MSR_MTRR_PHYSBASE(n)	(0x200 + 2 * (n))
#define MSR_MTRR_PHYSMASK(n)	(0x201 + 2 * (n))
#define MSR_MTRR_FIX64K		0x250
#define MSR_MTRR_FIX16K_80000	0x258
#define MSR_MTRR_FIX16K_A0000	0x259
#define MSR_MTRR_FIX4K_C0000	0x268

static struct mtrr_state state;
static bool state_read;

static void put_fixed(unsigned int idx, u64 v)
{
	for (int i = 0; i < 8; i++)
		state.fixed[idx + i] = (u8)(v >> (8 * i));
}

const struct mtrr_state *mtrr_read(void)
{
	struct cpuid_regs r = cpuid(0x80000000);
	u64 cap, def, v;

	if (state_read)
		return &state;
	state_read = true;
	state.phys_mask = (1ULL << 36) - 1;
	if (r.eax >= 0x80000008)
		state.phys_mask = (1ULL << (cpuid(0x80000008).eax & 0xff)) - 1;
	if (!(cpuid(1).edx & BIT(12)) || rdmsr_safe(MSR_MTRRCAP, &cap) ||
	    rdmsr_safe(MSR_MTRR_DEF_TYPE, &def))
		return &state;
	state.present = true;
	state.enabled = def & BIT(11);
	state.fixed_enabled = (def & BIT(10)) && (cap & BIT(8));
	state.def_type = (u8)(def & 0xff);
	state.nr_var = MIN((unsigned int)(cap & 0xff), (unsigned int)MTRR_MAX_VAR);
	if (state.fixed_enabled) {
		rdmsr_safe(MSR_MTRR_FIX64K, &v);
		put_fixed(0, v);
		rdmsr_safe(MSR_MTRR_FIX16K_80000, &v);
		put_fixed(8, v);
		rdmsr_safe(MSR_MTRR_FIX16K_A0000, &v);
		put_fixed(16, v);
		for (unsigned int i = 0; i < 8; i++) {
			rdmsr_safe(MSR_MTRR_FIX4K_C0000 + i, &v);
			put_fixed(24 + 8 * i, v);
		}
	}
	for (unsigned int i = 0; i < state.nr_var; i++) {
		u64 base = 0, mask = 0;

		rdmsr_safe(MSR_MTRR_PHYSBASE(i), &base);
		rdmsr_safe(MSR_MTRR_PHYSMASK(i), &mask);
		state.var[i].valid = mask & BIT(11);
		state.var[i].type = (u8)(base & 0xff);
		state.var[i].base = base & state.phys_mask & ~0xfffULL;
		state.var[i].mask = mask & state.phys_mask & ~0xfffULL;
	}
	return &state;
}

void mtrr_report(void)
{
	const struct mtrr_state *s = mtrr_read();
	unsigned int used = 0;

	if (!s->present) {
		printk("MTRR: none on this CPU: memory types come from the page tables alone\n");
		return;
	}
	for (unsigned int i = 0; i < s->nr_var; i++)
		used += s->var[i].valid;
	printk("MTRR: %s, default %s, fixed ranges %s, %u of %u variable ranges in use\n",
	       s->enabled ? "enabled" : "DISABLED (everything UC)", mtrr_type_name(s->def_type),
	       s->fixed_enabled ? "on" : "off", used, s->nr_var);
	for (unsigned int i = 0; i < s->nr_var; i++) {
		u64 size = (~s->var[i].mask & s->phys_mask) + 1;

		if (s->var[i].valid)
			printk("MTRR:   var %u: base 0x%llx mask 0x%llx (%llu MiB) %s\n", i,
			       (unsigned long long)s->var[i].base,
			       (unsigned long long)s->var[i].mask,
			       (unsigned long long)size >> 20, mtrr_type_name(s->var[i].type));
	}
}
#endif
