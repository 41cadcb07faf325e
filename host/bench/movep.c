// SPDX-License-Identifier: GPL-2.0-only
/*
 * host/bench/movep.c - move_pages(2) end to end, hosted, the last part of the `migrate` preset:
 * Linux's own migration of a process's folios from one NUMA node to another, timed call by
 * call, beside the project's copy of the same bytes between the same two nodes, so that the
 * copy's share of a real migration is measured, not assumed (seed 000's 2x copy against its
 * 1.07-1.18x move_pages).
 *
 *   nodes     the first two of /sys/devices/system/node/has_memory. With one, nothing is
 *             measured, and the run says so (a movepages-not-measured record).
 *   mappings  the moved one, per folio size: 4 KiB pages (MADV_NOHUGEPAGE), 2 MiB THP
 *             (MADV_HUGEPAGE; measured only when every folio is a THP) and 1 GiB hugetlb
 *             (MAP_HUGE_1GB; measured only when each node's pool has a free 1 GiB page: a
 *             move takes one on its target node). PROT_NONE guards keep the mapping its own
 *             VMA, whose AnonHugePages (/proc/self/smaps) counts its THPs. Every buffer is
 *             faulted in on its node and then bound to the two (mbind), which keeps NUMA
 *             balancing away from it.
 *   round     cache-cold (the eviction buffer streamed before each timing), five timings in
 *             an order that rotates from round to round, the direction alternating a -> b,
 *             b -> a:
 *               move     one move_pages() call, one address per folio, to the other node;
 *               copies   the project's folio_copy and folio_mc_copy, each per page and
 *                        batched, folio by folio between two buffers on the two nodes, in
 *                        the move's direction (4 KiB folios: batched is per page, by
 *                        construction; for 1 GiB folios the buffers are THP, as a
 *                        copy's page size barely matters to it);
 *             then, not timed: every 4 KiB page's node asked back (move_pages with no
 *             nodes), every word of the mapping checked and rewritten for the next round (a
 *             move that lost data reads the last round's words), and the first and last
 *             64 bytes of each 4 KiB page of each copy's destination cleared before and
 *             compared after.
 *   figures   per round, copy share = per-page copy / move; the copy's batched speed-up;
 *             and the move's speed-up had the kernel copied batched, T / (T - C + C'). Each
 *             is the median over rounds with the rounds' bootstrap 95% CI (one process, one
 *             placement: `P=1`).
 *
 * Inside move_pages the kernel copies with its own code (per page, copy_highpage(), on x86
 * copy_page()); the project's per-page folio_copy, under Linux's dispatch rules, stands for it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/mempolicy.h>
#include <linux/mman.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench/migrate_calc.h"
#include "bench/migrate_copy.h"
#include "bench/stats.h"
#include "host/bench/mig.h"
#include "host/lib/machine.h"
#include "kernel/lib/format.h"
#include "kernel/lib/json.h"
#include "kernel/mm/page.h"

#define MP_ROUNDS	64		/* at most, a folio size */
#define MP_ROUNDS_1G	10
#define MP_THP		SZ_2M
#define MP_GIB		SZ_1G
#define MP_NODES_MAX	CK_HOST_NODES_MAX	/* node numbers below it */

/* What a round times: the move, then each copy form (1 + enum mig_copy). */
enum mp_op { MP_MOVE, MP_NR_OPS = 1 + MIG_NR_COPIES };
#define MP_COPY(c)	(1 + (c))
#define MP_FORM(op)	((enum mig_copy)((op) - 1))	/* MP_COPY's inverse */

struct mp_kind {
	const char *name;
	u64 folio, bytes, tiny_bytes;
};

static const struct mp_kind mp_kinds[] = {
	{ "4 KiB", PAGE_SIZE, 64UL << 20, 4UL << 20 },
	{ "2 MiB", MP_THP, 64UL << 20, 8UL << 20 },
	{ "1 GiB", MP_GIB, MP_GIB, MP_GIB },
};

