// SPDX-License-Identifier: GPL-2.0-only
/*
 * smp.c - start the application processors and give them work (see smp.h).
 *
 * Bring-up, in order: the MADT's processors (kernel/platform/madt.c), the boot CPU's APIC
 * mode (x2APIC when an id above 254 must be reached and the CPU can), a trampoline page
 * below 1 MiB taken from free RAM of the firmware map (never handed to the allocator, which
 * starts at 1 MiB), one block per AP with its percpu, stack and three IST stacks separated
 * by unmapped guard pages, then INIT-SIPI-SIPI to one CPU at a time (kernel/arch/
 * apic_start.c) and a bounded wait for it to check in. A CPU that misses its timeout is
 * marked failed; if it wakes later it finds itself failed and parks.
 */
#include "kernel/arch/apic.h"
#include "kernel/arch/desc.h"
#include "kernel/arch/exit.h"
#include "kernel/arch/fpu.h"
#include "kernel/arch/paging.h"
#include "kernel/arch/pmem.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"
#include "kernel/lib/string.h"
#include "kernel/platform/acpi.h"
#include "kernel/platform/cpu.h"
#include "kernel/platform/madt.h"
#include "kernel/platform/numa.h"
#include "kernel/platform/smp.h"
#include "kernel/platform/tsc.h"

#define AP_STACK_SIZE	(64 * 1024)
#define GUARD		SZ_4K
/* percpu page, then guard + stack, then guard + stack for each of #DF, NMI, #MC. */
#define AP_BLOCK	(SZ_4K + GUARD + AP_STACK_SIZE + 3 * (GUARD + IST_STACK_SIZE))
#define LOW_LIMIT	0x100000ULL

extern char smp_tramp_start[], smp_tramp_end[], smp_tramp_gdt[], smp_tramp_gdtr[];
extern char smp_tramp_jmp32[], smp_tramp_jmp64[], smp_tramp_cr3_low[], smp_tramp_efer[];
extern char smp_tramp_cr0[], smp_tramp_cr3[], smp_tramp_table[], smp_tramp_count[];
extern char smp_tramp_leaf_b[], smp_tramp_entry[], smp_tramp_pm32[], smp_tramp_lm64[];

struct tramp_slot {
	u32 apic_id;
	u32 pad;
	u64 stack_top;
	u64 percpu;
};

static struct madt_info madt;
static struct smp_info info;
static struct percpu *cpus[MADT_MAX_CPUS];
static struct tramp_slot slots[MADT_MAX_CPUS];
static u64 bsp_cr4;
static u64 ap_blocks;
static u64 bsp_ist_block;	/* the boot CPU's guarded IST stacks */

__noreturn void smp_ap_entry(struct percpu *pc);

u64 smp_now_us(void)
{
	u64 hz = tsc_info()->hz;

	return hz ? mul_div_u64(rdtsc(), 1000000ULL, hz) : 0;
}

static void udelay(u64 us)
{
	u64 hz = tsc_info()->hz, end;

	if (!hz || !us)
		return;
	end = rdtsc() + mul_div_u64(us, hz, 1000000ULL);
	while (rdtsc() < end)
		cpu_relax();
}

const struct smp_info *smp_info(void)
{
	return &info;
}

unsigned int smp_nr_cpus(void)
{
	return info.nr_cpus ? info.nr_cpus : 1;
}

unsigned int smp_nr_online(void)
{
	return info.nr_online ? info.nr_online : 1;
}

struct percpu *smp_cpu(unsigned int cpu)
{
	if (!info.nr_cpus)
		return cpu == 0 ? boot_cpu() : NULL;
	return cpu < info.nr_cpus ? cpus[cpu] : NULL;
}

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

	for (;;) {
		u64 seq = __atomic_load_n(&pc->seq, __ATOMIC_ACQUIRE);

		if (seq != pc->done) {
			write_cr3(read_cr3());
			pc->in_work = true;
			pc->fn(pc->arg);
			pc->in_work = false;
			__atomic_store_n(&pc->done, seq, __ATOMIC_RELEASE);
			continue;
		}
		/* The IPI that posts work ends the halt; "sti" holds it off until "hlt". */
		__asm__ volatile("sti; hlt; cli" ::: "memory");
	}
}

