// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_copy_pages.c - the copy_pages() CANDIDATES of copy/copy_pages.asm (Linux has none)
 * and clear_pages_unrolled, on real memory:
 *
 *   - every page copy is exact at 1..NP pages, at the odd alignments its contract accepts
 *     (any), and touches no byte outside its destination;
 *   - memcpy_pa_rep/_unrolled equal memcpy at every length and alignment tried, and take the
 *     page path exactly when dst, src and len are page multiples (len > 0): a child process
 *     faults the copy on a PROT_NONE page and its signal handler says which routine the
 *     faulting instruction belongs to;
 *   - the machine-check-safe copies stop on a PROT_NONE source page (a stand-in for poison:
 *     the fault shim resumes at the fixup as a #MC recovery would) with the count their
 *     contracts give, and the bytes before the stop are copied;
 *   - the dispatch picks as copy/dispatch.h states, over all 16 feature combinations: the
 *     expectations are a table written from that statement, not from the code.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "copy/ops.h"
#include "copy/routines.h"
#include "tests/host/fault_shim.h"
#include "tests/host/host_test.h"

#define NP	6			/* pages of the largest copy */
#define SPAN	((NP + 2) * 4096)	/* a buffer: a guard page's worth each side */

static uint8_t *src_buf, *dst_buf, *want;

static uint8_t *map(size_t bytes)
{
	uint8_t *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	return p;
}

static void fill(void)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	for (size_t i = 0; i < SPAN; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		src_buf[i] = (uint8_t)x;
	}
	memset(dst_buf, 0xdd, SPAN);
}

/* dst_buf holds src[so, so + len) at do_ and 0xdd everywhere else: count the bytes that don't. */
static size_t wrong(size_t so, size_t do_, size_t len)
{
	size_t bad = 0;

	memset(want, 0xdd, SPAN);
	memcpy(want + do_, src_buf + so, len);
	for (size_t i = 0; i < SPAN; i++)
		bad += dst_buf[i] != want[i];
	return bad;
}

static const size_t offs[][2] = {	/* { source, destination } offsets from a page */
	{ 0, 0 }, { 1, 0 }, { 0, 1 }, { 7, 3 }, { 8, 8 }, { 63, 64 }, { 64, 0 }, { 4095, 1 },
};

typedef void (*pages_fn)(void *dst, const void *src, size_t npages);

static void pages_exact(const char *name, pages_fn fn)
{
	size_t bad_cases = 0;

	for (size_t n = 0; n <= NP; n++)
		for (size_t o = 0; o < ARRAY_SIZE(offs); o++) {
			size_t so = 4096 + offs[o][0], do_ = 4096 + offs[o][1];

			fill();
			fn(dst_buf + do_, src_buf + so, n);
			if (wrong(so, do_, n * 4096)) {
				bad_cases++;
				printf("# %s: %zu pages at +%zu/+%zu wrong\n", name, n, offs[o][0],
				       offs[o][1]);
			}
		}
	CHECK(bad_cases == 0, "%s: %zu of %zu copies wrong", name, bad_cases,
	      (NP + 1) * ARRAY_SIZE(offs));
}

static size_t mc_erms(void *d, const void *s, size_t n)
{
	return copy_mc_pages_erms(d, s, n);
}

static size_t mc_rep(void *d, const void *s, size_t n)
{
	return copy_mc_pages_rep(d, s, n);
}

static size_t mc_unrolled(void *d, const void *s, size_t n)
{
	return copy_mc_pages_unrolled(d, s, n);
}

static size_t (*const mc_fns[])(void *, const void *, size_t) = { mc_erms, mc_rep, mc_unrolled };
static const char *const mc_names[] = { "copy_mc_pages_erms", "copy_mc_pages_rep",
					"copy_mc_pages_unrolled" };

/* The mc copies as page copies that must return 0 on clean memory. */
static unsigned int mc_clean_bad;
static size_t (*mc_cur)(void *, const void *, size_t);

static void mc_as_pages(void *d, const void *s, size_t n)
{
	mc_clean_bad += mc_cur(d, s, n) != 0;
}