/* One folio size's buffers and its run so far. */
struct mp_set {
	const struct mp_kind *k;
	size_t bytes, nf, np;		/* bytes, folios, 4 KiB pages */
	u8 *m, *x, *y;			/* the moved mapping; the copy's buffers on nodes a, b */
	void *m_map, *x_map, *y_map;
	size_t m_len, xy_len;
	struct page *fx, *fy;		/* x's and y's frames, registered with pgmap_add() */
	void **addrs;			/* every 4 KiB page of m */
	int *nodes, *status;
	unsigned int a, b, gen;
	u64 ns[MP_NR_OPS][MP_ROUNDS];
};

static u64 word_at(u64 w, unsigned int gen)
{
	return (w + 1 + (u64)gen * 0x100000001b3ULL) * 0x9e3779b97f4a7c15ULL;
}

static long move_pages_(unsigned long n, void **pages, const int *nodes, int *status)
{
	return syscall(SYS_move_pages, 0, n, pages, nodes, status, MPOL_MF_MOVE);
}

/*
 * Fault [@buf, + @bytes) in on node @home by @fault, then bind it to both nodes. A VMA policy
 * of its own lacks the default policy's migrate-on-fault flag, so automatic NUMA balancing's
 * scanner passes the range by; left to it, the scanner marks the range's entries PROT_NONE
 * for its hinting faults (move_pages then finds no page there: -EFAULT) and moves pages
 * itself. move_pages is not bound by the policy. False when mbind failed.
 */
static bool fault_on(u8 *buf, size_t bytes, unsigned int home, unsigned int other,
		     void (*fault)(u8 *buf, size_t bytes))
{
	if (!ck_host_bind(buf, bytes, home, -1))
		return false;
	fault(buf, bytes);
	return ck_host_bind(buf, bytes, home, (int)other);
}

/* The nodes with memory, from sysfs; how many (at most @max). */
static unsigned int memory_nodes(unsigned int *nodes, unsigned int max)
{
	char list[512];

	ck_host_read_line("/sys/devices/system/node/has_memory", list, sizeof(list));
	return mig_parse_list(list, nodes, max);
}

static long free_1g_pages(unsigned int node)
{
	char path[128];

	ck_snprintf(path, sizeof(path), "/sys/devices/system/node/node%u/hugepages/"
		    "hugepages-1048576kB/free_hugepages", node);
	return ck_host_read_long(path);
}

/*
 * @bytes at an @align boundary, between PROT_NONE guards (so the range is a VMA of its own),
 * advised @advice; the whole reservation in *@map and *@len (for munmap). NULL on failure.
 */
static u8 *map_guarded(size_t bytes, size_t align, int advice, void **map, size_t *len)
{
	u8 *p, *start;

	*len = bytes + 2 * align;
	p = mmap(NULL, *len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		*map = NULL;
		return NULL;
	}
	*map = p;
	start = (u8 *)(((uintptr_t)p + align) & ~(uintptr_t)(align - 1));
	if (mprotect(start, bytes, PROT_READ | PROT_WRITE) || madvise(start, bytes, advice))
		return NULL;
	return start;
}

static void fill(u8 *buf, size_t bytes, unsigned int gen)
{
	u64 *w = (u64 *)buf;

	for (u64 i = 0; i < bytes / 8; i++)
		w[i] = word_at(i, gen);
}

static void fill0(u8 *buf, size_t bytes)
{
	fill(buf, bytes, 0);
}

static void clear_db(u8 *buf, size_t bytes)
{
	memset(buf, 0xdb, bytes);
}

static u64 wrong_words(const u8 *buf, size_t bytes, unsigned int gen)
{
	const u64 *w = (const u64 *)buf;
	u64 bad = 0;

	for (u64 i = 0; i < bytes / 8; i++)
		bad += w[i] != word_at(i, gen);
	return bad;
}

/* s->addrs and s->nodes for a move of @n addresses @step apart from @buf to @node. */
static void prep(struct mp_set *s, u8 *buf, size_t n, size_t step, int node)
{
	for (size_t i = 0; i < n; i++) {
		s->addrs[i] = buf + i * step;
		s->nodes[i] = node;
		s->status[i] = -1;
	}
}

