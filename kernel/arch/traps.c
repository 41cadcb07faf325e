// SPDX-License-Identifier: GPL-2.0-only
/*
 * traps.c - decide what happens to an exception: a handler registered for the vector (#MC,
 * #PF), an exception-table fixup, a counted and noted NMI, or the unexpected-exception
 * report and the panic exit status. Also the corrected machine-check interrupt's (CMCI's)
 * registration point.
 *
 * NMI notes: each CPU's NMI handler writes its own struct nmi_state (a per-CPU variable) and
 * nothing else. Its queue is a ring of NMI_NOTES slots: the handler reserves slot head with
 * a compare-exchange (a real NMI may arrive inside a software int $2), fills it and marks it
 * complete through its seq; the console takes notes from the tail, one at a time under its
 * lock, after it has copied them out. A full ring counts the NMI as lost, and the console
 * says how many once the ring is empty. The same NMI also captures where it found the CPU
 * (RIP and the top of its stack) for a watchdog to read, under a sequence count that is odd
 * while the handler writes it.
 */
#include "kernel/arch/apic.h"
#include "kernel/arch/exit.h"
#include "kernel/arch/percpu.h"
#include "kernel/arch/traps.h"
#include "kernel/console/printk.h"
#include "kernel/include/extable.h"
#include "kernel/include/probe.h"
#include "kernel/include/x86.h"
#include "kernel/lib/format.h"
#include "kernel/lib/ksyms.h"

#define NMI_NOTES	16

struct nmi_note {
	u64 seq;		/* 1 + its ring position once complete */
	u64 nr;			/* the CPU's NMI number */
	u64 rip;
};

struct nmi_state {
	struct nmi_record rec;
	u64 cap_seq;		/* odd while the handler writes cap */
	struct nmi_stack cap;
	u64 head, tail;		/* notes reserved, notes printed */
	u64 lost, lost_told;	/* NMIs that found the ring full; how many were printed */
	struct nmi_note ring[NMI_NOTES];
};

static DEFINE_PER_CPU(struct nmi_state, nmi_states);

/* kernel/arch/entry.asm pushes 15 registers, the stub 2 words, the CPU 5. */
_Static_assert(sizeof(struct pt_regs) == (PT_REGS_NR_GPRS + 2 + 5) * 8,
	       "pt_regs must match kernel/arch/entry.asm");

extern struct exception_table_entry __start_ck_extable[], __stop_ck_extable[];

struct ex_record ex_last;
static trap_handler_t handlers[32];
u64 trap_last_mc_frame;
static int die_cpu = -1;		/* the CPU reporting an unexpected exception */

static const char *const names[32][2] = {
	{ "DE", "divide error" },		{ "DB", "debug" },
	{ "NMI", "non-maskable interrupt" },	{ "BP", "breakpoint" },
	{ "OF", "overflow" },			{ "BR", "bound range exceeded" },
	{ "UD", "invalid opcode" },		{ "NM", "device not available" },
	{ "DF", "double fault" },		{ "CSO", "coprocessor segment overrun" },
	{ "TS", "invalid TSS" },		{ "NP", "segment not present" },
	{ "SS", "stack-segment fault" },	{ "GP", "general protection" },
	{ "PF", "page fault" },			{ "15", "reserved" },
	{ "MF", "x87 floating-point error" },	{ "AC", "alignment check" },
	{ "MC", "machine check" },		{ "XM", "SIMD floating-point error" },
	{ "VE", "virtualization exception" },	{ "CP", "control protection" },
	{ "22", "reserved" }, { "23", "reserved" }, { "24", "reserved" }, { "25", "reserved" },
	{ "26", "reserved" }, { "27", "reserved" },
	{ "HV", "hypervisor injection" },	{ "VC", "VMM communication" },
	{ "SX", "security exception" },		{ "31", "reserved" },
};

const char *trap_mnemonic(u64 vector)
{
	return vector < 32 ? names[vector][0] : "??";
}

const char *trap_name(u64 vector)
{
	return vector < 32 ? names[vector][1] : "unknown vector";
}