static void test_page_copies(void)
{
	pages_exact("copy_pages_erms", copy_pages_erms);
	pages_exact("copy_pages_rep", copy_pages_rep);
	pages_exact("copy_pages_unrolled", copy_pages_unrolled);
	for (size_t i = 0; i < ARRAY_SIZE(mc_fns); i++) {
		mc_cur = mc_fns[i];
		mc_clean_bad = 0;
		pages_exact(mc_names[i], mc_as_pages);
		CHECK(mc_clean_bad == 0, "%s: %u clean copies returned a count", mc_names[i],
		      mc_clean_bad);
	}
}

static void test_clear_pages_unrolled(void)
{
	size_t bad = 0;

	for (size_t n = 0; n <= NP; n++) {
		fill();
		memcpy(dst_buf, src_buf, SPAN);
		clear_pages_unrolled(dst_buf + 4096, n);
		for (size_t i = 0; i < SPAN; i++) {
			bool in = i >= 4096 && i < 4096 + n * 4096;

			bad += dst_buf[i] != (in ? 0 : src_buf[i]);
		}
	}
	CHECK(bad == 0, "clear_pages_unrolled: %zu bytes wrong over 0..%d pages", bad, NP);
}

static void test_memcpy_pa_results(void)
{
	static const size_t lens[] = { 0, 1, 7, 31, 32, 33, 4095, 4096, 4097, 8192, 12288,
				       12296, NP * 4096 };
	void *(*const fns[])(void *, const void *, size_t) = { memcpy_pa_rep, memcpy_pa_unrolled };
	static const char *const names[] = { "memcpy_pa_rep", "memcpy_pa_unrolled" };

	for (size_t f = 0; f < 2; f++) {
		size_t bad_cases = 0, bad_ret = 0;

		for (size_t l = 0; l < ARRAY_SIZE(lens); l++)
			for (size_t o = 0; o < ARRAY_SIZE(offs); o++) {
				size_t so = 4096 + offs[o][0], do_ = 4096 + offs[o][1];

				fill();
				bad_ret += fns[f](dst_buf + do_, src_buf + so, lens[l]) !=
					   dst_buf + do_;
				bad_cases += wrong(so, do_, lens[l]) != 0;
			}
		CHECK(bad_cases == 0 && bad_ret == 0, "%s: %zu copies wrong, %zu bad returns",
		      names[f], bad_cases, bad_ret);
	}
}

/*
 * Which routine a faulting copy was in: a child copies into a PROT_NONE source page and its
 * handler writes the faulting RIP to a pipe. The routine is the one with the greatest entry
 * address at or below it, among those a memcpy_pa copy can run.
 */
static int rip_pipe[2];

static void rip_handler(int sig, siginfo_t *si, void *uc_void)
{
	ucontext_t *uc = uc_void;
	uint64_t rip = (uint64_t)uc->uc_mcontext.gregs[REG_RIP];

	(void)sig;
	(void)si;
	if (write(rip_pipe[1], &rip, sizeof(rip)) != sizeof(rip))
		_exit(3);
	_exit(0);
}

static const struct { const char *name; const void *at; } entries[] = {
	{ "memcpy_orig", (const void *)memcpy_orig },
	{ "memcpy_pa_rep", (const void *)memcpy_pa_rep },
	{ "memcpy_pa_unrolled", (const void *)memcpy_pa_unrolled },
	{ "copy_pages_unrolled", (const void *)copy_pages_unrolled },
};

static const char *faulting_routine(void *(*fn)(void *, const void *, size_t), size_t so,
				    size_t do_, size_t len)
{
	uint64_t rip = 0;
	const char *best = "none";
	uintptr_t best_at = 0;
	pid_t pid;
	int st;

	if (pipe(rip_pipe))
		return "pipe failed";
	pid = fork();
	if (pid == 0) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = rip_handler;
		sa.sa_flags = SA_SIGINFO;
		sigaction(SIGSEGV, &sa, NULL);
		mprotect(src_buf + 4096 + 2 * 4096, 4096, PROT_NONE);	/* the third page */
		fn(dst_buf + do_, src_buf + so, len);
		_exit(4);		/* no fault: the copy did not reach the page */
	}
	close(rip_pipe[1]);
	if (read(rip_pipe[0], &rip, sizeof(rip)) != sizeof(rip))
		rip = 0;
	close(rip_pipe[0]);
	waitpid(pid, &st, 0);
	for (size_t i = 0; rip && i < ARRAY_SIZE(entries); i++) {
		uintptr_t at = (uintptr_t)entries[i].at;

		if (at <= rip && at >= best_at) {
			best_at = at;
			best = entries[i].name;
		}
	}
	return best;
}