/* The first of s->status[0 .. @n) that is not @node (its index in *@at), or @node. */
static int first_off(const struct mp_set *s, size_t n, int node, size_t *at)
{
	for (size_t i = 0; i < n; i++)
		if (s->status[i] != node) {
			*at = i;
			return s->status[i];
		}
	return node;
}

/* The 4 KiB pages of [@buf, + s->bytes) not on @node, in s->addrs[0 ..) (asked, no move). */
static size_t pages_off(struct mp_set *s, u8 *buf, int node)
{
	size_t np = s->bytes >> PAGE_SHIFT, k = 0;

	for (size_t i = 0; i < np; i++)
		s->addrs[i] = buf + i * PAGE_SIZE;
	if (move_pages_(np, s->addrs, NULL, s->status))
		return np;
	for (size_t i = 0; i < np; i++)
		if (s->status[i] != node)
			s->addrs[k++] = buf + i * PAGE_SIZE;
	return k;
}

/*
 * Move [@buf, + s->bytes) to @node: one address every @step (a whole THP moves for its
 * first address; another address of it in the same call would find it busy), then each
 * 4 KiB page still elsewhere on its own. False (said) when some page stayed.
 */
static bool place(const struct bench_env *env, struct mp_set *s, u8 *buf, size_t step, int node,
		  const char *what)
{
	size_t n = s->bytes / step, at = 0, left;
	long ret;
	int st = node;

	prep(s, buf, n, step, node);
	ret = move_pages_(n, s->addrs, s->nodes, s->status);
	left = ret < 0 ? 0 : pages_off(s, buf, node);
	if (ret >= 0 && left) {
		for (size_t i = 0; i < left; i++)
			s->nodes[i] = node;
		ret = move_pages_(left, s->addrs, s->nodes, s->status);
		st = first_off(s, left, node, &at);
	}
	if (!ret && st == node)
		return true;
	if (ret < 0)
		bench_failf(env, "migrate (hosted): move_pages of the %s %s to node %d failed: %s",
			    s->k->name, what, node, strerror(errno));
	else
		bench_failf(env, "migrate (hosted): move_pages of the %s %s to node %d: page %zu "
			    "of the %zu left over has status %d", s->k->name, what, node, at, left,
			    st);
	return false;
}

/* Page frames for [@buf, + @bytes) in *@f, so that the folio APIs copy it; false: none. */
static bool frames_for(u8 *buf, size_t bytes, unsigned int node, struct page **f)
{
	*f = calloc(bytes >> PAGE_SHIFT, sizeof(**f));
	if (*f && !pgmap_add((uintptr_t)buf >> PAGE_SHIFT, bytes >> PAGE_SHIFT, *f, (u16)node))
		return true;
	free(*f);
	*f = NULL;
	return false;
}

/* The moved mapping of s->k's folios, faulted in (round 0's words); NULL when not had. */
static u8 *map_moved(struct mp_set *s)
{
	if (s->k->folio == MP_GIB) {
		u8 *p = mmap(NULL, s->bytes, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_HUGE_1GB, -1, 0);

		if (p == MAP_FAILED)
			return NULL;
		s->m = s->m_map = p;
		s->m_len = s->bytes;
	} else {
		s->m = map_guarded(s->bytes, s->k->folio == MP_THP ? MP_THP : PAGE_SIZE,
				   s->k->folio == MP_THP ? MADV_HUGEPAGE : MADV_NOHUGEPAGE,
				   &s->m_map, &s->m_len);
		if (!s->m)
			return NULL;
	}
	return fault_on(s->m, s->bytes, s->a, s->b, fill0) ? s->m : NULL;
}

