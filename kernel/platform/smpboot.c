// SPDX-License-Identifier: GPL-2.0-only
/*
 * smpboot.c - start the application processors (see smp.h); smp.c runs them.
 *
 * Bring-up, in four stages, each of which may keep the run on the boot CPU with one
 * reason: discover (the local APIC and the MADT's processors, kernel/platform/madt.c), plan
 * (number the CPUs; the boot CPU's APIC mode: x2APIC when an id above 254 must be reached
 * and the CPU can), prepare (a trampoline page below 1 MiB taken from free RAM of the
 * firmware map, never handed to the allocator, which starts at 1 MiB; one block per AP,
 * kernel/platform/smp_block.c) and start (INIT to every AP, then INIT-SIPI-SIPI's two SIPIs
 * to one CPU at a time, kernel/arch/apic_start.c, and a bounded wait for it to check in).
 * A CPU that misses its timeout is marked failed; if it wakes later it finds itself failed
 * and parks.
 */
#include "kernel/arch/apic.h"
#include "kernel/arch/bootmem.h"
#include "kernel/arch/desc.h"
#include "kernel/arch/exit.h"
#include "kernel/arch/fpu.h"
#include "kernel/arch/memmap.h"
#include "kernel/arch/paging.h"
#include "kernel/arch/trampoline.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"
#include "kernel/lib/string.h"
#include "kernel/platform/acpi.h"
#include "kernel/platform/cpu.h"
#include "kernel/platform/madt.h"
#include "kernel/platform/numa.h"
#include "kernel/platform/smp.h"
#include "kernel/platform/smp_internal.h"
#include "kernel/platform/tsc.h"


_Static_assert(NR_CPUS == MADT_MAX_CPUS, "the CPU table holds every CPU the MADT may list");

static struct madt_info madt;
static struct tramp_slot slots[MADT_MAX_CPUS];	/* slot i: CPU i, the boot CPU's claimed */
static unsigned int nr_numbered;
static struct tramp_params *tramp;	/* in the copy below 1 MiB */
static u64 bsp_cr4;

__noreturn void smp_ap_entry(struct percpu *pc);

/* ---- the AP side ------------------------------------------------------------------- */

static __noreturn void park(struct percpu *pc, u32 state)
{
	__atomic_store_n(&pc->state, state, __ATOMIC_RELEASE);
	halt_forever();
}

