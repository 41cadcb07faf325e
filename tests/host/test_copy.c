// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_copy.c - every copy/clear primitive of copy/ against a reference, on the host, with
 * the same objects the image links.
 *
 * Correctness: every length 0..256 at every source and destination alignment 0..63; then
 * 4095, 4096, 4097, 8191, 8192, 8193 and 2 MiB at every source alignment, every destination
 * alignment and every equal pair; guard bytes on both sides of the destination must stay.
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
#include "tests/host/fault_shim.h"
#include "tests/host/host_test.h"

#define GUARD		64
#define BIG		(2UL << 20)
#define REP_MOVSB_SLACK	64	/* documented bound: one cache line */

typedef size_t (*copy_fn)(void *, const void *, size_t);

static size_t w_memcpy_erms(void *d, const void *s, size_t n)
{
	memcpy_erms(d, s, n);
	return 0;
}

static size_t w_memcpy_orig(void *d, const void *s, size_t n)
{
	void *r = memcpy_orig(d, s, n);

	return r == d ? 0 : (size_t)-1;		/* memcpy returns dst */
}

static const struct {
	const char *name;
	copy_fn fn;
} copies[] = {
	{ "memcpy_erms", w_memcpy_erms },
	{ "memcpy_orig", w_memcpy_orig },
	{ "copy_mc_fragile", copy_mc_fragile },
	{ "copy_mc_fast_string", copy_mc_fast_string },
	{ "copy_mc_to_kernel", copy_mc_to_kernel },
};

static uint8_t *src_buf, *dst_buf;

static uint8_t canary(size_t i)
{
	return (uint8_t)(i * 7 + 0x5a);
}

static void *map(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	return p;
}

static void setup(void)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	size_t n = BIG + 8 * 4096;

	src_buf = map(n);
	dst_buf = map(n);
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		src_buf[i] = (uint8_t)x;
		dst_buf[i] = canary(i);
	}
}

/* One copy; returns 0 if right, else a code saying what went wrong. */
static int one_copy(copy_fn fn, size_t len, size_t sa, size_t da)
{
	uint8_t *s = src_buf + GUARD + sa, *d = dst_buf + GUARD + da;
	size_t lo = GUARD + da - GUARD, hi = GUARD + da + len + GUARD;
	int bad = 0;

	if (fn(d, s, len) != 0)
		bad = 1;
	else if (memcmp(d, s, len))
		bad = 2;
	for (size_t i = lo; i < hi && !bad; i++)
		if ((i < GUARD + da || i >= GUARD + da + len) && dst_buf[i] != canary(i))
			bad = 3;
	for (size_t i = lo; i < hi; i++)
		dst_buf[i] = canary(i);
	return bad;
}

static const char *const why[] = { "", "nonzero return", "data differs", "guard written" };

static void sweep(copy_fn fn, const char *name)
{
	static const size_t big[] = { 4095, 4096, 4097, 8191, 8192, 8193, BIG };
	unsigned long fails = 0, runs = 0;
	size_t fl = 0, fs = 0, fd = 0;
	int fw = 0;

	for (size_t len = 0; len <= 256; len++)
		for (size_t sa = 0; sa < 64; sa++)
			for (size_t da = 0; da < 64; da++) {
				int r = one_copy(fn, len, sa, da);

				runs++;
				if (r && !fails++) {
					fl = len;
					fs = sa;
					fd = da;
					fw = r;
				}
			}
	for (size_t b = 0; b < sizeof(big) / sizeof(big[0]); b++)
		for (size_t k = 0; k < 3 * 64; k++) {
			size_t sa = k < 64 ? k : k < 128 ? 0 : k - 128;
			size_t da = k < 64 ? 0 : k < 128 ? k - 64 : k - 128;
			int r = one_copy(fn, big[b], sa, da);

			runs++;
			if (r && !fails++) {
				fl = big[b];
				fs = sa;
				fd = da;
				fw = r;
			}
		}
	CHECK(fails == 0, "%s: %lu of %lu copies wrong; first: len %zu src+%zu dst+%zu: %s", name,
	      fails, runs, fl, fs, fd, why[fw]);
}

static void test_memcpy_erms(void) { sweep(copies[0].fn, copies[0].name); }
static void test_memcpy_orig(void) { sweep(copies[1].fn, copies[1].name); }
static void test_copy_mc_fragile(void) { sweep(copies[2].fn, copies[2].name); }
static void test_copy_mc_fast_string(void) { sweep(copies[3].fn, copies[3].name); }

