// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_copy.c - every copy/clear primitive of copy/ against a reference, on the host, with
 * the same objects the image links.
 *
 * Correctness: every length 0..256 at every source and destination alignment 0..63; then
 * 4095, 4096, 4097, 8191, 8192, 8193 and 2 MiB at every source alignment, every destination
 * alignment and every equal pair; guard bytes on both sides of the destination must stay.
 * The sweeps themselves live in ktest/lib/copy_sweep.c, shared with the in-image suite.
 *
 * Faults (machine-check-safe routines): a 512-byte copy whose source, or destination, runs
 * into a PROT_NONE page after 0..511 bytes. The fault shim resumes at the routine's fixup.
 * copy_mc_fragile must return exactly the bytes left; copy_mc_fast_string (rep movsb) may
 * stop up to REP_MOVSB_SLACK bytes early, never late. The bytes before the stop point must
 * be copied, and nothing at or after the fault may be written.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "copy/ops.h"
#include "copy/routines.h"
#include "ktest/lib/copy_sweep.h"
#include "tests/host/fault_shim.h"
#include "tests/host/host_test.h"

typedef size_t (*copy_fn)(void *, const void *, size_t);

static struct sweep_env env;

static void *map(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	return p;
}

static void set_present(void *page, bool present)
{
	mprotect(page, 4096, present ? PROT_READ | PROT_WRITE : PROT_NONE);
}

static u64 fault_count(void)
{
	return shim_last.count;
}

static u64 fault_addr(void)
{
	return shim_last.addr;
}

static void setup(void)
{
	env = (struct sweep_env){
		.src = map(SWEEP_BUF), .dst = map(SWEEP_BUF),
		.fault_area = map(4 * 4096), .other_area = map(4 * 4096),
		.set_present = set_present, .fault_count = fault_count,
		.fault_addr = fault_addr, .big_lengths = true,
	};
	sweep_fill(&env);
}

static void sweep(copy_fn fn, const char *name)
{
	struct sweep_result r;

	sweep_copy(&env, fn, &r);
	CHECK(r.fails == 0, "%s: %lu of %lu copies wrong; first: len %zu src+%zu dst+%zu: %s",
	      name, r.fails, r.runs, r.len, r.sa, r.da, r.why);
	printf("# %s: %lu copies checked\n", name, r.runs);
}

static void test_memcpy_erms(void) { sweep(sweep_memcpy_erms, "memcpy_erms"); }
static void test_memcpy_orig(void) { sweep(sweep_memcpy_orig, "memcpy_orig"); }
static void test_copy_mc_fragile(void) { sweep(copy_mc_fragile, "copy_mc_fragile"); }
static void test_copy_mc_fast_string(void) { sweep(copy_mc_fast_string, "copy_mc_fast_string"); }

/* The host CPU decides which candidates can run here; a missing feature is a skip. */
static bool have(const char *feature)
{
	__builtin_cpu_init();
	if (!strcmp(feature, "avx2"))
		return __builtin_cpu_supports("avx2");
	if (!strcmp(feature, "avx512f"))
		return __builtin_cpu_supports("avx512f");
	if (!strcmp(feature, "clzero")) {
		unsigned int a, b, c, d;

		__asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0x80000000u), "c"(0));
		if (a < 0x80000008u)
			return false;
		__asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0x80000008u), "c"(0));
		return b & 1;
	}
	return false;
}

static void test_copy_mc_avx2_nt(void)
{
	if (!have("avx2")) {
		SKIP("no AVX2 on this CPU");
		return;
	}
	sweep(copy_mc_avx2_nt, "copy_mc_avx2_nt");
}

static void test_copy_mc_avx512_nt(void)
{
	if (!have("avx512f")) {
		SKIP("no AVX-512F on this CPU");
		return;
	}
	sweep(copy_mc_avx512_nt, "copy_mc_avx512_nt");
}

static void test_copy_mc_to_kernel_dispatched(void)
{
	static const enum copy_mc_impl impls[] = { COPY_MC_FRAGILE, COPY_MC_ERMS, COPY_MC_MEMCPY };
	struct copy_dispatch d = { 0 };

	for (size_t i = 0; i < 3; i++) {
		d.copy_mc = impls[i];
		copy_ops_apply(&d);
		sweep(copy_mc_to_kernel, copy_mc_impl_names[impls[i]]);
	}
}