__noreturn void smp_ap_entry(struct percpu *pc)
{
	u32 expect = CPU_STARTING;

	gdt_load_cpu(pc);
	idt_load();
	write_cr4(bsp_cr4);
	wrmsr(MSR_IA32_PAT, PAT_LINUX);
	fpu_init_ap();
	apic_ap_mode();
	apic_cpu_setup(false);
	if (!__atomic_compare_exchange_n(&pc->state, &expect, CPU_ONLINE, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		park(pc, CPU_LATE);	/* given up on already: stay out of the way */

	smp_ap_idle(pc);
}

/* ---- bring-up ---------------------------------------------------------------------- */

/* The start sequence's ops on the real local APIC; AP i of apic_start_aps() is CPU i + 1. */
static void op_icr_write(void *ctx, u32 dest, u32 low)
{
	apic_icr_write(dest, low);
}

static bool op_icr_busy(void *ctx)
{
	return apic_icr_busy();
}

static u32 op_esr_read(void *ctx)
{
	return apic_esr();
}

static void op_udelay(void *ctx, u32 us)
{
	smp_udelay(us);
}

static u64 op_now_us(void *ctx)
{
	return smp_now_us();
}

static void op_sipi_begin(void *ctx, unsigned int i)
{
	__atomic_store_n(&percpu_of(i + 1)->state, CPU_STARTING, __ATOMIC_RELEASE);
}

static bool op_answered(void *ctx, unsigned int i)
{
	return __atomic_load_n(&percpu_of(i + 1)->state, __ATOMIC_ACQUIRE) == CPU_ONLINE;
}

/* Mark it failed unless it checked in meanwhile: if it wakes later, it parks itself. */
static bool op_give_up(void *ctx, unsigned int i)
{
	u32 expect = CPU_STARTING;

	return __atomic_compare_exchange_n(&percpu_of(i + 1)->state, &expect, CPU_FAILED, false,
					   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

static const struct apic_start_ops start_ops = {
	.icr_write = op_icr_write, .icr_busy = op_icr_busy, .esr_read = op_esr_read,
	.udelay = op_udelay, .now_us = op_now_us, .sipi_begin = op_sipi_begin,
	.answered = op_answered, .give_up = op_give_up,
};

/* The top two pages of the largest free RAM run between 4 KiB and 1 MiB, or 0. */
static u64 find_low_pages(const struct boot_info *bi)
{
	u64 best = 0, best_len = 0;

	for (u32 i = 0; i < bi->nr_mem; i++) {
		const struct mem_range *r = &bi->mem[i];
		u64 s = MAX(r->base, SZ_4K), e = MIN(memmap_end(r), LOW_MEMORY_END);

		if (r->type != MEM_USABLE || s >= LOW_MEMORY_END)
			continue;
		s = ALIGN_UP(s, SZ_4K);
		e = ALIGN_DOWN(e, SZ_4K);
		if (e > s && e - s >= 2 * SZ_4K && e - s > best_len) {
			best_len = e - s;
			best = e - 2 * SZ_4K;
		}
	}
	return best;
}

/*
 * Copy the trampoline to its page and the kernel's PML4 to the page after it, and fill the
 * parameter block (kernel/arch/trampoline.h); the slot count follows once the slots are.
 */
static bool tramp_setup(void)
{
	u64 t = smp_state.tramp, pml4 = read_cr3() & PAGE_MASK;
	u64 efer = rdmsr(MSR_EFER) & (EFER_SCE | EFER_LME | EFER_NXE);
	size_t size = (size_t)(smp_tramp_end - smp_tramp_start);

	if (pg_map(t, t + 2 * SZ_4K, PG_RAM | PG_EXEC))
		return false;
	memcpy((void *)(uintptr_t)t, smp_tramp_start, size);
	memcpy((void *)(uintptr_t)(t + SZ_4K), (void *)(uintptr_t)pml4, SZ_4K);
	tramp = (struct tramp_params *)(uintptr_t)(t + (u64)(smp_tramp_params - smp_tramp_start));
	*tramp = (struct tramp_params){
		.pml4_low = (u32)(t + SZ_4K),
		.efer = (u32)efer,
		.cr0 = (u32)read_cr0(),
		.leaf_b = cpuid_boot()->max_leaf >= CPUID_LEAF_EXT_TOPOLOGY &&
			  cpuid_count(CPUID_LEAF_EXT_TOPOLOGY, 0).ebx != 0,
		.cr3 = read_cr3(),
		.slots = (u64)(uintptr_t)slots,
		.entry = (u64)(uintptr_t)smp_ap_entry,
	};
	return true;
}

static int node_of(u32 apic_id)
{
	int n = numa_node_of_apic(numa(), apic_id);

	return n < 0 ? 0 : n;
}

static bool modern_cpu(void)
{
	const struct cpu_ident *c = cpu();

	/* Linux's smp_quirk_init_udelay(): no INIT delay from these families on. */
	return (c->vendor == VENDOR_INTEL && c->family >= 6) ||
	       (c->vendor == VENDOR_AMD && c->family >= 0xf) || c->vendor == VENDOR_HYGON;
}

static void start_aps(u32 timeout_ms)
{
	struct apic_start_params p = {
		.sipi_vector = (u8)(smp_state.tramp >> 12),
		.x2apic = smp_state.mode == APIC_MODE_X2APIC,
		.modern = modern_cpu(),
		.answer_timeout_us = timeout_ms * 1000,
	};
	static struct apic_start_ap aps[MADT_MAX_CPUS];
	unsigned int n = smp_state.nr_cpus - 1;
	u64 t0 = smp_now_us();

	for (unsigned int i = 0; i < n; i++)
		aps[i] = (struct apic_start_ap){ .apic_id = percpu_of(i + 1)->apic_id };
	smp_state.nr_online += apic_start_aps(&start_ops, &p, aps, n);
	for (unsigned int i = 0; i < n; i++) {
		struct percpu *pc = percpu_of(i + 1);
		struct smp_cpu_info *ci = per_cpu_ptr(&smp_cpu_infos, i + 1);
		const struct apic_start_result *r = &aps[i].r;

		if (r->step == APIC_START_OK) {
			ci->start_us = r->answer_us;
			continue;
		}
		/* Those given up are failed already; one whose INIT did not go out is now. */
		__atomic_store_n(&pc->state, CPU_FAILED, __ATOMIC_RELEASE);
		ci->fail_step = apic_start_step_name(r->step);
		ci->fail_esr = r->esr;
		smp_state.nr_failed++;
	}
	smp_state.start_us = smp_now_us() - t0;
}

/* The one way out of each stage: the run stays on the boot CPU, and says why. */
static void single(const char *why)
{
	smp_state.nr_cpus = 1;
	smp_state.nr_online = 1;
	smp_state.single_why = why;
	printk("smp: running on the boot CPU only: %s\n", why);
}

static unsigned int cpu_number(void)
{
	return smp_processor_id();
}

/* Discover: this CPU's local APIC and the MADT's processors. NULL, or why not SMP. */
static const char *discover(void)
{
	const struct acpi_sdt_hdr *h = acpi_find("APIC");
	struct percpu *bsp = boot_cpu();
	const char *why = NULL, *note;
	int bad = h ? madt_parse(h, h->length, &madt, &why) : -1;

	if (!apic_init(bad ? 0 : madt.lapic_addr, &note))
		return "the local APIC is disabled (IA32_APIC_BASE.EN clear)";
	smp_state.mode = apic_mode();
	bsp->apic_id = apic_id();
	this_cpu_ptr(&smp_cpu_infos)->node = node_of(bsp->apic_id);
	apic_cpu_setup(true);
	if (note)
		printk("smp: %s\n", note);
	if (!h)
		return "no MADT among the ACPI tables";
	if (bad) {
		printk("smp: %s 0x%llx\n", why, (unsigned long long)madt.why_value);
		return "the MADT was refused";
	}
	if (!tsc_info()->hz)
		return "no TSC frequency, so no wait could be bounded";
	for (unsigned int i = 0; i < madt.nr_notes; i++)
		printk("smp: %s 0x%llx\n", madt.note[i].what,
		       (unsigned long long)madt.note[i].value);
	smp_state.nr_listed = madt.nr_cpus;
	smp_state.nr_unusable = madt.nr_unusable;
	return NULL;
}

/* Number the CPUs: the boot CPU first (gdt_init() made it 0), then the enabled ones. */
static unsigned int number_cpus(unsigned int max_cpus)
{
	unsigned int n = 1;

	/* The boot CPU's slot is taken: an AP with a wrong id must not use it. */
	slots[0] = (struct tramp_slot){ .apic_id = boot_cpu()->apic_id, .claimed = 1 };
	for (unsigned int i = 0; i < madt.nr_cpus; i++) {
		const struct madt_cpu *m = &madt.cpu[i];

		if (m->apic_id == boot_cpu()->apic_id)
			continue;
		if (!m->enabled) {
			smp_state.nr_not_enabled++;
			continue;
		}
		if ((max_cpus && n >= max_cpus) || n == MADT_MAX_CPUS) {
			smp_state.nr_beyond_limit++;
			continue;
		}
		slots[n++].apic_id = m->apic_id;
	}
	return n;
}

/* The boot CPU's APIC mode for APIC ids up to @max_id. */
static void plan_apic_mode(u32 max_id)
{
	switch (apic_plan_mode(smp_state.mode == APIC_MODE_X2APIC, apic_x2apic_capable(), max_id)) {
	case APIC_PLAN_SWITCH_X2APIC:
		if (apic_enable_x2apic()) {
			smp_state.mode = APIC_MODE_X2APIC;
			smp_state.switched_x2apic = true;
			printk("smp: boot CPU switched to x2APIC mode: APIC ids up to %u\n", max_id);
		}
		break;
	case APIC_PLAN_UNREACHABLE:
		/* apic_start_aps() refuses each such CPU, and the report names it. */
		printk("smp: APIC ids up to %u need x2APIC, which this CPU lacks\n", max_id);
		break;
	default:
		break;
	}
}

/* Plan: which CPUs to start, and whether each can be reached and can find its slot. */
static const char *plan(unsigned int max_cpus)
{
	u32 max_id = 0;

	nr_numbered = number_cpus(max_cpus);
	if (nr_numbered == 1)
		return smp_state.nr_beyond_limit ? "smp=1" : "the MADT lists no other enabled CPU";
	for (unsigned int c = 1; c < nr_numbered; c++)
		max_id = MAX(max_id, slots[c].apic_id);
	plan_apic_mode(max_id);
	/*
	 * An AP finds its entry by the id CPUID gives it; above 254 only leaf 0Bh's 32-bit id
	 * tells CPUs apart (leaf 1 has 8 bits). A firmware "limit CPUID maxval" hides it.
	 */
	if (max_id > APIC_XAPIC_MAX_ID && !(cpuid_boot()->max_leaf >= CPUID_LEAF_EXT_TOPOLOGY &&
					     cpuid_count(CPUID_LEAF_EXT_TOPOLOGY, 0).ebx))
		return "APIC ids above 254 but no CPUID leaf 0Bh (is \"Limit CPUID Maxval\" set in "
		       "the firmware setup?): an AP could not tell its id from another's";
	return NULL;
}

/* Prepare: the trampoline page, and each AP's block, percpu and slot. */
static const char *prepare(const struct boot_info *bi)
{
	unsigned int n = nr_numbered;

	smp_state.tramp = find_low_pages(bi);
	if (!smp_state.tramp)
		return "no two free pages of RAM below 1 MiB for the AP trampoline";
	if (!smp_blocks_alloc(n - 1))
		return "no memory for the APs' stacks";
	if ((size_t)(smp_tramp_end - smp_tramp_start) > SZ_4K)
		return "the AP trampoline is larger than a page";
	if (!tramp_setup())
		return "the trampoline page could not be mapped executable";
	for (unsigned int c = 1; c < n; c++) {
		struct percpu *pc = smp_block_percpu(c - 1, c);

		pc->apic_id = slots[c].apic_id;
		pc->state = CPU_ABSENT;
		percpu_register(pc);
		per_cpu_ptr(&smp_cpu_infos, c)->node = node_of(slots[c].apic_id);
		slots[c].stack_top = pc->stack_top;
		slots[c].percpu = (u64)(uintptr_t)pc;
	}
	smp_state.nr_cpus = n;
	smp_state.nr_online = 1;
	tramp->nr_slots = n;
	write_cr3(read_cr3());		/* the guard pages are unmapped from here on */
	return NULL;
}

void smp_init(const struct boot_info *bi, unsigned int max_cpus, u32 timeout_ms)
{
	const char *why;

	memset(&smp_state, 0, sizeof(smp_state));
	console_set_cpu_id(cpu_number);
	bsp_cr4 = read_cr4();
	smp_block_bsp_ist();
	why = discover();
	if (!why)
		why = plan(max_cpus);
	if (!why)
		why = prepare(bi);
	if (why) {
		single(why);
		return;
	}
	exit_set_stop_others(smp_stop_others);
	start_aps(timeout_ms);
}

void smp_report(void)
{
	const struct smp_info *s = &smp_state;

	printk("smp: %u of %u CPU%s online (%s, APIC ids:", s->nr_online, smp_nr_cpus(),
	       smp_nr_cpus() == 1 ? "" : "s", apic_mode_name(s->mode));
	for (unsigned int c = 0; c < smp_nr_cpus() && c < 16; c++)
		printk(" %u", smp_cpu(c)->apic_id);
	printk("%s)", smp_nr_cpus() > 16 ? " ..." : "");
	if (s->tramp)
		printk(", trampoline at 0x%llx, APs started in %llu.%03llu ms",
		       (unsigned long long)s->tramp, (unsigned long long)s->start_us / 1000,
		       (unsigned long long)s->start_us % 1000);
	printk("\n");
	if (s->nr_unusable)
		printk("smp: %u more MADT entr%s neither enabled nor online-capable (absent "
		       "CPUs): not started, not waited for\n", s->nr_unusable,
		       s->nr_unusable == 1 ? "y" : "ies");
	if (s->nr_not_enabled)
		printk("smp: %u more listed as online-capable but not enabled: not started\n",
		       s->nr_not_enabled);
	if (s->nr_beyond_limit)
		printk("smp: %u more enabled CPUs not used (smp= limit)\n", s->nr_beyond_limit);
	for (unsigned int c = 1; c < smp_nr_cpus(); c++) {
		struct percpu *pc = smp_cpu(c);

		if (pc->state == CPU_FAILED)
			printk("smp: CPU %u (APIC id %u) did not start: %s (ESR 0x%x)\n", c,
			       pc->apic_id, smp_cpu_info(c)->fail_step, smp_cpu_info(c)->fail_esr);
	}
}
