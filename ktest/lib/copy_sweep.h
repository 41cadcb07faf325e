/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * copy_sweep.h - correctness and fault sweeps over copy routines, shared by the host test
 * (tests/host/test_copy.c: mprotect and a SIGSEGV shim) and the image
 * (ktest/test_copy.c: page tables and the image's own exception table).
 *
 * The environment supplies buffers and a way to make one page not present; the sweeps
 * report what they found and print nothing.
 */
#ifndef CK_KTEST_LIB_COPY_SWEEP_H
#define CK_KTEST_LIB_COPY_SWEEP_H

#include "kernel/include/types.h"

#define SWEEP_GUARD	64
#define SWEEP_BIG	(2UL << 20)
#define SWEEP_BUF	(SWEEP_BIG + 8 * 4096)	/* bytes in each of src and dst */
#define SWEEP_WINDOW	512
#define REP_MOVSB_SLACK	64	/* rep movsb may stop up to one cache line early */

typedef size_t (*sweep_copy_fn)(void *dst, const void *src, size_t len);

struct sweep_env {
	u8 *src, *dst;			/* SWEEP_BUF bytes each */
	/* Two 4-page areas whose third page (index 2) set_present() toggles. */
	u8 *fault_area, *other_area;
	void (*set_present)(void *page, bool present);
	u64 (*fault_count)(void);	/* faults fixed up so far */
	u64 (*fault_addr)(void);	/* address of the last one */
	/* Alignments to try for lengths 0..256 (NULL: every one of 0..63). */
	const u8 *aligns;
	unsigned int nr_aligns;
	bool big_lengths;		/* also 4095..8193 and 2 MiB */
};

struct sweep_result {
	unsigned long runs, fails;
	size_t len, sa, da;		/* first failure */
	const char *why;
};

struct fault_result {
	unsigned long bad, missed;
	size_t first_offset;
	const char *why;
	size_t max_slack;
};

/* memcpy_erms and memcpy_orig as sweep_copy_fn: 0 when they return dst as memcpy must. */
size_t sweep_memcpy_erms(void *dst, const void *src, size_t len);
size_t sweep_memcpy_orig(void *dst, const void *src, size_t len);

u8 sweep_canary(size_t i);
/* Fill src with a pseudo-random pattern and dst with canaries. */
void sweep_fill(const struct sweep_env *env);
void sweep_copy(const struct sweep_env *env, sweep_copy_fn fn, struct sweep_result *res);
/*
 * A SWEEP_WINDOW-byte copy whose source (@dst_side false) or destination runs into the
 * not-present page after 0..511 bytes. @slack: how many bytes early the routine may stop;
 * @max_faults: faults one copy may take (2 for a store retried byte by byte).
 */
void sweep_fault(const struct sweep_env *env, sweep_copy_fn fn, bool dst_side, size_t slack,
		 unsigned long max_faults, struct fault_result *res);

#endif
