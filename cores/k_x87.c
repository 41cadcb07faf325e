// SPDX-License-Identifier: GPL-2.0-only
/*
 * k_x87.c - the x87 kernel: F2XM1, FSIN, FCOS, FPTAN and FYL2X (cores/x87.asm) on the stored
 * inputs, each result rounded to a double; the known answer folds the stored doubles that
 * tools/cores-x87-ref.py computed with mpmath (cores/x87_ref.c), each within a quarter ulp of
 * the true value, so any correct x87 (or an emulator's libm within 3/4 ulp) gives them
 * exactly. The inputs are the table's, whatever the seed: the seed only picks where in the
 * table the run starts, so every CPU still computes the same thing.
 */
#include "cores/k_x87.h"
#include "cores/x87_ref.h"

static unsigned int first(u64 seed)
{
	return (unsigned int)(seed % CORES_X87_INPUTS);
}

static u64 x87_run(const struct cores_kernel *k, const struct cores_area *a, u64 seed)
{
	u32 *num = (u32 *)a->src;
	u64 *out = (u64 *)a->dst, d = CORES_FOLD_INIT;

	for (unsigned int i = 0; i < CORES_X87_INPUTS; i++)
		num[i] = cores_x87_ref[(first(seed) + i) % CORES_X87_INPUTS].num;
	cores_x87(num, CORES_X87_INPUTS, out);
	for (unsigned int i = 0; i < CORES_X87_INPUTS * CORES_X87_FUNCS; i++)
		d = cores_fold(d, out[i]);
	return d;
}

static u64 x87_known(const struct cores_kernel *k, u64 seed)
{
	u64 d = CORES_FOLD_INIT;

	for (unsigned int i = 0; i < CORES_X87_INPUTS; i++)
		for (unsigned int f = 0; f < CORES_X87_FUNCS; f++)
			d = cores_fold(d, cores_x87_ref[(first(seed) + i) % CORES_X87_INPUTS].d[f]);
	return d;
}

const struct cores_kernel cores_x87_kernels[] = {
	{ .name = "x87", .family = "x87", .run = x87_run, .known = x87_known,
	  .fn = (const void *)cores_x87 },
};
const unsigned int cores_nr_x87_kernels = ARRAY_SIZE(cores_x87_kernels);