/* The copy's two buffers: x on node a, y on node b, with frames; false (said) when not. */
static bool map_copy_buffers(const struct bench_env *env, struct mp_set *s)
{
	bool small = s->k->folio < MP_THP;
	size_t align = small ? PAGE_SIZE : MP_THP;
	int advice = small ? MADV_NOHUGEPAGE : MADV_HUGEPAGE;

	s->x = map_guarded(s->bytes, align, advice, &s->x_map, &s->xy_len);
	s->y = map_guarded(s->bytes, align, advice, &s->y_map, &s->xy_len);
	if (!s->x || !s->y) {
		bench_failf(env, "migrate (hosted): move_pages %s: no room for the copy's two "
			    "buffers of %zu MiB: %s", s->k->name, s->bytes >> 20, strerror(errno));
		return false;
	}
	if (!fault_on(s->x, s->bytes, s->a, s->b, fill0) ||
	    !fault_on(s->y, s->bytes, s->b, s->a, clear_db)) {
		bench_failf(env, "migrate (hosted): move_pages %s: mbind of the copy's buffers to "
			    "nodes %u and %u failed: %s", s->k->name, s->a, s->b, strerror(errno));
		return false;
	}
	if (!frames_for(s->x, s->bytes, s->a, &s->fx) || !frames_for(s->y, s->bytes, s->b, &s->fy)) {
		bench_failf(env, "migrate (hosted): move_pages %s: no page frames for the copy's "
			    "buffers (kernel/mm/page.h: %u sections at most)", s->k->name,
			    PGMAP_MAX_SECTIONS);
		return false;
	}
	if (!small) {
		long kx = ck_host_vma_thp_kib(s->x), ky = ck_host_vma_thp_kib(s->y);

		if (kx + ky != (long)(2 * s->bytes >> 10))
			bench_outf(env, "# migrate (hosted): move_pages %s: the copy's buffers are "
				   "not all THP (%ld and %ld KiB of %zu): the copy is timed on what "
				   "came", s->k->name, kx, ky, s->bytes >> 10);
	}
	return place(env, s, s->x, align, (int)s->a, "copy's source") &&
	       place(env, s, s->y, align, (int)s->b, "copy's destination");
}

/*
 * A copy's check, cheap enough for 1 GiB under emulation: the first and the last 64 bytes of
 * every 4 KiB page (where a copy that stops early, starts late or skips a page shows), cleared
 * before the copy (@clear) or compared after it; true when all match. The routines' every
 * byte is checked by the host tests (tests/host/test_copy.c).
 */
static bool page_ends(u8 *dst, const u8 *src, size_t bytes, bool clear)
{
	for (size_t off = 0; off < bytes; off += PAGE_SIZE)
		for (size_t e = 0; e < PAGE_SIZE; e += PAGE_SIZE - 64) {
			if (clear)
				memset(dst + off + e, 0xdb, 64);
			else if (memcmp(dst + off + e, src + off + e, 64))
				return false;
		}
	return true;
}

/* Every folio @from -> @to with copy form @c; nonzero when a folio_mc_copy said poison. */
static int copy_all(const struct mp_set *s, u8 *from, u8 *to, enum mig_copy c)
{
	size_t nr = s->k->folio >> PAGE_SHIFT;
	int ret = 0;

	for (size_t off = 0; off < s->bytes; off += s->k->folio) {
		struct folio src = { pfn_to_page((uintptr_t)(from + off) >> PAGE_SHIFT), nr };
		struct folio dst = { pfn_to_page((uintptr_t)(to + off) >> PAGE_SHIFT), nr };

		ret |= mig_copy_folio(c, &dst, &src);
	}
	return ret;
}