static void test_memcpy_pa_routes(void)
{
	static const struct {
		size_t so, do_, len;
		const char *rep, *unrolled;	/* the routine each faults in */
	} r[] = {
		{ 4096, 4096, 4 * 4096, "memcpy_pa_rep", "copy_pages_unrolled" },
		{ 4096, 8192, 3 * 4096, "memcpy_pa_rep", "copy_pages_unrolled" },
		{ 4097, 4096, 4 * 4096, "memcpy_orig", "memcpy_orig" },	/* src off a page */
		{ 4096, 4104, 4 * 4096, "memcpy_orig", "memcpy_orig" },	/* dst off a page */
		{ 4096, 4096, 4 * 4096 - 8, "memcpy_orig", "memcpy_orig" }, /* not whole pages */
		{ 4096, 4096, 3 * 4096 + 64, "memcpy_orig", "memcpy_orig" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(r); i++) {
		const char *a = faulting_routine(memcpy_pa_rep, r[i].so, r[i].do_, r[i].len);
		const char *b = faulting_routine(memcpy_pa_unrolled, r[i].so, r[i].do_, r[i].len);

		CHECK(!strcmp(a, r[i].rep), "memcpy_pa_rep src+%zu dst+%zu len %zu: in %s, want %s",
		      r[i].so - 4096, r[i].do_ - 4096, r[i].len, a, r[i].rep);
		CHECK(!strcmp(b, r[i].unrolled), "memcpy_pa_unrolled src+%zu dst+%zu len %zu: in %s,"
		      " want %s", r[i].so - 4096, r[i].do_ - 4096, r[i].len, b, r[i].unrolled);
	}
}

/*
 * Poison stand-in: source page @bad of @n PROT_NONE. Each routine's contract: erms returns
 * at least the bytes from the bad page on (it may stop earlier); rep the same in whole
 * quadwords; unrolled exactly from the line that faulted, the bad page's first. The bytes
 * before the returned stop are the source's.
 */
static void test_mc_stops(void)
{
	for (size_t f = 0; f < ARRAY_SIZE(mc_fns); f++) {
		size_t bad_cases = 0;

		for (size_t n = 1; n <= NP; n++)
			for (size_t bad = 0; bad < n; bad++) {
				size_t missing = (n - bad) * 4096, ret, copied;
				uint8_t *s = src_buf + 4096, *d = dst_buf + 4096;
				bool ok;

				fill();
				mprotect(s + bad * 4096, 4096, PROT_NONE);
				ret = mc_fns[f](d, s, n);
				mprotect(s + bad * 4096, 4096, PROT_READ | PROT_WRITE);
				copied = n * 4096 - (ret <= n * 4096 ? ret : n * 4096);
				ok = ret >= missing && ret <= n * 4096 && !memcmp(d, s, copied);
				if (f == 1)
					ok = ok && ret % 8 == 0;
				if (f == 2)
					ok = ok && ret == missing;
				if (!ok)
					printf("# %s: %zu pages, page %zu bad: returned %zu\n",
					       mc_names[f], n, bad, ret);
				bad_cases += !ok;
			}
		CHECK(bad_cases == 0, "%s: %zu poisoned copies broke the contract", mc_names[f],
		      bad_cases);
	}
}

/*
 * The decisions as copy/dispatch.h states them, one row per input: copy_pages keyed on ERMS
 * (ERMS wins, as in clear_pages), the FSRM variant and memcpy's page path on FSRM, the
 * mc copy on fragile first. Written out by hand: 16 rows, inputs rep_good/erms/fsrm/fragile.
 */
static const struct {
	bool rep_good, erms, fsrm, fragile;
	const char *cp, *cpf, *pa, *mc;
} want_rows[] = {
	{ 0, 0, 0, 0, "unrolled", "unrolled", "unrolled", "unrolled" },
	{ 0, 0, 0, 1, "unrolled", "unrolled", "unrolled", "unrolled" },
	{ 0, 0, 1, 0, "unrolled", "erms", "erms", "unrolled" },
	{ 0, 0, 1, 1, "unrolled", "erms", "erms", "unrolled" },
	{ 0, 1, 0, 0, "erms", "unrolled", "unrolled", "erms" },
	{ 0, 1, 0, 1, "erms", "unrolled", "unrolled", "unrolled" },
	{ 0, 1, 1, 0, "erms", "erms", "erms", "erms" },
	{ 0, 1, 1, 1, "erms", "erms", "erms", "unrolled" },
	{ 1, 0, 0, 0, "rep", "rep", "rep", "rep" },
	{ 1, 0, 0, 1, "rep", "rep", "rep", "unrolled" },
	{ 1, 0, 1, 0, "rep", "erms", "erms", "rep" },
	{ 1, 0, 1, 1, "rep", "erms", "erms", "unrolled" },
	{ 1, 1, 0, 0, "erms", "rep", "rep", "erms" },
	{ 1, 1, 0, 1, "erms", "rep", "rep", "unrolled" },
	{ 1, 1, 1, 0, "erms", "erms", "erms", "erms" },
	{ 1, 1, 1, 1, "erms", "erms", "erms", "unrolled" },
};

static void test_dispatch_candidates(void)
{
	struct copy_ops saved = copy_ops;

	for (size_t i = 0; i < ARRAY_SIZE(want_rows); i++) {
		struct dispatch_cpu in = { want_rows[i].rep_good, want_rows[i].erms,
					   want_rows[i].fsrm, want_rows[i].fragile };
		struct copy_dispatch d;

		dispatch_decide(&in, &d);
		CHECK(!strcmp(copy_pages_impl_names[d.copy_pages], want_rows[i].cp) &&
		      !strcmp(copy_pages_impl_names[d.copy_pages_fsrm], want_rows[i].cpf) &&
		      !strcmp(memcpy_pa_impl_names[d.memcpy_pa], want_rows[i].pa) &&
		      !strcmp(copy_pages_impl_names[d.copy_mc_pages], want_rows[i].mc),
		      "REP_GOOD %d ERMS %d FSRM %d fragile %d: copy_pages %s fsrm %s memcpy_pa %s "
		      "copy_mc_pages %s; want %s %s %s %s", in.rep_good, in.erms, in.fsrm,
		      in.fragile, copy_pages_impl_names[d.copy_pages],
		      copy_pages_impl_names[d.copy_pages_fsrm], memcpy_pa_impl_names[d.memcpy_pa],
		      copy_pages_impl_names[d.copy_mc_pages], want_rows[i].cp, want_rows[i].cpf,
		      want_rows[i].pa, want_rows[i].mc);
		CHECK(d.copy_pages_why && d.copy_pages_fsrm_why && d.memcpy_pa_why &&
		      d.copy_mc_pages_why && d.clear_pages_why, "row %zu: every choice says why", i);
	}
	/* What copy_ops_apply binds for a REP_GOOD-only CPU (the RFC's Zen 3). */
	{
		struct dispatch_cpu in = { .rep_good = true };
		struct copy_dispatch d;

		dispatch_decide(&in, &d);
		copy_ops_apply(&d);
		CHECK(copy_ops.copy_pages == copy_pages_rep && copy_ops.memcpy_pa == memcpy_pa_rep &&
		      copy_ops.copy_pages_fsrm == copy_pages_rep &&
		      copy_ops.copy_mc_pages == copy_mc_pages_rep &&
		      copy_ops.clear_pages == clear_pages_rep, "REP_GOOD only: the rep bodies");
		in = (struct dispatch_cpu){ 0 };
		dispatch_decide(&in, &d);
		copy_ops_apply(&d);
		CHECK(copy_ops.clear_pages == clear_pages_unrolled &&
		      copy_ops.copy_pages == copy_pages_unrolled &&
		      copy_ops.memcpy_pa == memcpy_pa_unrolled, "no features: the unrolled bodies");
	}
	copy_ops = saved;
}

int main(void)
{
	src_buf = map(SPAN);
	dst_buf = map(SPAN);
	want = map(SPAN);
	fault_shim_install();	/* the routing test's children put their own handler over it */
	return RUN_TESTS(test_page_copies, test_clear_pages_unrolled, test_memcpy_pa_results,
			 test_memcpy_pa_routes, test_mc_stops, test_dispatch_candidates);
}
