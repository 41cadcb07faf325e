// SPDX-License-Identifier: GPL-2.0-only
/*
 * list.c - the cores kernels of every family as one list (cores/list.h).
 */
#include "cores/k_bits.h"
#include "cores/k_clear.h"
#include "cores/k_copy.h"
#include "cores/k_crypto.h"
#include "cores/k_fma.h"
#include "cores/k_int.h"
#include "cores/k_vec.h"
#include "cores/k_x87.h"
#include "cores/list.h"

static const struct {
	const struct cores_kernel *k;
	const unsigned int *n;
} families[] = {
	{ cores_copy_kernels, &cores_nr_copy_kernels },
	{ cores_clear_kernels, &cores_nr_clear_kernels },
	{ cores_int_kernels, &cores_nr_int_kernels },
	{ cores_bits_kernels, &cores_nr_bits_kernels },
	{ cores_crypto_kernels, &cores_nr_crypto_kernels },
	{ cores_vec_kernels, &cores_nr_vec_kernels },
	{ cores_fma_kernels, &cores_nr_fma_kernels },
	{ cores_x87_kernels, &cores_nr_x87_kernels },
};

unsigned int cores_nr_kernels(void)
{
	unsigned int n = 0;

	for (size_t f = 0; f < ARRAY_SIZE(families); f++)
		n += *families[f].n;
	return n;
}

const struct cores_kernel *cores_kernel(unsigned int i)
{
	for (size_t f = 0; f < ARRAY_SIZE(families); f++) {
		if (i < *families[f].n)
			return &families[f].k[i];
		i -= *families[f].n;
	}
	return NULL;
}

const struct cores_kernel *cores_kernel_named(const char *name, size_t len)
{
	for (unsigned int i = 0; i < cores_nr_kernels(); i++) {
		const struct cores_kernel *k = cores_kernel(i);
		size_t j = 0;

		while (j < len && k->name[j] == name[j])
			j++;
		if (j == len && !k->name[len])
			return k;
	}
	return NULL;
}