/* Round @i's timing of @op (cache-cold), and its check; false (said) when that fails. */
static bool one_op(const struct bench_env *env, struct mp_set *s, enum mp_op op, unsigned int i)
{
	bool back = i & 1;
	int to = (int)(back ? s->a : s->b);
	u8 *src = back ? s->y : s->x, *dst = back ? s->x : s->y;
	size_t at = 0;
	long ret = 0;
	u64 t0;
	int st;

	if (op == MP_MOVE)
		prep(s, s->m, s->nf, s->k->folio, to);
	else
		page_ends(dst, src, s->bytes, true);
	if (env->evict)
		env->evict(env->evict_ctx);
	t0 = env->now_ns();
	if (op == MP_MOVE)
		ret = move_pages_(s->nf, s->addrs, s->nodes, s->status);
	else
		ret = copy_all(s, src, dst, MP_FORM(op));
	s->ns[op][i] = MAX(env->now_ns() - t0, 1ULL);
	if (op != MP_MOVE) {
		bool same = page_ends(dst, src, s->bytes, false);

		if (!ret && same)
			return true;
		bench_failf(env, "migrate (hosted): move_pages %s: round %u's %s %s returned %ld "
			    "and left its destination %s its source", s->k->name, i,
			    mig_copy_fn[MP_FORM(op)], mig_copy_form[MP_FORM(op)], ret,
			    same ? "like" : "unlike");
		return false;
	}
	st = first_off(s, s->nf, to, &at);
	if (!ret && st == to)
		return true;
	bench_failf(env, "migrate (hosted): move_pages %s: round %u to node %d returned %ld (%s); "
		    "folio %zu of %zu has status %d", s->k->name, i, to, ret,
		    ret < 0 ? strerror(errno) : "folios not moved", at, s->nf, st);
	return false;
}

/* After round @i: every page on its new node, every word right; then the next round's. */
static bool check_round(const struct bench_env *env, struct mp_set *s, unsigned int i)
{
	int to = (int)((i & 1) ? s->a : s->b);
	size_t off = pages_off(s, s->m, to);
	u64 bad = wrong_words(s->m, s->bytes, s->gen);

	if (off || bad) {
		bench_failf(env, "migrate (hosted): move_pages %s: after round %u, %zu of %zu "
			    "pages not on node %d and %llu words wrong", s->k->name, i, off, s->np,
			    to, (unsigned long long)bad);
		return false;
	}
	fill(s->m, s->bytes, ++s->gen);
	return true;
}

/* @n rounds, the five timings in an order that turns by one each round. */
static bool run_rounds(const struct bench_env *env, struct mp_set *s, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		for (unsigned int j = 0; j < MP_NR_OPS; j++)
			if (!one_op(env, s, (enum mp_op)((i + j) % MP_NR_OPS), i))
				return false;
		if (!check_round(env, s, i))
			return false;
	}
	return true;
}

/* Thousandths as "1.234". */
static const char *f3(char *buf, u32 pm)
{
	ck_snprintf(buf, 16, "%u.%03u", pm / 1000, pm % 1000);
	return buf;
}

/* One function's figures over a folio size's rounds. */
struct mp_fig {
	u64 move_ns, per_page_ns, batched_ns;	/* medians */
	struct ratio share, speedup, predicted;	/* per-page copy / move; per-page / batched */
	bool have_predicted;
	unsigned int over;	/* rounds whose per-page copy took as long as the move or longer */
};

/* Function @fn's (0 folio_copy, 1 folio_mc_copy) figures of @n rounds; false: too few. */
static bool figures(const struct mp_set *s, unsigned int n, int fn, struct mp_fig *f)
{
	static u64 t[MP_ROUNDS], t2[MP_ROUNDS];
	const u64 *mv = s->ns[MP_MOVE], *pp = s->ns[MP_COPY(2 * fn)];
	const u64 *ba = s->ns[MP_COPY(2 * fn + 1)];
	unsigned int k = 0;

	f->move_ns = stats_median(mv, n);
	f->per_page_ns = stats_median(pp, n);
	f->batched_ns = stats_median(ba, n);
	f->over = 0;
	for (unsigned int i = 0; i < n; i++) {
		if (pp[i] >= mv[i]) {	/* a share of 1 or more: the model does not hold */
			f->over++;
			continue;
		}
		t[k] = mv[i];
		t2[k++] = mv[i] - pp[i] + ba[i];
	}
	f->have_predicted = stats_round_ratio(t, t2, k, STATS_BOOT_MAX, STATS_SEED,
					      &f->predicted);
	return stats_round_ratio(pp, mv, n, STATS_BOOT_MAX, STATS_SEED, &f->share) &&
	       stats_round_ratio(pp, ba, n, STATS_BOOT_MAX, STATS_SEED, &f->speedup);
}

