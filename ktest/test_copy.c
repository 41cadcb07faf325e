// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_copy.c - the copy/clear primitives inside the image, on its own page tables: the
 * dispatch matches Linux's rules for this CPU, every routine passes the correctness sweep
 * (lengths 0..256 at six alignments each side, plus 4095..8193 and 2 MiB), and the
 * machine-check-safe routines pass the 512-offset fault sweep against a not-present 4 KiB
 * page, recovered through the image's exception table.
 */
#include "copy/ops.h"
#include "copy/routines.h"
#include "kernel/arch/bootmem.h"
#include "kernel/arch/paging.h"
#include "kernel/arch/traps.h"
#include "ktest/lib/copy_sweep.h"
#include "ktest/lib/ctx.h"
#include "ktest/lib/ktap.h"

static const u8 aligns[] = { 0, 1, 7, 8, 31, 63 };
static struct sweep_env env;
static bool env_ready;

static void set_present(void *page, bool present)
{
	u64 a = (u64)(uintptr_t)page;

	pg_set_attr(a, a + SZ_4K, present ? PG_RAM : PG_CACHE(PG_CACHE_WB));
}

static u64 fault_count(void)
{
	return ex_last.count;
}

static u64 fault_addr(void)
{
	return ex_last.cr2;
}

static bool get_env(struct ck_test *t)
{
	if (env_ready)
		return true;
	env = (struct sweep_env){
		.src = (u8 *)(uintptr_t)bootmem_alloc(SWEEP_BUF, SZ_2M),
		.dst = (u8 *)(uintptr_t)bootmem_alloc(SWEEP_BUF, SZ_2M),
		.fault_area = (u8 *)(uintptr_t)bootmem_alloc(4 * SZ_4K, SZ_4K),
		.other_area = (u8 *)(uintptr_t)bootmem_alloc(4 * SZ_4K, SZ_4K),
		.set_present = set_present, .fault_count = fault_count,
		.fault_addr = fault_addr, .aligns = aligns, .nr_aligns = ARRAY_SIZE(aligns),
		.big_lengths = true,
	};
	if (!report(t, env.src && env.dst && env.fault_area && env.other_area,
		    "test buffers allocated"))
		return false;
	sweep_fill(&env);
	env_ready = true;
	return true;
}

static void dispatch_matches_linux(struct ck_test *t)
{
	struct copy_dispatch linux_choice;
	const struct copy_dispatch *d = &copy_ops.choice;

	linux_choice = t->ctx->linux_choice;
	ck_diag("copy_page=%s memcpy=%s copy_mc=%s clear_page=%s",
		copy_page_impl_names[d->copy_page], memcpy_impl_names[d->memcpy],
		copy_mc_impl_names[d->copy_mc], clear_page_impl_names[d->clear_page]);
	if (d->copy_page != linux_choice.copy_page || d->memcpy != linux_choice.memcpy ||
	    d->copy_mc != linux_choice.copy_mc || d->clear_page != linux_choice.clear_page) {
		ck_skip(t, "primitives overridden on the command line");
		return;
	}
	report(t, copy_ops.copy_page == (d->copy_page == COPY_PAGE_REP ? copy_page_rep :
					 copy_page_unrolled), "copy_page bound to its choice");
	report(t, copy_ops.memcpy == (d->memcpy == MEMCPY_ERMS ? memcpy_erms : memcpy_orig),
	       "memcpy bound to its choice");
}

static void sweep_one(struct ck_test *t, sweep_copy_fn fn, const char *name)
{
	struct sweep_result r;

	if (!get_env(t))
		return;
	sweep_copy(&env, fn, &r);
	report(t, r.fails == 0, "%s: %lu of %lu copies wrong; first: len %zu src+%zu dst+%zu: %s",
	       name, r.fails, r.runs, r.len, r.sa, r.da, r.why ? r.why : "");
	ck_diag("%s: %lu copies checked", name, r.runs);
}

static void memcpy_erms_sweep(struct ck_test *t)
{
	sweep_one(t, sweep_memcpy_erms, "memcpy_erms");
}

static void memcpy_orig_sweep(struct ck_test *t)
{
	sweep_one(t, sweep_memcpy_orig, "memcpy_orig");
}
static void copy_mc_fragile_sweep(struct ck_test *t)
{
	sweep_one(t, copy_mc_fragile, "copy_mc_fragile");
}
static void copy_mc_fast_string_sweep(struct ck_test *t)
{
	sweep_one(t, copy_mc_fast_string, "copy_mc_fast_string");
}
static void copy_mc_to_kernel_sweep(struct ck_test *t)
{
	sweep_one(t, copy_mc_to_kernel, "copy_mc_to_kernel");
}

static bool can_avx2(struct ck_test *t)
{
	return t->ctx->caps.avx2;
}

static bool can_avx512(struct ck_test *t)
{
	return t->ctx->caps.avx512f;
}

static void copy_mc_avx2_nt_sweep(struct ck_test *t)
{
	if (!can_avx2(t)) {
		ck_skip(t, "no AVX2 on this CPU");
		return;
	}
	sweep_one(t, copy_mc_avx2_nt, "copy_mc_avx2_nt");
}

static void copy_mc_avx512_nt_sweep(struct ck_test *t)
{
	if (!can_avx512(t)) {
		ck_skip(t, "no AVX-512F on this CPU");
		return;
	}
	sweep_one(t, copy_mc_avx512_nt, "copy_mc_avx512_nt");
}

