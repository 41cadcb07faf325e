/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim_rng.h - the simulated models' own random numbers (host tests only): splitmix64, unlike
 * the code under test's xorshift, a uniform double in [0, 1), and a near-normal draw as the
 * sum of twelve uniforms less six (mean 0, variance 1). Each test keeps its own state.
 */
#ifndef CK_TESTS_HOST_SIM_RNG_H
#define CK_TESTS_HOST_SIM_RNG_H

#include "kernel/include/types.h"

static inline u64 sim_rng_u64(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline double sim_rng_unit(u64 *state)
{
	return (double)(sim_rng_u64(state) >> 11) / 9007199254740992.0;
}

static inline double sim_rng_normal(u64 *state)
{
	double s = -6.0;

	for (int i = 0; i < 12; i++)
		s += sim_rng_unit(state);
	return s;
}

#endif
