// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_fault.c - the soak_fault= test knobs (knob.h), there to prove the soak reports what it
 * must; nothing outside the soak looks at them, and with the knob off every hook returns at
 * once.
 *
 *   flip     the first soaking CPU after the boot CPU (the boot CPU itself when it soaks
 *            alone), once it has written its first piece, asks the boot CPU to flip one bit
 *            of a word there and waits (bounded) until it has: the verify that follows must
 *            find a stored error at that word;
 *   stuck:N  CPU N, at its first piece, turns interrupts off and spins: the watchdog must
 *            find it silent, name it with its RIP (soak_fault_spin) and finish without it.
 */
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"
#include "tests/soak/run_int.h"

#define FLIP_WAIT_US	5000000ULL
#define FLIP_BIT	13

enum { FLIP_IDLE, FLIP_ASKED, FLIP_DONE, FLIP_OVER };

/* The one request: written by the asking CPU, then by the boot CPU, in turn (@state). */
static struct {
	volatile u32 state;
	u64 pa;
	unsigned int by;
} flip;

static unsigned int flip_asker(void)
{
	return soak.nr_cpus > 1 ? 1 : 0;
}

static void flip_now(void)
{
	volatile u64 *w = (volatile u64 *)(uintptr_t)flip.pa;
	u64 before = *w;

	*w = before ^ (1ULL << FLIP_BIT);
	__asm__ volatile("mfence; clflush (%0); mfence" : : "r"(w) : "memory");
	printk("soak: soak_fault=flip: CPU %u flipped bit %u of the word at 0x%llx (0x%llx -> "
	       "0x%llx), written by CPU %u, before its verify\n", smp_processor_id(), FLIP_BIT,
	       (unsigned long long)flip.pa, (unsigned long long)before,
	       (unsigned long long)(before ^ (1ULL << FLIP_BIT)), flip.by);
	__atomic_store_n(&flip.state, FLIP_DONE, __ATOMIC_RELEASE);
}

void soak_fault_piece_written(unsigned int idx, u64 pa, u64 len)
{
	u64 end;

	if (soak.opts.fault.kind != SOAK_KNOB_FLIP || idx != flip_asker() ||
	    flip.state != FLIP_IDLE)
		return;
	flip.pa = pa + (len / 2 & ~7ULL);	/* a word in the middle of the run */
	flip.by = soak.cpu_of[idx];
	__atomic_store_n(&flip.state, FLIP_ASKED, __ATOMIC_RELEASE);
	if (idx == 0) {
		printk("soak: soak_fault=flip: the boot CPU soaks alone, so it flips the bit itself\n");
		flip_now();
	}
	end = smp_now_us() + FLIP_WAIT_US;
	while (__atomic_load_n(&flip.state, __ATOMIC_ACQUIRE) != FLIP_DONE) {
		this_cpu_ptr(&soak_cpu)->beat++;
		if (smp_now_us() > end) {
			printk("soak: soak_fault=flip: the boot CPU did not flip the bit within 5 s\n");
			break;
		}
		cpu_relax();
	}
	flip.state = FLIP_OVER;
}

void soak_fault_serve(void)
{
	if (soak.opts.fault.kind == SOAK_KNOB_FLIP &&
	    __atomic_load_n(&flip.state, __ATOMIC_ACQUIRE) == FLIP_ASKED)
		flip_now();
}

/* Where stuck:N leaves its CPU: interrupts off, spinning; only an NMI gets in. */
static __attribute__((noinline)) __noreturn void soak_fault_spin(void)
{
	irq_disable();
	for (;;)
		cpu_relax();
}

void soak_fault_stuck_check(unsigned int idx)
{
	if (soak.opts.fault.kind == SOAK_KNOB_STUCK && soak.cpu_of[idx] == soak.opts.fault.cpu &&
	    idx)
		soak_fault_spin();
}