/* ---- running functions ------------------------------------------------------------- */

int on_cpu_async(unsigned int cpu, void (*fn)(void *arg), void *arg)
{
	struct percpu *pc = smp_cpu(cpu);

	if (!pc || pc->state != CPU_ONLINE || pc == this_cpu())
		return -ENODEV;
	if (__atomic_load_n(&pc->done, __ATOMIC_ACQUIRE) != pc->seq)
		return -EBUSY;
	pc->fn = fn;
	pc->arg = arg;
	__atomic_store_n(&pc->seq, pc->seq + 1, __ATOMIC_RELEASE);
	apic_send_ipi(pc->apic_id, VECTOR_WAKEUP);
	return 0;
}

/*
 * Run what was posted to this CPU while it waits for another: the boot CPU waits in on_cpu()
 * for a benchmark on an AP, which may post a row back to it (a CPU of its node).
 */
static void poll_self(void)
{
	struct percpu *me = this_cpu();
	u64 seq = __atomic_load_n(&me->seq, __ATOMIC_ACQUIRE);

	/* Not the function this CPU is running now: its slot stays behind until it returns. */
	if (seq != me->done && !me->in_work) {
		me->in_work = true;
		me->fn(me->arg);
		me->in_work = false;
		__atomic_store_n(&me->done, seq, __ATOMIC_RELEASE);
	}
}

int on_cpu_wait(unsigned int cpu, u32 timeout_ms)
{
	struct percpu *pc = smp_cpu(cpu);
	u64 end;

	if (!pc)
		return -ENODEV;
	end = smp_now_us() + (u64)timeout_ms * 1000;
	while (__atomic_load_n(&pc->done, __ATOMIC_ACQUIRE) != pc->seq) {
		if (smp_now_us() > end)
			return -ETIMEDOUT;
		poll_self();
		cpu_relax();
	}
	return 0;
}

int on_cpu(unsigned int cpu, void (*fn)(void *arg), void *arg, u32 timeout_ms)
{
	int rc;

	if (smp_cpu(cpu) == this_cpu()) {
		fn(arg);
		return 0;
	}
	rc = on_cpu_async(cpu, fn, arg);
	return rc ? rc : on_cpu_wait(cpu, timeout_ms);
}

unsigned int on_each_cpu(void (*fn)(void *arg), void *arg, u32 timeout_ms)
{
	unsigned int late = 0, self = smp_processor_id();
	u64 end;

	for (unsigned int c = 0; c < smp_nr_cpus(); c++)
		if (c != self && cpu_online(c) && on_cpu_async(c, fn, arg))
			late++;
	fn(arg);
	end = smp_now_us() + (u64)timeout_ms * 1000;
	for (unsigned int c = 0; c < smp_nr_cpus(); c++) {
		struct percpu *pc = smp_cpu(c);

		if (c == self || !cpu_online(c))
			continue;
		while (__atomic_load_n(&pc->done, __ATOMIC_ACQUIRE) != pc->seq &&
		       smp_now_us() <= end)
			cpu_relax();
		if (pc->done != pc->seq)
			late++;
	}
	return late;
}

void smp_barrier_init(struct smp_barrier *b, unsigned int n)
{
	b->n = n;
	b->count = 0;
	b->gen = 0;
}

int smp_barrier_wait(struct smp_barrier *b, u32 timeout_ms)
{
	unsigned int gen = __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE);
	u64 end;

	if (__atomic_add_fetch(&b->count, 1, __ATOMIC_ACQ_REL) == b->n) {
		__atomic_store_n(&b->count, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&b->gen, gen + 1, __ATOMIC_RELEASE);
		return 0;
	}
	end = smp_now_us() + (u64)timeout_ms * 1000;
	while (__atomic_load_n(&b->gen, __ATOMIC_ACQUIRE) == gen) {
		if (smp_now_us() > end)
			return -ETIMEDOUT;
		cpu_relax();
	}
	return 0;
}

/* ---- stopping (the exit path) ------------------------------------------------------ */

