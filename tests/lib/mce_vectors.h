/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mce_vectors.h - one machine-check input per grading rule row, for both vendor tables:
 * the host test grades them directly, the image raises each through simulated MSRs.
 */
#ifndef CK_MCE_VECTORS_H
#define CK_MCE_VECTORS_H

#include "kernel/include/types.h"

struct mce_vector {
	const char *rule;	/* the row it must hit (its name) */
	bool amd, ser, fixup;
	u64 status, mcg_status;
	bool handler_reaches;	/* false: the handler skips such banks (VAL clear) */
};

extern const struct mce_vector mce_vectors[];
extern const unsigned int mce_nr_vectors;

#endif
