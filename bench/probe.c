// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe.c - the bandwidth probe (see probe.h): the run's two large buffers, the streams over
 * them as lines and "bandwidth" records, and the like-for-like limit of every case. One probe
 * per run.
 */
#include "bench/data.h"
#include "bench/probe.h"
#include "copy/routines.h"
#include "kernel/lib/format.h"
#include "kernel/lib/json.h"
#include "kernel/lib/string.h"

enum { PS_READ, PS_ZERO_STOSB, PS_ZERO_STOSQ, PS_ZERO_MOV, PS_ZERO_MOVNTI, PS_ZERO_CLZERO,
       PS_DATA_STOSB, PS_DATA_MOVNTI, PS_NT_COPY, PS_MOVSB_COPY, NR_PS };

static const struct {
	const char *name, *store, *data;
} streams[NR_PS] = {
	[PS_READ] = { "read", "load", "random" },
	[PS_ZERO_STOSB] = { "rep stosb write, zeros", "rep stosb", "zero" },
	[PS_ZERO_STOSQ] = { "rep stosq write, zeros", "rep stosq", "zero" },
	[PS_ZERO_MOV] = { "mov write, zeros", "mov", "zero" },
	[PS_ZERO_MOVNTI] = { "movnti write, zeros", "movnti", "zero" },
	[PS_ZERO_CLZERO] = { "clzero write", "clzero", "zero" },
	[PS_DATA_STOSB] = { "rep stosb write, 0x5a bytes", "rep stosb", "constant" },
	[PS_DATA_MOVNTI] = { "movnti write, offsets", "movnti", "non-zero" },
	[PS_NT_COPY] = { "NT copy", "movnt", "random" },
	[PS_MOVSB_COPY] = { "rep movsb copy", "rep movsb", "random" },
};

/* The zero write through the store of each clear_page implementation. */
static const u8 zero_stream_of[NR_CLEAR_PAGE_IMPL] = {
	[CLEAR_PAGE_ERMS] = PS_ZERO_STOSB, [CLEAR_PAGE_REP] = PS_ZERO_STOSQ,
	[CLEAR_PAGE_UNROLLED] = PS_ZERO_MOV, [CLEAR_PAGE_NT] = PS_ZERO_MOVNTI,
	[CLEAR_PAGE_CLZERO] = PS_ZERO_CLZERO,
};

static u64 bw_mbps[NR_PS];	/* traffic in MB/s; 0: not measured */
static u64 bw_bytes;		/* the probe's size, 0: not probed */
static u8 *big_src, *big_dst;	/* the run's large buffers */
static u64 big_bytes;

u64 probe_bytes(const struct bench_platform *p)
{
	u64 bytes = p->tiny ? PROBE_TINY : 1ULL << 30;

	while (bytes > p->max_bytes && bytes > PROBE_TINY)
		bytes >>= 1;
	return bytes <= p->max_bytes ? bytes : 0;
}

bool probe_buffers(const struct bench_env *env, const struct bench_platform *p, u8 **src,
		   u8 **dst)
{
	u64 bytes = probe_bytes(p);
	void *(*take)(size_t) = p->alloc_run ? p->alloc_run : p->alloc;

	if (!big_bytes && bytes) {
		big_src = take(bytes);
		big_dst = big_src ? take(bytes) : NULL;
		if (big_dst) {
			big_bytes = bytes;
			data_fill(big_src, bytes, PAT_RANDOM);
			memset(big_dst, 0, bytes);
		}
	}
	if (!big_bytes) {
		bench_failf(env, "no room for the run's two large buffers of %llu MiB (the largest "
			    "case this machine can hold is %llu MiB)", (unsigned long long)bytes >> 20,
			    (unsigned long long)p->max_bytes >> 20);
		return false;
	}
	*src = big_src;
	*dst = big_dst;
	return true;
}

void probe_nt_copy(void *dst, const void *src, u64 bytes, const struct bench_platform *p)
{
	if (p->caps.avx512f)
		copy_mc_avx512_nt(dst, src, bytes);
	else
		copy_mc_avx2_nt(dst, src, bytes);
}

static bool can_stream(int k, const struct bench_platform *p)
{
	if (k == PS_NT_COPY)
		return p->caps.avx2 || p->caps.avx512f;
	return k != PS_ZERO_CLZERO || p->caps.clzero;
}

/* One stream of @bytes; returns the traffic it moved (a copy counts its bytes twice). */
static u64 stream(int k, const struct bench_platform *p, u8 *dst, const u8 *src, u64 bytes)
{
	u64 pages = bytes >> PAGE_SHIFT;

	switch (k) {
	case PS_READ:		probe_read_lines(src, bytes); return bytes;
	case PS_ZERO_STOSB:	clear_pages_erms(dst, pages); return bytes;
	case PS_ZERO_STOSQ:	clear_pages_rep(dst, pages); return bytes;
	case PS_ZERO_MOVNTI:	clear_pages_nt(dst, pages); return bytes;
	case PS_ZERO_CLZERO:	clear_pages_clzero(dst, pages); return bytes;
	case PS_DATA_STOSB:	probe_stosb_write(dst, bytes, 0x5a); return bytes;
	case PS_DATA_MOVNTI:	probe_nt_write(dst, bytes); return bytes;
	case PS_NT_COPY:	probe_nt_copy(dst, src, bytes, p); return 2 * bytes;
	case PS_MOVSB_COPY:	memcpy_erms(dst, src, bytes); return 2 * bytes;
	default:
		for (u64 i = 0; i < pages; i++)
			clear_page_unrolled(dst + (i << PAGE_SHIFT));
		return bytes;
	}
}