static void json_ratio(struct json_writer *w, const char *key, const struct ratio *q)
{
	char k2[40];

	json_fixed(w, key, q->ratio_pm, 3);
	ck_snprintf(k2, sizeof(k2), "%s_lo", key);
	json_fixed(w, k2, q->lo_pm, 3);
	ck_snprintf(k2, sizeof(k2), "%s_hi", key);
	json_fixed(w, k2, q->hi_pm, 3);
}

static void record(const struct bench_env *env, const struct mp_set *s, unsigned int n, int fn,
		   const struct mp_fig *f, const long huge[2])
{
	struct json_writer w;
	char buf[1024];
	unsigned int cpu = 0, node = 0;

	getcpu(&cpu, &node);
	json_record(&w, buf, sizeof(buf), "movepages");
	json_str(&w, "machine", env->machine);
	json_u64(&w, "folio_bytes", s->k->folio);
	json_u64(&w, "folios", s->nf);
	json_u64(&w, "node_a", s->a);
	json_u64(&w, "node_b", s->b);
	json_u64(&w, "cpu", cpu);
	json_u64(&w, "cpu_node", node);
	json_str(&w, "fn", mig_copy_fn[2 * fn]);
	json_u64(&w, "rounds", n);
	json_u64(&w, "verified", n);
	json_u64(&w, "move_ns", f->move_ns);
	json_u64(&w, "copy_per_page_ns", f->per_page_ns);
	json_u64(&w, "copy_batched_ns", f->batched_ns);
	json_ratio(&w, "copy_share", &f->share);
	json_ratio(&w, "copy_speedup", &f->speedup);
	if (f->have_predicted)
		json_ratio(&w, "move_speedup_predicted", &f->predicted);
	json_u64(&w, "copy_over_move", f->over);
	json_u64(&w, "prediction_rounds", n - f->over);
	json_str(&w, "interval", "rounds");
	json_s64(&w, "huge_before", huge[0]);
	json_s64(&w, "huge_after", huge[1]);
	json_end(&w);
	env->out(buf);	/* a record too long for buf is kernel/lib/json.h's error record */
}

/* The folios of the moved mapping that are huge: THPs of 2 MiB by smaps; -1 when unknown. */
static long huge_folios(const struct mp_set *s)
{
	long kib;

	if (s->k->folio == MP_GIB)
		return (long)s->nf;		/* hugetlb: a mapping of nothing else */
	kib = ck_host_vma_thp_kib(s->m);
	return kib < 0 ? -1 : kib / (long)(MP_THP >> 10);
}

static void row(const struct bench_env *env, const struct mp_set *s, unsigned int n, int fn,
		const struct mp_fig *f, const long huge[2])
{
	char b[9][16], pred[48] = "-";

	if (f->have_predicted)
		ck_snprintf(pred, sizeof(pred), "%sx [%s, %s]", f3(b[0], f->predicted.ratio_pm),
			    f3(b[1], f->predicted.lo_pm), f3(b[2], f->predicted.hi_pm));
	bench_outf(env, "  %-6s %6zu %-13s %10llu %10llu %10llu  %s [%s, %s]  %sx [%s, %s]  "
		   "%-22s %ld/%ld", s->k->name, s->nf, mig_copy_fn[2 * fn],
		   (unsigned long long)f->move_ns / 1000,
		   (unsigned long long)f->per_page_ns / 1000,
		   (unsigned long long)f->batched_ns / 1000,
		   f3(b[3], f->share.ratio_pm), f3(b[4], f->share.lo_pm), f3(b[5], f->share.hi_pm),
		   f3(b[6], f->speedup.ratio_pm), f3(b[7], f->speedup.lo_pm),
		   f3(b[8], f->speedup.hi_pm), pred, huge[0], huge[1]);
	if (f->over)
		bench_outf(env, "# migrate (hosted): move_pages %s: in %u of %u rounds the "
			   "project's per-page %s took as long as the kernel's whole move or longer "
			   "(a share of 1 or more, where Amdahl's model does not hold); the "
			   "prediction leaves those rounds out", s->k->name, f->over, n,
			   mig_copy_fn[2 * fn]);
}