bool extable_init(void)
{
	long bad;

	ex_sort(__start_ck_extable, __stop_ck_extable);
	bad = ex_validate(__start_ck_extable, __stop_ck_extable);
	if (bad >= 0) {
		char sym[96];

		ksym_format(ex_insn_addr(&__start_ck_extable[bad]), sym, sizeof(sym));
		pr_err("exception table entry %ld (insn %s, data 0x%x) is invalid\n", bad, sym,
		       (unsigned int)__start_ck_extable[bad].data);
		return false;
	}
	return true;
}

unsigned long extable_size(void)
{
	return (unsigned long)(__stop_ck_extable - __start_ck_extable);
}

const struct exception_table_entry *ex_lookup(u64 rip)
{
	return ex_search(__start_ck_extable, __stop_ck_extable, rip);
}

bool ex_fixup(struct pt_regs *regs)
{
	const struct exception_table_entry *e;
	unsigned int type;

	e = ex_lookup(regs->rip);
	if (!e)
		return false;
	type = ex_type(e);
	/* Only code written to consume poison may continue after a machine check. */
	if (regs->vector == X86_TRAP_MC && !ex_type_mce_safe(type))
		return false;
	ex_last.count++;
	ex_last.vector = regs->vector;
	ex_last.error_code = regs->error_code;
	ex_last.rip = regs->rip;
	ex_last.fixup = ex_fixup_addr(e);
	ex_last.cr2 = regs->vector == X86_TRAP_PF ? read_cr2() : 0;
	ex_last.frame = (u64)(uintptr_t)regs;
	if (ex_type_sets_trapnr(type))
		((u64 *)regs)[ex_reg(e)] = regs->vector;
	regs->rip = ex_fixup_addr(e);
	return true;
}

static void print_pf_error(u64 ec)
{
	printk("  page fault: %s %s in %s mode%s%s\n",
	       ec & BIT(0) ? "protection violation on" : "not-present page on",
	       ec & BIT(4) ? "instruction fetch" : ec & BIT(1) ? "write" : "read",
	       ec & BIT(2) ? "user" : "kernel", ec & BIT(3) ? ", reserved bit set" : "",
	       ec & BIT(5) ? ", protection key" : "");
}

