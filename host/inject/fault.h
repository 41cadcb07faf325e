/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host/inject/fault.h - the DRAM faults host/inject/ck-inject.c keeps alive in a QEMU guest's
 * RAM file while the guest runs: how one is written on the command line, and one step of it
 * over the mapped words. Plain C (host libc), host-tested in tests/host/test_inject.c.
 *
 * The guest stores to the same words at the same time (QEMU keeps its RAM in a shared file,
 * REFERENCE.md section 10), so a step changes a word only with an atomic read-modify-write
 * that keeps every other bit the guest wrote (stuck-at), or a compare-and-swap from the value
 * it judged by, so a store that lands between the look and the write is never undone. A
 * store and a load of the same word within one period may still miss the fault: the faults
 * are kept alive for the whole run and a test accepts detection in any pass that should see it.
 *
 * The kinds (ADDR, FROM, OTHER: byte offsets in the file, 8-aligned; BIT 0..63 of the
 * little-endian 64-bit word at ADDR):
 *   stuck0:ADDR:BIT        the bit always reads 0              (stuck-at 0)
 *   stuck1:ADDR:BIT        the bit always reads 1              (stuck-at 1)
 *   zeros:ADDR:BIT         the bit turns 1 whenever its word holds all zeros
 *   ones:ADDR:BIT          the bit turns 0 whenever its word holds all ones
 *   alias:ADDR:FROM        the word at ADDR reads as the word at FROM; stores to ADDR are lost
 *                          (its decoder selects FROM's cell for reads)
 *   cell:ADDR:OTHER        ADDR and OTHER are one cell: a store to either shows at both (when
 *                          both changed within one period the higher address's store wins)
 *   fade:ADDR:BIT:MS       retention: the bit, once 1, decays to 0 MS ms after the word last
 *                          changed (a store of the value it already holds cannot be seen from
 *                          the host, so it does not refresh the cell)
 *   flip:ADDR:BIT[:MS]     a transient flip, once: after the injector is armed (SIGUSR1), the
 *                          first change of the word (the guest wrote it), MS ms later (default
 *                          0), the bit is inverted once
 *   none                   no fault (the fault-free run on the same machine)
 */
#ifndef CK_HOST_INJECT_FAULT_H
#define CK_HOST_INJECT_FAULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum inj_kind { INJ_NONE, INJ_STUCK0, INJ_STUCK1, INJ_ZEROS, INJ_ONES, INJ_ALIAS, INJ_CELL,
		INJ_FADE, INJ_FLIP };

/* flip's progress. */
enum inj_flip_phase { FLIP_WAIT_ARM, FLIP_WAIT_WRITE, FLIP_WAIT_DELAY, FLIP_DONE };

struct inj_fault {
	enum inj_kind kind;
	uint64_t addr;		/* the word the fault acts on */
	uint64_t other;		/* alias: the word read instead; cell: the other address */
	unsigned int bit;
	uint64_t delay_ns;	/* fade: the retention time; flip: after the write seen */
	/* state */
	uint64_t last;		/* cell, fade, flip: the value last seen */
	uint64_t since_ns;	/* fade: when the word last changed; flip: when its write was seen */
	enum inj_flip_phase phase;
	/* what it did */
	uint64_t acted;		/* how many times it changed a word */
	uint64_t first_ns, last_ns;
};

/* One change a step made: the word, its value before and after. */
struct inj_act {
	uint64_t addr, old, new;
};

/* The kind's name as on the command line. */
const char *inj_kind_name(enum inj_kind k);

/*
 * Parse @spec into @f for a RAM file of @ram_size bytes. Returns false with the reason in
 * @why (a whole sentence, naming the spec) when the spec is not one of the kinds above or an
 * address is outside the file or not 8-aligned.
 */
bool inj_parse(const char *spec, uint64_t ram_size, struct inj_fault *f, char *why,
	       size_t why_size);

/* @f in words: "stuck1 at 0x10000000 bit 7". */
void inj_describe(const struct inj_fault *f, char *buf, size_t size);

/* The injector was armed (SIGUSR1): a flip starts watching for its word's next change. */
void inj_arm(struct inj_fault *f, const uint64_t *mem);

/*
 * One step of @f over @mem (the RAM file mapped, as 64-bit words) at @now_ns. Returns true
 * when it changed a word, described in @act.
 */
bool inj_step(struct inj_fault *f, uint64_t *mem, uint64_t now_ns, struct inj_act *act);

#endif