static void stop_others(void)
{
	struct percpu *me = this_cpu();
	u64 end;
	unsigned int left = 0;

	for (unsigned int c = 0; c < info.nr_cpus; c++) {
		struct percpu *pc = cpus[c];

		/* Only CPUs running our code: one still in firmware has the firmware's IDT. */
		if (pc != me && pc->state == CPU_ONLINE)
			apic_send_nmi(pc->apic_id);
	}
	if (!info.nr_online || info.nr_online == 1)
		return;
	end = smp_now_us() + 100000;
	do {
		left = 0;
		for (unsigned int c = 0; c < info.nr_cpus; c++)
			if (cpus[c] != me && cpus[c]->state == CPU_ONLINE)
				left++;
	} while (left && smp_now_us() < end);
	if (left)
		printk("smp: %u CPU%s did not stop on NMI within 100 ms\n", left,
		       left == 1 ? "" : "s");
	else
		printk("smp: the other %u online CPU%s stopped (NMI)\n", info.nr_online - 1,
		       info.nr_online == 2 ? "" : "s");
}

/* ---- bring-up ---------------------------------------------------------------------- */

struct start_ctx {
	struct percpu *pc;
};

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
	udelay(us);
}

static bool op_answered(void *ctx)
{
	struct start_ctx *s = ctx;

	return __atomic_load_n(&s->pc->state, __ATOMIC_ACQUIRE) == CPU_ONLINE;
}

static u64 op_now_us(void *ctx)
{
	return smp_now_us();
}