static void bw_record(const struct bench_env *env, int k, u64 bytes)
{
	struct json_writer w;
	char line[300];

	json_record(&w, line, sizeof(line), "bandwidth");
	json_str(&w, "machine", env->machine ? env->machine : "");
	json_str(&w, "probe", streams[k].name);
	json_str(&w, "store", streams[k].store);
	json_str(&w, "data", streams[k].data);
	json_u64(&w, "bytes", bytes);
	json_u64(&w, "traffic_mbps", bw_mbps[k]);
	json_end(&w);
	env->out(line);
}

static void probe_run(const struct bench_env *env, const struct bench_platform *p, u8 *dst,
		      const u8 *src, u64 bytes)
{
	char g[24];

	for (int k = 0; k < NR_PS; k++) {
		if (!can_stream(k, p))
			continue;
		for (int r = 0; r < PROBE_BEST_OF; r++) {
			u64 t0 = env->now_ns(), traffic = stream(k, p, dst, src, bytes);
			u64 t = env->now_ns() - t0;

			bw_mbps[k] = MAX(bw_mbps[k], stats_mbps(traffic, t));
		}
	}
	bench_outf(env, "bandwidth probe, one core, %llu MiB each, best of %d, traffic counted "
		   "(a copy moves its bytes twice):", (unsigned long long)bytes >> 20,
		   PROBE_BEST_OF);
	for (int k = 0; k < NR_PS; k++) {
		if (!bw_mbps[k])
			continue;
		bench_fmt_fixed(g, sizeof(g), bw_mbps[k], 1000, 2);
		bench_outf(env, "  %-28s %6s GB/s", streams[k].name, g);
		bw_record(env, k, bytes);
	}
	bw_bytes = bytes;
}

u64 probe_copy_limit(void)
{
	return MAX(bw_mbps[PS_NT_COPY], bw_mbps[PS_MOVSB_COPY]);
}

bool probe_ensure(const struct bench_env *env, const struct bench_platform *p)
{
	u8 *src, *dst;

	if (bw_bytes)
		return true;
	/* Not probed yet, or no room last time: again, so that each preset says why it fails. */
	if (!probe_buffers(env, p, &src, &dst))
		return false;
	if (!p->replica)	/* a replica's limits are never printed: its parent's are */
		probe_run(env, p, dst, src, big_bytes);
	return true;
}

bool probe_is_copy(const struct bench_case *c)
{
	return c->src_pattern && strcmp(c->src_pattern, "none");
}

u64 probe_limit(const struct bench_case *c, const char **what)
{
	unsigned int impl = c->clear_store ? c->clear_store - 1u : NR_CLEAR_PAGE_IMPL;

	*what = "copy";
	if (probe_is_copy(c))
		return probe_copy_limit();
	if (impl >= NR_CLEAR_PAGE_IMPL)
		return 0;
	*what = streams[zero_stream_of[impl]].store;
	return bw_mbps[zero_stream_of[impl]];
}

u64 probe_share(const struct bench_case *c, const struct bench_result *r)
{
	const char *what;
	u64 lim = probe_limit(c, &what);

	if (!lim)
		return 0;
	return ((probe_is_copy(c) ? 2 : 1) * r->mbps_median * 100 + lim / 2) / lim;
}

u64 probe_pct(const struct bench_case *c, const struct bench_result *r)
{
	if (c->bytes < PROBE_LARGE && c->bytes < bw_bytes)
		return 0;
	return probe_share(c, r);
}

void probe_fmt(const struct bench_case *c, const struct bench_result *r, char *buf,
	       size_t size)
{
	u64 pct = probe_pct(c, r);
	const char *what;

	buf[0] = 0;
	probe_limit(c, &what);
	if (pct)
		ck_snprintf(buf, size, " %llu%% of %s%s bw", (unsigned long long)pct, what,
			    probe_is_copy(c) ? "" : " zero-write");
}

void probe_fmt_limit(const struct bench_case *c, char *buf, size_t size)
{
	const char *what;
	u64 lim = probe_limit(c, &what);
	char t[24], d[24];

	buf[0] = 0;
	if (!lim)
		return;
	bench_fmt_fixed(t, sizeof(t), lim, 1000, 2);
	bench_fmt_fixed(d, sizeof(d), lim / 2, 1000, 2);
	if (probe_is_copy(c))
		ck_snprintf(buf, size, "limit: copy %s GB/s of traffic (%s GB/s of data): the best "
			    "of the NT copy and rep movsb over %llu MiB of random data, one core, "
			    "best of %d (the bandwidth probe); %%lim = each side's traffic against "
			    "it (a cache-hot case can pass 100%%: it runs from cache)", t, d,
			    (unsigned long long)bw_bytes >> 20, PROBE_BEST_OF);
	else
		ck_snprintf(buf, size, "limit: %s zero-write %s GB/s: %s writing zeros over %llu "
			    "MiB, one core, best of %d (the bandwidth probe); %%lim = each side's "
			    "bytes written against it", what, t, what,
			    (unsigned long long)bw_bytes >> 20, PROBE_BEST_OF);
}