static void page_routines(struct ck_test *t)
{
	void (*const copies[])(void *, const void *) = { copy_page_rep, copy_page_unrolled };
	struct dispatch_caps caps;
	void (*clears[5])(void *) = {
		clear_page_erms, clear_page_rep, clear_page_unrolled, clear_page_nt, clear_page_nt,
	};
	u8 *buf;
	unsigned long bad = 0;

	if (!get_env(t))
		return;
	caps = t->ctx->caps;
	if (caps.clzero)
		clears[4] = clear_page_clzero;
	buf = env.dst;		/* pages 1..3 of dst: page 2 is the target, 1 and 3 guards */
	for (unsigned int k = 0; k < ARRAY_SIZE(copies); k++) {
		for (size_t i = 0; i < 4 * 4096; i++)
			buf[i] = 0xee;
		copies[k](buf + 2 * 4096, env.src + k * 4096);
		for (size_t i = 0; i < 4 * 4096; i++) {
			bool in = i >= 2 * 4096 && i < 3 * 4096;

			if (buf[i] != (in ? env.src[k * 4096 + i - 2 * 4096] : 0xee)) {
				bad++;
				break;
			}
		}
	}
	report(t, bad == 0, "copy_page_rep/unrolled: %lu wrong", bad);
	for (unsigned int k = 0; k < ARRAY_SIZE(clears) + 2; k++) {
		for (size_t i = 0; i < 8 * 4096; i++)
			buf[i] = 0x77;
		if (k < ARRAY_SIZE(clears))
			clears[k](buf + 2 * 4096);
		else if (k == ARRAY_SIZE(clears))
			clear_pages_erms(buf + 2 * 4096, 3);
		else
			clear_pages_rep(buf + 2 * 4096, 3);
		for (size_t i = 0; i < 8 * 4096; i++) {
			size_t end = k < ARRAY_SIZE(clears) ? 3 * 4096 : 5 * 4096;

			if (buf[i] != (i >= 2 * 4096 && i < end ? 0 : 0x77)) {
				bad++;
				break;
			}
		}
	}
	report(t, bad == 0, "clear_page/clear_pages variants: %lu wrong", bad);
	for (size_t i = 0; i < 8 * 4096; i++)
		buf[i] = sweep_canary(i);
}

static void fault_one(struct ck_test *t, sweep_copy_fn fn, const char *name, bool dst_side,
		      size_t slack, unsigned long max_faults)
{
	struct fault_result r;

	if (!get_env(t))
		return;
	sweep_fault(&env, fn, dst_side, slack, max_faults, &r);
	report(t, r.bad == 0, "%s, %s fault: %lu of 512 offsets wrong (first at %zu: %s)", name,
	       dst_side ? "destination" : "source", r.bad, r.first_offset, r.why ? r.why : "");
	report(t, r.missed == 0, "%s: %lu copies without 1..%lu #PF at the page edge", name,
	       r.missed, max_faults);
	if (slack)
		ck_diag("%s stopped at most %zu bytes early", name, r.max_slack);
}

static void nt_faults(struct ck_test *t)
{
	if (!can_avx2(t)) {
		ck_skip(t, "no AVX2 on this CPU");
		return;
	}
	fault_one(t, copy_mc_avx2_nt, "copy_mc_avx2_nt", false, 0, 1);
	fault_one(t, copy_mc_avx2_nt, "copy_mc_avx2_nt", true, 0, 3);
	if (can_avx512(t)) {
		fault_one(t, copy_mc_avx512_nt, "copy_mc_avx512_nt", false, 0, 1);
		fault_one(t, copy_mc_avx512_nt, "copy_mc_avx512_nt", true, 0, 3);
	}
}

static void fragile_source_fault(struct ck_test *t)
{
	fault_one(t, copy_mc_fragile, "copy_mc_fragile", false, 0, 1);
}

static void fragile_destination_fault(struct ck_test *t)
{
	fault_one(t, copy_mc_fragile, "copy_mc_fragile", true, 0, 2);
}

static void fast_string_source_fault(struct ck_test *t)
{
	fault_one(t, copy_mc_fast_string, "copy_mc_fast_string", false, REP_MOVSB_SLACK, 1);
}

static void fast_string_destination_fault(struct ck_test *t)
{
	fault_one(t, copy_mc_fast_string, "copy_mc_fast_string", true, REP_MOVSB_SLACK, 1);
}

CK_SUITE(copy, 80,
	 CK_CASE(dispatch_matches_linux),
	 CK_CASE(memcpy_erms_sweep),
	 CK_CASE(memcpy_orig_sweep),
	 CK_CASE(copy_mc_fragile_sweep),
	 CK_CASE(copy_mc_fast_string_sweep),
	 CK_CASE(copy_mc_to_kernel_sweep),
	 CK_CASE(copy_mc_avx2_nt_sweep),
	 CK_CASE(copy_mc_avx512_nt_sweep),
	 CK_CASE(page_routines),
	 CK_CASE(fragile_source_fault),
	 CK_CASE(fragile_destination_fault),
	 CK_CASE(fast_string_source_fault),
	 CK_CASE(fast_string_destination_fault),
	 CK_CASE(nt_faults));