__noreturn void die(struct pt_regs *regs)
{
	char sym[96];
	u64 i, w;

	int me = (int)this_cpu()->cpu, prev = -1;

	if (!__atomic_compare_exchange_n(&die_cpu, &prev, me, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		if (prev != me) {
			/* Another CPU reports (once): stay out of it. */
			__atomic_store_n(&this_cpu()->state, CPU_STOPPED, __ATOMIC_RELEASE);
			halt_forever();
		}
		/* The report itself faulted: say the least and leave. */
		static const char msg[] = "\nPANIC: exception while reporting an exception\n";

		console_write(msg, sizeof(msg) - 1);
		panic();
	}
	ksym_format(regs->rip, sym, sizeof(sym));
	printk("\nPANIC: unexpected exception %llu #%s (%s)\n",
	       (unsigned long long)regs->vector, trap_mnemonic(regs->vector),
	       trap_name(regs->vector));
	printk("  on CPU %u (APIC id %u)\n", this_cpu()->cpu, this_cpu()->apic_id);
	printk("  error code 0x%llx, RIP %016llx %s\n", (unsigned long long)regs->error_code,
	       (unsigned long long)regs->rip, sym);
	if (regs->vector == X86_TRAP_PF)
		print_pf_error(regs->error_code);
	printk("  CR0 %016llx CR2 %016llx CR3 %016llx CR4 %016llx\n",
	       (unsigned long long)read_cr0(), (unsigned long long)read_cr2(),
	       (unsigned long long)read_cr3(), (unsigned long long)read_cr4());
	printk("  RAX %016llx RBX %016llx RCX %016llx RDX %016llx\n",
	       (unsigned long long)regs->rax, (unsigned long long)regs->rbx,
	       (unsigned long long)regs->rcx, (unsigned long long)regs->rdx);
	printk("  RSI %016llx RDI %016llx RBP %016llx RSP %016llx\n",
	       (unsigned long long)regs->rsi, (unsigned long long)regs->rdi,
	       (unsigned long long)regs->rbp, (unsigned long long)regs->rsp);
	printk("  R8  %016llx R9  %016llx R10 %016llx R11 %016llx\n",
	       (unsigned long long)regs->r8, (unsigned long long)regs->r9,
	       (unsigned long long)regs->r10, (unsigned long long)regs->r11);
	printk("  R12 %016llx R13 %016llx R14 %016llx R15 %016llx\n",
	       (unsigned long long)regs->r12, (unsigned long long)regs->r13,
	       (unsigned long long)regs->r14, (unsigned long long)regs->r15);
	printk("  RFLAGS %016llx CS %04llx SS %04llx\n", (unsigned long long)regs->rflags,
	       (unsigned long long)regs->cs, (unsigned long long)regs->ss);
	printk("  stack:\n");
	for (i = 0; i < 8; i++) {
		u64 a = regs->rsp + i * 8;

		if (probe_read64(a, &w)) {
			printk("    %016llx: <unreadable>\n", (unsigned long long)a);
			break;
		}
		if (ksym_format(w, sym, sizeof(sym)))
			printk("    %016llx: %016llx %s\n", (unsigned long long)a,
			       (unsigned long long)w, sym);
		else
			printk("    %016llx: %016llx\n", (unsigned long long)a,
			       (unsigned long long)w);
	}
	panic();
}

const struct nmi_record *nmi_record_of(unsigned int cpu)
{
	return &per_cpu_ptr(&nmi_states, cpu)->rec;
}

/* NMI context, on this CPU's own state only: where it stopped the CPU. */
static void nmi_capture(struct nmi_state *st, const struct pt_regs *regs, u64 nr)
{
	struct nmi_stack *c = &st->cap;
	unsigned int n = 0;
	u64 w;

	__atomic_store_n(&st->cap_seq, st->cap_seq + 1, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	c->nr = nr;
	c->rip = regs->rip;
	c->rsp = regs->rsp;
	c->rflags = regs->rflags;
	while (n < NMI_STACK_WORDS && !probe_read64(regs->rsp + n * 8, &w))
		c->word[n++] = w;
	c->nr_words = n;
	__atomic_store_n(&st->cap_seq, st->cap_seq + 1, __ATOMIC_RELEASE);
}

bool nmi_stack_of(unsigned int cpu, struct nmi_stack *out)
{
	const struct nmi_state *st;

	if (!percpu_of(cpu))
		return false;
	st = per_cpu_ptr(&nmi_states, cpu);
	for (int tries = 0; tries < 1000; tries++) {
		u64 seq = __atomic_load_n(&st->cap_seq, __ATOMIC_ACQUIRE);

		if (seq & 1) {
			cpu_relax();	/* the handler is writing it now: a few hundred cycles */
			continue;
		}
		*out = st->cap;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&st->cap_seq, __ATOMIC_RELAXED) == seq)
			return out->nr != 0;
	}
	return false;
}

/* NMI context, on this CPU's own state only: queue a note or count it lost. */
static void nmi_note_push(struct nmi_state *st, u64 nr, u64 rip)
{
	u64 h = __atomic_load_n(&st->head, __ATOMIC_RELAXED);
	struct nmi_note *n;

	do {
		if (h - __atomic_load_n(&st->tail, __ATOMIC_ACQUIRE) >= NMI_NOTES) {
			__atomic_add_fetch(&st->lost, 1, __ATOMIC_RELAXED);
			return;
		}
	} while (!__atomic_compare_exchange_n(&st->head, &h, h + 1, false, __ATOMIC_ACQ_REL,
					      __ATOMIC_RELAXED));
	n = &st->ring[h % NMI_NOTES];
	n->nr = nr;
	n->rip = rip;
	__atomic_store_n(&n->seq, h + 1, __ATOMIC_RELEASE);
}

