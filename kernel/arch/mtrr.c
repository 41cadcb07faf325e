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
#include "kernel/include/page_types.h"

/* The fixed ranges (SDM vol. 3, "Fixed Range MTRRs"): eight 64 KiB, sixteen 16 KiB, 64 4 KiB. */
#define FIX64K_END	0x80000ULL
#define FIX16K_END	0xc0000ULL
#define FIX_END		0x100000ULL
#define FIX64K_SHIFT	16
#define FIX16K_SHIFT	14
#define FIX4K_SHIFT	12
#define FIX16K_FIRST	8	/* index of the first 16 KiB range in mtrr_state.fixed[] */
#define FIX4K_FIRST	24
#define NO_TYPE		0xff	/* no variable range matched yet */

static u8 fixed_type(const struct mtrr_state *s, u64 a)
{
	if (a < FIX64K_END)
		return s->fixed[a >> FIX64K_SHIFT];
	if (a < FIX16K_END)
		return s->fixed[FIX16K_FIRST + ((a - FIX64K_END) >> FIX16K_SHIFT)];
	return s->fixed[FIX4K_FIRST + ((a - FIX16K_END) >> FIX4K_SHIFT)];
}

static u8 point_type(const struct mtrr_state *s, u64 a)
{
	u8 t = NO_TYPE;

	if (s->fixed_enabled && a < FIX_END)
		return fixed_type(s, a);
	for (unsigned int i = 0; i < s->nr_var; i++) {
		u8 v;

		if (!s->var[i].valid || (a & s->var[i].mask) != (s->var[i].base & s->var[i].mask))
			continue;
		v = s->var[i].type;
		if (t == NO_TYPE || t == v)
			t = v;
		else if (t == MTRR_UC || v == MTRR_UC)
			t = MTRR_UC;
		else if ((t == MTRR_WT && v == MTRR_WB) || (t == MTRR_WB && v == MTRR_WT))
			t = MTRR_WT;
		else
			return MTRR_MIXED;
	}
	return t == NO_TYPE ? s->def_type : t;
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
	if (s->fixed_enabled && start < FIX_END) {
		for (u64 a = (start & PAGE_MASK) + PAGE_SIZE; a < end && a <= FIX_END; a += PAGE_SIZE)
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
#include "kernel/arch/cpuid.h"
#include "kernel/include/x86.h"

static struct mtrr_state state;
static bool state_read;

static void put_fixed(unsigned int idx, u64 v)
{
	for (int i = 0; i < 8; i++)
		state.fixed[idx + i] = (u8)(v >> (8 * i));
}

static void read_fixed(void)
{
	u64 v;

	rdmsr_safe(MSR_MTRR_FIX64K_00000, &v);
	put_fixed(0, v);
	rdmsr_safe(MSR_MTRR_FIX16K_80000, &v);
	put_fixed(FIX16K_FIRST, v);
	rdmsr_safe(MSR_MTRR_FIX16K_A0000, &v);
	put_fixed(FIX16K_FIRST + 8, v);
	for (unsigned int i = 0; i < 8; i++) {
		rdmsr_safe(MSR_MTRR_FIX4K_C0000 + i, &v);
		put_fixed(FIX4K_FIRST + 8 * i, v);
	}
}

const struct mtrr_state *mtrr_read(void)
{
	u64 cap, def;

	if (state_read)
		return &state;
	state_read = true;
	state.phys_mask = cpuid_phys_mask(cpu_phys_bits());
	if (!cpu_has(X86_FEATURE_MTRR) || rdmsr_safe(MSR_MTRRcap, &cap) ||
	    rdmsr_safe(MSR_MTRRdefType, &def))
		return &state;
	state.present = true;
	state.enabled = def & MTRR_DEF_E;
	state.fixed_enabled = (def & MTRR_DEF_FE) && (cap & MTRRCAP_FIX);
	state.def_type = (u8)(def & MTRR_DEF_TYPE_MASK);
	state.nr_var = MIN((unsigned int)(cap & MTRRCAP_VCNT_MASK), (unsigned int)MTRR_MAX_VAR);
	if (state.fixed_enabled)
		read_fixed();
	for (unsigned int i = 0; i < state.nr_var; i++) {
		u64 base = 0, mask = 0;

		rdmsr_safe(MSR_MTRR_PHYSBASE(i), &base);
		rdmsr_safe(MSR_MTRR_PHYSMASK(i), &mask);
		state.var[i].valid = mask & MTRR_PHYSMASK_VALID;
		state.var[i].type = (u8)(base & MTRR_PHYSBASE_TYPE_MASK);
		state.var[i].base = base & state.phys_mask & PAGE_MASK;
		state.var[i].mask = mask & state.phys_mask & PAGE_MASK;
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