/*
 * Why folio size @k cannot be measured here, or NULL. A free page is not a promise: another
 * process's hugetlb reservation may hold it, and then the fault on node a ends the run with
 * SIGBUS (the kernel reserves at mmap time, but not per node).
 */
static const char *cannot(const struct mp_kind *k, unsigned int a, unsigned int b,
			  char *why, size_t size)
{
	long fa, fb;

	if (k->folio != MP_GIB)
		return NULL;
	fa = free_1g_pages(a);
	fb = free_1g_pages(b);
	if (fa >= 1 && fb >= 1)
		return NULL;
	ck_snprintf(why, size, "free 1 GiB hugetlb pages: %ld on node %u, %ld on node %u (-1: no "
		    "such pool); a move takes one on its target node, so each needs one (echo 1 > "
		    "/sys/devices/system/node/nodeN/hugepages/hugepages-1048576kB/nr_hugepages)",
		    fa, a, fb, b);
	return why;
}

static void not_measured(const struct bench_env *env, u64 folio, const char *name,
			 const char *why)
{
	struct json_writer w;
	char buf[640];

	bench_outf(env, "# migrate (hosted): move_pages %s: not measured: %s", name, why);
	json_record(&w, buf, sizeof(buf), "movepages-not-measured");
	json_str(&w, "machine", env->machine);
	json_u64(&w, "folio_bytes", folio);
	json_str(&w, "why", why);
	json_end(&w);
	env->out(buf);	/* a record too long for buf is kernel/lib/json.h's error record */
}

static void release(struct mp_set *s)
{
	if (s->m_map)
		munmap(s->m_map, s->m_len);
	if (s->x_map)
		munmap(s->x_map, s->xy_len);
	if (s->y_map)
		munmap(s->y_map, s->xy_len);
	for (int i = 0; i < 2; i++) {
		struct page *f = i ? s->fy : s->fx;

		if (f)
			pgmap_del(f);	/* before these addresses can be registered again */
		free(f);
	}
	free(s->addrs);
	free(s->nodes);
	free(s->status);
}

/* Set up folio size @k's mapping on node a, its THPs counted in *@huge; false when not. */
static bool set_up(const struct bench_env *env, struct mp_set *s, long *huge)
{
	char why[160];

	s->addrs = calloc(s->np, sizeof(*s->addrs));
	s->nodes = calloc(s->np, sizeof(*s->nodes));
	s->status = calloc(s->np, sizeof(*s->status));
	if (!s->addrs || !s->nodes || !s->status || !map_moved(s)) {
		bench_failf(env, "migrate (hosted): move_pages %s: no memory for %zu MiB of such "
			    "folios: %s", s->k->name, s->bytes >> 20, strerror(errno));
		return false;
	}
	if (!place(env, s, s->m, s->k->folio, (int)s->a, "mapping"))
		return false;
	*huge = huge_folios(s);
	if (s->k->folio != MP_THP || *huge == (long)s->nf)
		return map_copy_buffers(env, s);
	ck_snprintf(why, sizeof(why), "%ld of the %zu folios are THPs (every one must be; "
		    "/sys/kernel/mm/transparent_hugepage/enabled must allow madvise)", *huge, s->nf);
	not_measured(env, s->k->folio, s->k->name, why);
	return false;
}