/* One line for CPU @cpu's oldest complete note, or its lost count once the ring is empty. */
static int nmi_note_take(unsigned int cpu, char *buf, size_t size)
{
	struct nmi_state *st = per_cpu_ptr(&nmi_states, cpu);
	u64 t = st->tail, head = __atomic_load_n(&st->head, __ATOMIC_ACQUIRE);
	const struct nmi_note *n = &st->ring[t % NMI_NOTES];
	u64 lost = __atomic_load_n(&st->lost, __ATOMIC_RELAXED);
	char sym[96];

	if (t != head && __atomic_load_n(&n->seq, __ATOMIC_ACQUIRE) == t + 1) {
		u64 nr = n->nr, rip = n->rip;

		/* Copied out: the handler may reuse the slot from here on. */
		__atomic_store_n(&st->tail, t + 1, __ATOMIC_RELEASE);
		ksym_format(rip, sym, sizeof(sym));
		return ck_snprintf(buf, size, "# note: NMI #%llu received on CPU %u at RIP %016llx "
				   "%s, continuing\n", (unsigned long long)nr, cpu,
				   (unsigned long long)rip, sym);
	}
	if (t != head || lost == st->lost_told)
		return 0;
	lost -= st->lost_told;
	st->lost_told += lost;
	return ck_snprintf(buf, size, "# note: %llu more NMI%s on CPU %u not noted (its queue of "
			   "%u was full)\n", (unsigned long long)lost, lost == 1 ? "" : "s", cpu,
			   NMI_NOTES);
}

size_t nmi_note_next(char *buf, size_t size)
{
	for (unsigned int c = 0; c < percpu_nr(); c++) {
		int n = percpu_of(c) ? nmi_note_take(c, buf, size) : 0;

		if (n > 0)
			return MIN((size_t)n, size - 1);
	}
	return 0;
}

static irq_handler_t cmci_handler;

void irq_set_cmci_handler(irq_handler_t fn)
{
	__atomic_store_n(&cmci_handler, fn, __ATOMIC_RELEASE);
}

/* From kernel/arch/entry.asm's VECTOR_CMCI stub. Nobody registered: acknowledge, drop it. */
void irq_cmci(void)
{
	irq_handler_t fn = __atomic_load_n(&cmci_handler, __ATOMIC_ACQUIRE);

	if (fn)
		fn();
	else
		apic_eoi();
}

static irq_handler_t tlb_handler;

void irq_set_tlb_handler(irq_handler_t fn)
{
	__atomic_store_n(&tlb_handler, fn, __ATOMIC_RELEASE);
}

/* From kernel/arch/entry.asm's VECTOR_TLB stub. */
void irq_tlb(void)
{
	irq_handler_t fn = __atomic_load_n(&tlb_handler, __ATOMIC_ACQUIRE);

	if (fn)
		fn();
	else
		apic_eoi();
}

trap_handler_t trap_set_handler(unsigned int vector, trap_handler_t fn)
{
	trap_handler_t prev;

	if (vector >= ARRAY_SIZE(handlers))
		return NULL;
	prev = handlers[vector];
	handlers[vector] = fn;
	return prev;
}

void trap_dispatch(struct pt_regs *regs)
{
	trap_handler_t h = regs->vector < ARRAY_SIZE(handlers) ? handlers[regs->vector] : NULL;

	if (regs->vector == X86_TRAP_NMI && exit_stopping()) {
		/* Another CPU is leaving the machine and stops us: park, NMIs stay blocked. */
		__atomic_store_n(&this_cpu()->state, CPU_STOPPED, __ATOMIC_RELEASE);
		halt_forever();
	}
	if (regs->vector == X86_TRAP_MC)
		trap_last_mc_frame = (u64)(uintptr_t)regs;
	if (h && h(regs))
		return;
	if (regs->vector == X86_TRAP_NMI) {
		/* NMIs come from outside (watchdogs, a BMC button): count, note, carry on. */
		struct nmi_state *st = this_cpu_ptr(&nmi_states);
		u64 nr;

		__atomic_store_n(&st->rec.frame, (u64)(uintptr_t)regs, __ATOMIC_RELAXED);
		nr = __atomic_add_fetch(&st->rec.count, 1, __ATOMIC_RELEASE);
		nmi_capture(st, regs, nr);
		nmi_note_push(st, nr, regs->rip);
		return;
	}
	if (ex_fixup(regs))
		return;
	die(regs);
}
