// SPDX-License-Identifier: GPL-2.0-only
/*
 * copy_sweep.c - the sweeps of copy_sweep.h. Plain C over the environment's buffers.
 */
#include "copy/routines.h"
#include "kernel/lib/string.h"
#include "ktest/lib/copy_sweep.h"

size_t sweep_memcpy_erms(void *dst, const void *src, size_t len)
{
	return memcpy_erms(dst, src, len) == dst ? 0 : (size_t)-1;
}

size_t sweep_memcpy_orig(void *dst, const void *src, size_t len)
{
	return memcpy_orig(dst, src, len) == dst ? 0 : (size_t)-1;
}

u8 sweep_canary(size_t i)
{
	return (u8)(i * 7 + 0x5a);
}

void sweep_fill(const struct sweep_env *env)
{
	u64 x = 0x9e3779b97f4a7c15ULL;

	for (size_t i = 0; i < SWEEP_BUF; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		env->src[i] = (u8)x;
		env->dst[i] = sweep_canary(i);
	}
}

static const char *one_copy(const struct sweep_env *env, sweep_copy_fn fn, size_t len,
			    size_t sa, size_t da)
{
	u8 *s = env->src + SWEEP_GUARD + sa, *d = env->dst + SWEEP_GUARD + da;
	size_t lo = da, hi = SWEEP_GUARD + da + len + SWEEP_GUARD;
	const char *why = NULL;

	if (fn(d, s, len) != 0)
		why = "nonzero return";
	else if (memcmp(d, s, len))
		why = "data differs";
	for (size_t i = lo; i < hi && !why; i++)
		if ((i < SWEEP_GUARD + da || i >= SWEEP_GUARD + da + len) &&
		    env->dst[i] != sweep_canary(i))
			why = "guard byte written";
	for (size_t i = lo; i < hi; i++)
		env->dst[i] = sweep_canary(i);
	return why;
}

static void sweep_note(struct sweep_result *res, const char *why, size_t len, size_t sa, size_t da)
{
	res->runs++;
	if (why && !res->fails++) {
		res->why = why;
		res->len = len;
		res->sa = sa;
		res->da = da;
	}
}

void sweep_copy(const struct sweep_env *env, sweep_copy_fn fn, struct sweep_result *res)
{
	static const size_t big[] = { 4095, 4096, 4097, 8191, 8192, 8193, SWEEP_BIG };
	unsigned int na = env->aligns ? env->nr_aligns : 64;

	*res = (struct sweep_result){ 0 };
	for (size_t len = 0; len <= 256; len++)
		for (unsigned int i = 0; i < na; i++)
			for (unsigned int j = 0; j < na; j++) {
				size_t sa = env->aligns ? env->aligns[i] : i;
				size_t da = env->aligns ? env->aligns[j] : j;

				sweep_note(res, one_copy(env, fn, len, sa, da), len, sa, da);
			}
	if (!env->big_lengths)
		return;
	/*
	 * Large lengths. On the host (no alignment list) 4095..8193 take every one of the 4096
	 * alignment pairs; 2 MiB, and everything in the image, takes every source alignment,
	 * every destination alignment and every equal pair (192 combinations; the image keeps
	 * 12 of them for 2 MiB).
	 */
	for (size_t b = 0; b < ARRAY_SIZE(big); b++) {
		bool all_pairs = !env->aligns && big[b] != SWEEP_BIG;

		for (size_t k = 0; k < (all_pairs ? 64 * 64 : 3 * 64); k++) {
			size_t sa, da;

			if (all_pairs) {
				sa = k / 64;
				da = k % 64;
			} else {
				sa = k < 64 ? k : k < 128 ? 0 : k - 128;
				da = k < 64 ? 0 : k < 128 ? k - 64 : k - 128;
				if (env->aligns && big[b] == SWEEP_BIG && k % 16)
					continue;
			}
			sweep_note(res, one_copy(env, fn, big[b], sa, da), big[b], sa, da);
		}
	}
}

static void fault_note(struct fault_result *res, size_t o, const char *why)
{
	if (!res->bad++) {
		res->first_offset = o;
		res->why = why;
	}
}

void sweep_fault(const struct sweep_env *env, sweep_copy_fn fn, bool dst_side, size_t slack,
		 unsigned long max_faults, struct fault_result *res)
{
	u8 *edge = env->fault_area + 2 * 4096;

	*res = (struct fault_result){ 0 };
	env->set_present(edge, false);
	for (size_t o = 0; o < SWEEP_WINDOW; o++) {
		u8 *s = dst_side ? env->other_area + 64 : edge - o;
		u8 *d = dst_side ? edge - o : env->other_area + 64;
		u64 before = env->fault_count();
		size_t exact = SWEEP_WINDOW - o, left, copied, i;

		memcpy(s, env->src + 1000, dst_side ? SWEEP_WINDOW : o);
		for (i = 0; i < (dst_side ? o : SWEEP_WINDOW + 64); i++)
			d[i] = sweep_canary(i);
		left = fn(d, s, SWEEP_WINDOW);
		copied = SWEEP_WINDOW - left;
		if (env->fault_count() < before + 1 || env->fault_count() > before + max_faults ||
		    env->fault_addr() != (u64)(uintptr_t)edge)
			res->missed++;
		if (left < exact || left > exact + slack) {
			fault_note(res, o, "return value is not the count left");
			continue;
		}
		if (left - exact > res->max_slack)
			res->max_slack = left - exact;
		if (memcmp(d, s, copied)) {
			fault_note(res, o, "the copied prefix differs");
			continue;
		}
		for (i = copied; i < o; i++)
			if (d[i] != sweep_canary(i) && d[i] != s[i]) {
				fault_note(res, o, "garbage between stop point and fault");
				break;
			}
		for (i = o; !dst_side && i < SWEEP_WINDOW + 64; i++)
			if (d[i] != sweep_canary(i)) {
				fault_note(res, o, "written at or after the fault");
				break;
			}
	}
	env->set_present(edge, true);
}