/* The top two pages of the largest free RAM run between 4 KiB and 1 MiB, or 0. */
static u64 find_low_pages(const struct boot_info *bi)
{
	u64 best = 0, best_len = 0;

	for (u32 i = 0; i < bi->nr_mem; i++) {
		const struct mem_range *r = &bi->mem[i];
		u64 s = MAX(r->base, SZ_4K), e = MIN(mem_end(r), LOW_LIMIT);

		if (r->type != MEM_USABLE || s >= LOW_LIMIT)
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

static void put32(char *field, u32 v)
{
	memcpy((char *)(uintptr_t)info.tramp + (field - smp_tramp_start), &v, 4);
}

static void put64(char *field, u64 v)
{
	memcpy((char *)(uintptr_t)info.tramp + (field - smp_tramp_start), &v, 8);
}

static bool tramp_setup(void)
{
	u64 t = info.tramp, pml4 = read_cr3() & ~0xfffULL;
	u64 efer = rdmsr(MSR_EFER) & (BIT(0) | BIT(8) | EFER_NXE);	/* SCE, LME, NXE */

	if ((size_t)(smp_tramp_end - smp_tramp_start) > SZ_4K)
		return false;
	if (pg_map(t, t + 2 * SZ_4K, PG_RAM | PG_EXEC))
		return false;
	memcpy((void *)(uintptr_t)t, smp_tramp_start, smp_tramp_end - smp_tramp_start);
	memcpy((void *)(uintptr_t)(t + SZ_4K), (void *)(uintptr_t)pml4, SZ_4K);
	put32(smp_tramp_gdtr + 2, (u32)(t + (smp_tramp_gdt - smp_tramp_start)));
	put32(smp_tramp_jmp32, (u32)(t + (smp_tramp_pm32 - smp_tramp_start)));
	put32(smp_tramp_jmp64, (u32)(t + (smp_tramp_lm64 - smp_tramp_start)));
	put32(smp_tramp_cr3_low, (u32)(t + SZ_4K));
	put32(smp_tramp_efer, (u32)efer);
	put32(smp_tramp_cr0, (u32)read_cr0());
	put32(smp_tramp_leaf_b, cpuid(0).eax >= 0xb && cpuid_count(0xb, 0).ebx != 0);
	put64(smp_tramp_cr3, read_cr3());
	put64(smp_tramp_table, (u64)(uintptr_t)slots);
	put64(smp_tramp_entry, (u64)(uintptr_t)smp_ap_entry);
	return true;
}

/* A percpu with guarded stacks for AP @cpu; false when memory ran out. */
static bool ap_alloc(unsigned int cpu, u64 block)
{
	struct percpu *pc = (struct percpu *)(uintptr_t)block;
	u64 p = block + SZ_4K;

	memset(pc, 0, sizeof(*pc));
	pg_set_attr(p, p + GUARD, 0);
	p += GUARD + AP_STACK_SIZE;
	pc->stack_top = p;
	for (unsigned int i = 0; i < 3; i++) {
		pg_set_attr(p, p + GUARD, 0);
		p += GUARD + IST_STACK_SIZE;
		pc->ist_top[i] = p;
	}
	pc->cpu = cpu;
	cpus[cpu] = pc;
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
		.sipi_vector = (u8)(info.tramp >> 12),
		.x2apic = info.mode == APIC_MODE_X2APIC,
		.modern = modern_cpu(),
		.answer_timeout_us = timeout_ms * 1000,
	};
	struct apic_start_ops ops = {
		.icr_write = op_icr_write, .icr_busy = op_icr_busy, .esr_read = op_esr_read,
		.udelay = op_udelay, .answered = op_answered, .now_us = op_now_us,
	};
	static struct apic_start_result res[MADT_MAX_CPUS];
	u64 t0 = smp_now_us();

	/* First INIT every AP: each then waits for its SIPI, halted, out of firmware code. */
	for (unsigned int c = 1; c < info.nr_cpus; c++) {
		p.apic_id = cpus[c]->apic_id;
		ops.ctx = NULL;
		cpus[c]->state = CPU_ABSENT;
		if (apic_start_init(&ops, &p, &res[c]))
			cpus[c]->state = CPU_FAILED;
	}
	for (unsigned int c = 1; c < info.nr_cpus; c++) {
		struct percpu *pc = cpus[c];
		struct start_ctx s = { pc };
		struct apic_start_result *r = &res[c];
		u32 expect = CPU_STARTING;

		if (pc->state != CPU_FAILED) {
			ops.ctx = &s;
			p.apic_id = pc->apic_id;
			__atomic_store_n(&pc->state, CPU_STARTING, __ATOMIC_RELEASE);
			if (!apic_start_sipi(&ops, &p, r) ||
			    !__atomic_compare_exchange_n(&pc->state, &expect, CPU_FAILED, false,
							 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
				pc->start_us = r->answer_us;
				info.nr_online++;
				continue;
			}
		}
		pc->fail_step = apic_start_step_name(r->step);
		pc->fail_esr = r->esr;
		info.nr_failed++;
	}
	info.start_us = smp_now_us() - t0;
}

static void single(const char *why)
{
	info.single_why = why;
	printk("smp: running on the boot CPU only: %s\n", why);
}

/*
 * The boot CPU's IST stacks started in the image's .bss (gdt_init() runs before there is an
 * allocator); move them to stacks with guard pages like the APs'. The CPU reads the TSS's
 * IST slots at each exception, so changing them in place is enough.
 */
static void bsp_guarded_ist(void)
{
	struct percpu *bsp = boot_cpu();
	u64 p = pmem_alloc(3 * (GUARD + IST_STACK_SIZE), SZ_2M);

	if (!p) {
		printk("smp: no memory for the boot CPU's guarded IST stacks: keeping the "
		       "unguarded ones\n");
		return;
	}
	bsp_ist_block = p;
	for (unsigned int i = 0; i < 3; i++) {
		pg_set_attr(p, p + GUARD, 0);
		p += GUARD + IST_STACK_SIZE;
		bsp->ist_top[i] = p;
		bsp->tss.ist[i] = p;
	}
}

void smp_init(const struct boot_info *bi, unsigned int max_cpus, u32 timeout_ms)
{
	const struct acpi_sdt_hdr *h = acpi_find("APIC");
	struct percpu *bsp = boot_cpu();
	const char *why, *note;
	unsigned int n = 0;
	u32 max_id = 0;
	u64 blocks;
	int bad;

	memset(&info, 0, sizeof(info));
	bsp_cr4 = read_cr4();
	bsp_guarded_ist();
	bad = h ? madt_parse(h, h->length, &madt, &why) : -1;
	if (!apic_init(bad ? 0 : madt.lapic_addr, &note)) {
		single("the local APIC is disabled (IA32_APIC_BASE.EN clear)");
		return;
	}
	info.mode = apic_mode();
	bsp->apic_id = apic_id();
	bsp->node = node_of(bsp->apic_id);
	apic_cpu_setup(true);
	if (note)
		printk("smp: %s\n", note);
	if (!h) {
		single("no MADT among the ACPI tables");
		return;
	}
	if (bad) {
		printk("smp: %s 0x%llx\n", why, (unsigned long long)madt.why_value);
		single("the MADT was refused");
		return;
	}
	for (unsigned int i = 0; i < madt.nr_notes; i++)
		printk("smp: %s 0x%llx\n", madt.note[i].what,
		       (unsigned long long)madt.note[i].value);
	info.nr_listed = madt.nr_cpus;
	info.nr_unusable = madt.nr_unusable;

	/* Number the CPUs: the boot CPU first, then the enabled ones in MADT order. */
	cpus[n++] = bsp;
	bsp->cpu = 0;
	for (unsigned int i = 0; i < madt.nr_cpus; i++) {
		const struct madt_cpu *m = &madt.cpu[i];

		if (m->apic_id == bsp->apic_id)
			continue;
		if (!m->enabled) {
			info.nr_not_enabled++;
			continue;
		}
		if (max_cpus && n >= max_cpus) {
			info.nr_beyond_limit++;
			continue;
		}
		slots[n].apic_id = m->apic_id;
		cpus[n++] = NULL;
	}
	info.nr_online = 1;
	if (n == 1) {
		info.nr_cpus = 1;
		single(info.nr_beyond_limit ? "smp=1" : "the MADT lists no other enabled CPU");
		return;
	}
	for (unsigned int c = 1; c < n; c++)
		max_id = MAX(max_id, slots[c].apic_id);
	switch (apic_plan_mode(info.mode == APIC_MODE_X2APIC, apic_x2apic_capable(), max_id)) {
	case APIC_PLAN_SWITCH_X2APIC:
		if (apic_enable_x2apic()) {
			info.mode = APIC_MODE_X2APIC;
			info.switched_x2apic = true;
			printk("smp: boot CPU switched to x2APIC mode: APIC ids up to %u\n", max_id);
		}
		break;
	case APIC_PLAN_UNREACHABLE:
		/* apic_start_cpu() refuses each such CPU, and the report names it. */
		printk("smp: APIC ids up to %u need x2APIC, which this CPU lacks\n", max_id);
		break;
	default:
		break;
	}

	info.tramp = find_low_pages(bi);
	if (!info.tramp) {
		single("no two free pages of RAM below 1 MiB for the AP trampoline");
		info.nr_cpus = 1;
		return;
	}
	blocks = pmem_alloc((u64)(n - 1) * AP_BLOCK, SZ_2M);
	if (!blocks || !tramp_setup()) {
		info.nr_cpus = 1;
		single(blocks ? "the trampoline page could not be mapped executable" :
		       "no memory for the APs' stacks");
		return;
	}
	for (unsigned int c = 1; c < n; c++) {
		ap_alloc(c, blocks + (u64)(c - 1) * AP_BLOCK);
		cpus[c]->apic_id = slots[c].apic_id;
		cpus[c]->node = node_of(slots[c].apic_id);
		cpus[c]->state = CPU_ABSENT;
		slots[c].stack_top = cpus[c]->stack_top;
		slots[c].percpu = (u64)(uintptr_t)cpus[c];
	}
	ap_blocks = blocks;
	info.nr_cpus = n;
	put32(smp_tramp_count, n);
	write_cr3(read_cr3());
	exit_set_stop_others(stop_others);
	start_aps(timeout_ms);
}

bool smp_is_guard_page(u64 pa)
{
	u64 off;

	if (bsp_ist_block && pa >= bsp_ist_block &&
	    pa < bsp_ist_block + 3 * (GUARD + IST_STACK_SIZE))
		return (pa - bsp_ist_block) % (GUARD + IST_STACK_SIZE) < GUARD;

	if (!ap_blocks || pa < ap_blocks || pa >= ap_blocks + (u64)(info.nr_cpus - 1) * AP_BLOCK)
		return false;
	off = (pa - ap_blocks) % AP_BLOCK;
	if (off < SZ_4K)
		return false;
	off -= SZ_4K;
	if (off < GUARD)
		return true;
	off -= GUARD + AP_STACK_SIZE;
	return off % (GUARD + IST_STACK_SIZE) < GUARD;
}

void smp_report(void)
{
	const struct smp_info *s = &info;

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
			       pc->apic_id, pc->fail_step, pc->fail_esr);
	}
}
