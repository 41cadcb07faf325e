// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe.c - the bandwidth probe (see probe.h): its five streams, its figures as lines and
 * "bandwidth" records, and the limits a large case is shown against. One probe per run.
 */
#include "bench/data.h"
#include "bench/probe.h"
#include "copy/routines.h"
#include "kernel/lib/format.h"
#include "kernel/lib/json.h"
#include "kernel/lib/string.h"

enum { BW_READ, BW_NT_WRITE, BW_STOSB_WRITE, BW_NT_COPY, BW_MOVSB_COPY, NR_BW };
static const char *const bw_names[NR_BW] = { "read", "NT write (movnti)", "rep stosb write",
					     "NT copy", "rep movsb copy" };
static u64 bw_mbps[NR_BW];	/* traffic in MB/s; all 0: not probed yet */
static u64 bw_bytes;		/* the probe's size */
static bool bw_done;

u64 probe_bytes(const struct bench_platform *p)
{
	u64 bytes = p->tiny ? 4ULL << 20 : 1ULL << 30;

	while (bytes > p->max_bytes && bytes > (4ULL << 20))
		bytes >>= 1;
	return bytes <= p->max_bytes ? bytes : 0;
}

void probe_nt_copy(void *dst, const void *src, u64 bytes, const struct bench_platform *p)
{
	if (p->caps.avx512f)
		copy_mc_avx512_nt(dst, src, bytes);
	else
		copy_mc_avx2_nt(dst, src, bytes);
}

/* Every half cache line of @src read once. */
static void read_lines(const u8 *src, u64 bytes)
{
	volatile u64 sink = 0;

	for (u64 i = 0; i < bytes; i += 64)
		sink += *(const volatile u64 *)(src + i) + *(const volatile u64 *)(src + i + 32);
	(void)sink;
}

/* One stream of @bytes; returns the traffic it moved (a copy counts its bytes twice). */
static u64 stream(int k, const struct bench_platform *p, u8 *dst, const u8 *src, u64 bytes)
{
	switch (k) {
	case BW_READ:
		read_lines(src, bytes);
		return bytes;
	case BW_NT_WRITE:
		probe_nt_write(dst, bytes);
		return bytes;
	case BW_STOSB_WRITE:
		clear_pages_erms(dst, bytes >> PAGE_SHIFT);
		return bytes;
	case BW_NT_COPY:
		probe_nt_copy(dst, src, bytes, p);
		return 2 * bytes;
	default:
		memcpy_erms(dst, src, bytes);
		return 2 * bytes;
	}
}

static void bw_record(const struct bench_env *env, int k, u64 bytes)
{
	struct json_writer w;
	char line[200];

	json_record(&w, line, sizeof(line), "bandwidth");
	json_str(&w, "machine", env->machine ? env->machine : "");
	json_str(&w, "probe", bw_names[k]);
	json_u64(&w, "bytes", bytes);
	json_u64(&w, "traffic_mbps", bw_mbps[k]);
	json_end(&w);
	env->out(line);
}

static void probe_run(const struct bench_env *env, const struct bench_platform *p, u8 *dst,
		      const u8 *src, u64 bytes)
{
	for (int k = 0; k < NR_BW; k++) {
		if (k == BW_NT_COPY && !p->caps.avx2 && !p->caps.avx512f)
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
	for (int k = 0; k < NR_BW; k++) {
		if (!bw_mbps[k])
			continue;
		bench_outf(env, "  %-20s %6llu.%02llu GB/s", bw_names[k],
			   (unsigned long long)bw_mbps[k] / 1000,
			   (unsigned long long)(bw_mbps[k] % 1000) / 10);
		bw_record(env, k, bytes);
	}
}

u64 probe_copy_limit(void)
{
	return MAX(bw_mbps[BW_NT_COPY], bw_mbps[BW_MOVSB_COPY]);
}

u64 probe_write_limit(void)
{
	return MAX(bw_mbps[BW_NT_WRITE], bw_mbps[BW_STOSB_WRITE]);
}

/* The buffers are not reused: alloc is a bump. */
void probe_ensure(const struct bench_env *env, const struct bench_platform *p)
{
	u64 bytes = probe_bytes(p);
	u8 *src, *dst;

	if (bw_done)
		return;
	bw_done = true;
	src = bytes ? p->alloc(bytes) : NULL;
	dst = bytes ? p->alloc(bytes) : NULL;
	if (!src || !dst) {
		bench_outf(env, "# bandwidth probe skipped: no room for two buffers of %llu MiB",
			   (unsigned long long)bytes >> 20);
		return;
	}
	data_fill(src, bytes, PAT_RANDOM);
	memset(dst, 0, bytes);
	bw_bytes = bytes;
	probe_run(env, p, dst, src, bytes);
}

bool probe_is_copy(const struct bench_case *c)
{
	return c->src_pattern && strcmp(c->src_pattern, "none");
}

u64 probe_pct(const struct bench_case *c, const struct bench_result *r)
{
	u64 lim = probe_is_copy(c) ? probe_copy_limit() : probe_write_limit();

	if ((c->bytes < PROBE_LARGE && c->bytes < bw_bytes) || !lim)
		return 0;
	return (probe_is_copy(c) ? 2 : 1) * r->mbps_median * 100 / lim;
}

void probe_fmt(const struct bench_case *c, const struct bench_result *r, char *buf,
	       size_t size)
{
	u64 pct = probe_pct(c, r);

	buf[0] = 0;
	if (pct)
		ck_snprintf(buf, size, " %llu%% of %s bw", (unsigned long long)pct,
			    probe_is_copy(c) ? "copy" : "write");
}