/* Pages: random source pages, copy, compare; a guard page each side of the destination. */
static void page_copy_check(void (*fn)(void *, const void *), const char *name)
{
	uint8_t *dst = map(6 * 4096);
	uint8_t *srcp = map(2 * 4096);
	unsigned long bad = 0;

	/* The source page sits right below a PROT_NONE page: no read past it may happen. */
	mprotect(srcp + 4096, 4096, PROT_NONE);
	for (int round = 0; round < 64; round++) {
		memcpy(srcp, env.src + round * 4096, 4096);
		memset(dst, 0xee, 6 * 4096);
		fn(dst + 2 * 4096, srcp);
		if (memcmp(dst + 2 * 4096, srcp, 4096))
			bad++;
		for (size_t i = 0; i < 6 * 4096; i++)
			if ((i < 2 * 4096 || i >= 3 * 4096) && dst[i] != 0xee) {
				bad++;
				break;
			}
	}
	CHECK(bad == 0, "%s: %lu of 64 page copies wrong", name, bad);
	munmap(dst, 6 * 4096);
	munmap(srcp, 2 * 4096);
}

static void test_copy_page_rep(void) { page_copy_check(copy_page_rep, "copy_page_rep"); }
static void test_copy_page_unrolled(void)
{
	page_copy_check(copy_page_unrolled, "copy_page_unrolled");
}

static void clear_check(const char *name, void (*one)(void *), void (*many)(void *, size_t))
{
	uint8_t *buf = map(10 * 4096);
	unsigned long bad = 0;

	for (size_t n = 1; n <= 6; n++) {
		memset(buf, 0x77, 10 * 4096);
		if (many)
			many(buf + 2 * 4096, n);
		else
			for (size_t i = 0; i < n; i++)
				one(buf + (2 + i) * 4096);
		for (size_t i = 0; i < 10 * 4096; i++) {
			int inside = i >= 2 * 4096 && i < (2 + n) * 4096;

			if (buf[i] != (inside ? 0 : 0x77)) {
				bad++;
				break;
			}
		}
	}
	CHECK(bad == 0, "%s: %lu of 6 extents wrong", name, bad);
	munmap(buf, 10 * 4096);
}

static void test_clear_pages(void)
{
	clear_check("clear_page_erms", clear_page_erms, NULL);
	clear_check("clear_page_rep", clear_page_rep, NULL);
	clear_check("clear_page_unrolled", clear_page_unrolled, NULL);
	clear_check("clear_pages_erms", NULL, clear_pages_erms);
	clear_check("clear_pages_rep", NULL, clear_pages_rep);
	clear_check("clear_page_nt", clear_page_nt, NULL);
	clear_check("clear_pages_nt", NULL, clear_pages_nt);
	if (have("clzero")) {
		clear_check("clear_page_clzero", clear_page_clzero, NULL);
		clear_check("clear_pages_clzero", NULL, clear_pages_clzero);
	} else {
		printf("# clear_pages_clzero not run: no CLZERO on this CPU\n");
	}
}

static void test_clear_bytes(void)
{
	unsigned long bad = 0;

	for (size_t len = 0; len <= 300; len++)
		for (size_t a = 0; a < 64; a++) {
			u8 *p = env.dst + SWEEP_GUARD + a;

			clear_bytes(p, len);
			for (size_t i = a; i < a + len + 2 * SWEEP_GUARD; i++) {
				u8 want = i >= SWEEP_GUARD + a && i < SWEEP_GUARD + a + len ? 0 :
					  sweep_canary(i);

				if (env.dst[i] != want) {
					bad++;
					break;
				}
			}
			for (size_t i = a; i < a + len + 2 * SWEEP_GUARD; i++)
				env.dst[i] = sweep_canary(i);
		}
	CHECK(bad == 0, "clear_bytes: %lu of %d cases wrong", bad, 301 * 64);
}

static size_t fault(copy_fn fn, const char *name, bool dst_side, size_t slack,
		    unsigned long max_faults)
{
	struct fault_result r;

	sweep_fault(&env, fn, dst_side, slack, max_faults, &r);
	CHECK(r.bad == 0, "%s, %s fault: %lu of 512 offsets wrong (first at %zu: %s)", name,
	      dst_side ? "destination" : "source", r.bad, r.first_offset, r.why ? r.why : "");
	CHECK(r.missed == 0, "%s: %lu copies without 1..%lu faults at the page edge", name,
	      r.missed, max_faults);
	return r.max_slack;
}