/* Folio size @k between nodes @a and @b: the rounds, the rows, the records. */
static void run_kind(const struct bench_env *env, const struct mp_kind *k, unsigned int a,
		     unsigned int b, unsigned int rounds, bool tiny)
{
	static struct mp_set s;
	unsigned int n = MIN(rounds, k->folio == MP_GIB ? MP_ROUNDS_1G : MP_ROUNDS);
	struct mp_fig f[2];
	long huge[2] = { -1, -1 };
	char why[400];

	if (cannot(k, a, b, why, sizeof(why))) {
		not_measured(env, k->folio, k->name, why);
		return;
	}
	s = (struct mp_set){ .k = k, .a = a, .b = b, .bytes = tiny ? k->tiny_bytes : k->bytes };
	s.nf = s.bytes / k->folio;
	s.np = s.bytes >> PAGE_SHIFT;
	if (set_up(env, &s, &huge[0]) && run_rounds(env, &s, n)) {
		huge[1] = huge_folios(&s);
		for (int fn = 0; fn < 2; fn++) {
			if (!figures(&s, n, fn, &f[fn])) {
				bench_failf(env, "migrate (hosted): move_pages %s: %u rounds are too "
					    "few for a ratio (3 at least)", k->name, n);
				break;
			}
			row(env, &s, n, fn, &f[fn], huge);
			record(env, &s, n, fn, &f[fn], huge);
		}
		if (huge[1] != huge[0])
			bench_outf(env, "# migrate (hosted): move_pages %s: THPs split during the "
				   "rounds (%ld of %ld left): later moves were of smaller folios",
				   k->name, huge[1], huge[0]);
		if (k->folio == PAGE_SIZE)
			bench_outf(env, "# migrate (hosted): move_pages 4 KiB: a folio of one page, "
				   "so batched is the per-page copy: its ratios are noise about 1");
	}
	release(&s);
}

void ck_bench_movepages(const struct bench_env *env, unsigned int rounds, bool tiny)
{
	unsigned int nodes[MP_NODES_MAX], nn = memory_nodes(nodes, MP_NODES_MAX);
	unsigned int cpu = 0, node = 0;

	if (nn >= 2 && (nodes[0] >= MP_NODES_MAX || nodes[1] >= MP_NODES_MAX)) {
		not_measured(env, 0, "(every size)", "a node number of 64 or more (the masks "
			     "here hold nodes 0-63)");
		return;
	}
	if (nn < 2) {
		not_measured(env, 0, "(every size)", nn ? "one NUMA node has memory here "
			     "(/sys/devices/system/node/has_memory); a move needs two" :
			     "no NUMA node list (/sys/devices/system/node/has_memory)");
		return;
	}
	getcpu(&cpu, &node);
	bench_outf(env, "# migrate (hosted): move_pages(2) end to end, node %u <-> node %u, from "
		   "CPU %u (node %u); %u rounds a folio size (1 GiB: at most %u), the direction "
		   "alternating, each timing cache-cold; times are medians in us; the buffers "
		   "bound to the two nodes, out of automatic NUMA balancing's reach "
		   "(kernel.numa_balancing=%d)", nodes[0], nodes[1], cpu, node,
		   MIN(rounds, MP_ROUNDS), MP_ROUNDS_1G,
		   (int)ck_host_read_long("/proc/sys/kernel/numa_balancing"));
	bench_outf(env, "# migrate (hosted): move = one move_pages() call for every folio; copy "
		   "= the project's routine over the same bytes between the same nodes, standing "
		   "for the kernel's own copy in the move (__migrate_folio: folio_mc_copy in recent "
		   "kernels, folio_copy in older ones); share = per-page copy / move; predicted = "
		   "the move had the kernel copied batched, T / (T - C + C'); [95%% CI] of the "
		   "rounds, one process (P=1 (rounds' CI only)); huge = THP folios before/after");
	bench_outf(env, "  %-6s %6s %-13s %10s %10s %10s  %-22s %-23s %-23s %s", "folio",
		   "folios", "fn", "move", "per-page", "batched", "copy share [95% CI]",
		   "copy batched [95% CI]", "move predicted [95% CI]", "huge");
	for (unsigned int i = 0; i < ARRAY_SIZE(mp_kinds); i++)
		run_kind(env, &mp_kinds[i], nodes[0], nodes[1], rounds, tiny);
	bench_outf(env, "# migrate (hosted): the seeds' move_pages figures: 000 (RFC, Zen 5) the "
		   "copy ~2x batched, move_pages 1.07-1.18x; 002 (v3, Zen 6 with CXL) 2 MiB THP "
		   "1.41x, 1 GiB hugetlb up to 2.8x");
}