static void test_copy_mc_to_kernel_dispatched(void)
{
	static const enum copy_mc_impl impls[] = { COPY_MC_FRAGILE, COPY_MC_ERMS, COPY_MC_MEMCPY };
	struct copy_dispatch d = { 0 };

	for (size_t i = 0; i < 3; i++) {
		d.copy_mc = impls[i];
		copy_ops_apply(&d);
		sweep(copies[4].fn, copy_mc_impl_names[impls[i]]);
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
		memcpy(srcp, src_buf + round * 4096, 4096);
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
}

static void test_clear_bytes(void)
{
	unsigned long bad = 0;

	for (size_t len = 0; len <= 300; len++)
		for (size_t a = 0; a < 64; a++) {
			uint8_t *p = dst_buf + GUARD + a;

			clear_bytes(p, len);
			for (size_t i = a; i < a + len + 2 * GUARD; i++) {
				uint8_t want = i >= GUARD + a && i < GUARD + a + len ? 0 :
					       canary(i);

				if (dst_buf[i] != want) {
					bad++;
					break;
				}
			}
			for (size_t i = a; i < a + len + 2 * GUARD; i++)
				dst_buf[i] = canary(i);
		}
	CHECK(bad == 0, "clear_bytes: %lu of %d cases wrong", bad, 301 * 64);
}

/*
 * Fault sweep. @where: 0 = the source runs into the PROT_NONE page, 1 = the destination.
 * Returns the largest slack seen (bytes reported left beyond the exact count).
 */
static size_t fault_sweep(copy_fn fn, const char *name, int where, size_t slack_allowed,
			  unsigned long max_faults)
{
	uint8_t *area = map(4 * 4096), *other = map(4 * 4096);
	unsigned long bad = 0, missed = 0;
	size_t max_slack = 0, first_o = 0;
	const char *first_why = NULL;

	mprotect(area + 2 * 4096, 4096, PROT_NONE);
	for (size_t o = 0; o < 512; o++) {
		uint8_t *edge = area + 2 * 4096;
		uint8_t *s = where ? other + 64 : edge - o;
		uint8_t *d = where ? edge - o : other + 64;
		unsigned long before = shim_last.count;
		size_t left, copied, exact = 512 - o;

		memcpy(s, src_buf + 1000, where ? 512 : o);
		for (size_t i = 0; i < (where ? o : 512 + 64); i++)
			d[i] = canary(i);
		left = fn(d, s, 512);
		copied = 512 - left;
		if (shim_last.count < before + 1 || shim_last.count > before + max_faults ||
		    shim_last.addr != (uintptr_t)edge)
			missed++;
		if (left < exact || left > exact + slack_allowed) {
			if (!bad++) {
				first_o = o;
				first_why = "return value";
			}
			continue;
		}
		max_slack = left - exact > max_slack ? left - exact : max_slack;
		if (memcmp(d, s, copied)) {
			if (!bad++) {
				first_o = o;
				first_why = "copied prefix differs";
			}
			continue;
		}
		/* Between the stop point and the fault: old or new bytes, nothing else. */
		for (size_t i = copied; i < o; i++)
			if (d[i] != canary(i) && d[i] != s[i]) {
				if (!bad++) {
					first_o = o;
					first_why = "garbage before the fault";
				}
				break;
			}
		/* Past the fault (source case: the destination is mapped there). */
		for (size_t i = o; !where && i < 512 + 64; i++)
			if (d[i] != canary(i)) {
				if (!bad++) {
					first_o = o;
					first_why = "written after the fault";
				}
				break;
			}
	}
	CHECK(bad == 0, "%s, %s fault: %lu of 512 offsets wrong (first at %zu: %s)", name,
	      where ? "destination" : "source", bad, first_o, first_why ? first_why : "");
	CHECK(missed == 0, "%s: %lu copies without 1..%lu faults at the page edge", name, missed,
	      max_faults);
	munmap(area, 4 * 4096);
	munmap(other, 4 * 4096);
	return max_slack;
}

static void test_fault_sweep_fragile(void)
{
	/* A source fault stops at once; a destination fault may fault twice: the word store,
	 * then the byte store that finds the exact byte. */
	fault_sweep(copy_mc_fragile, "copy_mc_fragile", 0, 0, 1);
	fault_sweep(copy_mc_fragile, "copy_mc_fragile", 1, 0, 2);
}

static void test_fault_sweep_fast_string(void)
{
	size_t a = fault_sweep(copy_mc_fast_string, "copy_mc_fast_string", 0, REP_MOVSB_SLACK, 1);
	size_t b = fault_sweep(copy_mc_fast_string, "copy_mc_fast_string", 1, REP_MOVSB_SLACK, 1);

	printf("# rep movsb stopped at most %zu (source fault) / %zu (destination fault) bytes "
	       "before the faulting byte on this CPU\n", a, b);
}

static void test_extable_of_copy_objects(void)
{
	CHECK(fault_shim_entries() >= 7, "copy/ objects carry %ld exception-table entries",
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
			 test_fault_sweep_fragile, test_fault_sweep_fast_string, test_chunking);
}