static void test_fault_sweep_fragile(void)
{
	/* A source fault stops at once; a destination fault may fault twice: the word store,
	 * then the byte store that finds the exact byte. */
	fault(copy_mc_fragile, "copy_mc_fragile", false, 0, 1);
	fault(copy_mc_fragile, "copy_mc_fragile", true, 0, 2);
}

static void test_fault_sweep_fast_string(void)
{
	size_t a = fault(copy_mc_fast_string, "copy_mc_fast_string", false, REP_MOVSB_SLACK, 1);
	size_t b = fault(copy_mc_fast_string, "copy_mc_fast_string", true, REP_MOVSB_SLACK, 1);

	printf("# rep movsb stopped at most %zu (source fault) / %zu (destination fault) bytes "
	       "before the faulting byte on this CPU\n", a, b);
}

static void test_fault_sweep_nt(void)
{
	/*
	 * The source is cache-line aligned before the first block (or, when source and
	 * destination differ in their low bits, the whole copy goes to copy_mc_fragile), so no
	 * block load straddles the faulting line: a source fault at a line boundary is exact.
	 * Aligning the destination instead let a block start up to 63 bytes before the edge.
	 * A store fault is retried by copy_mc_fragile, which may fault twice more on its own.
	 */
	if (have("avx2")) {
		fault(copy_mc_avx2_nt, "copy_mc_avx2_nt", false, 0, 1);
		fault(copy_mc_avx2_nt, "copy_mc_avx2_nt", true, 0, 3);
	} else {
		printf("# copy_mc_avx2_nt not run: no AVX2\n");
	}
	if (have("avx512f")) {
		fault(copy_mc_avx512_nt, "copy_mc_avx512_nt", false, 0, 1);
		fault(copy_mc_avx512_nt, "copy_mc_avx512_nt", true, 0, 3);
	} else {
		printf("# copy_mc_avx512_nt not run: no AVX-512F\n");
	}
}

static void test_extable_of_copy_objects(void)
{
	CHECK(fault_shim_entries() >= 13, "copy/ objects carry %ld exception-table entries",
	      fault_shim_entries());
	CHECK(fault_shim_valid(), "the table sorts and validates");
}

/* copy_mc_to_kernel splits at COPY_MC_CHUNK: checked with a recording stand-in. */
static size_t calls, call_len[8], fail_on_call, fail_left;

static size_t recorder(void *d, const void *s, size_t n)
{
	(void)d;
	(void)s;
	if (calls < 8)
		call_len[calls] = n;
	calls++;
	return calls == fail_on_call ? fail_left : 0;
}

static void test_chunking(void)
{
	size_t len = 5 * COPY_MC_CHUNK / 2 + 123, r;
	void *d = (void *)(uintptr_t)0x100000000ULL, *s = (void *)(uintptr_t)0x800000000ULL;

	calls = 0;
	fail_on_call = 0;
	r = copy_mc_chunked(recorder, d, s, len, COPY_MC_CHUNK);
	CHECK(r == 0 && calls == 3, "%zu calls, return %zu", calls, r);
	CHECK(call_len[0] == COPY_MC_CHUNK && call_len[1] == COPY_MC_CHUNK &&
	      call_len[2] == COPY_MC_CHUNK / 2 + 123, "chunk sizes %zu %zu %zu", call_len[0],
	      call_len[1], call_len[2]);
	calls = 0;
	fail_on_call = 2;
	fail_left = 100;
	r = copy_mc_chunked(recorder, d, s, len, COPY_MC_CHUNK);
	CHECK(calls == 2 && r == len - COPY_MC_CHUNK - COPY_MC_CHUNK + 100,
	      "a fault in the 2nd chunk: %zu left, want %zu", r,
	      (size_t)(len - 2 * COPY_MC_CHUNK + 100));
	CHECK(COPY_MC_CHUNK <= 0xffffffffULL, "every chunk fits Linux's 32-bit length");
}

int main(void)
{
	setup();
	fault_shim_install();
	return RUN_TESTS(test_extable_of_copy_objects, test_memcpy_erms, test_memcpy_orig,
			 test_copy_mc_fragile, test_copy_mc_fast_string,
			 test_copy_mc_to_kernel_dispatched, test_copy_page_rep,
			 test_copy_page_unrolled, test_clear_pages, test_clear_bytes,
			 test_fault_sweep_fragile, test_fault_sweep_fast_string, test_chunking,
			 test_copy_mc_avx2_nt, test_copy_mc_avx512_nt, test_fault_sweep_nt);
}
