/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mce_vectors.h - one machine-check input per grading rule row, for both vendor tables,
 * with the handler's end result: the host test grades them and compares the end with the
 * independent model of Linux (ktest/oracle/), the image raises each through simulated MSRs.
 */
#ifndef CK_KTEST_LIB_MCE_VECTORS_H
#define CK_KTEST_LIB_MCE_VECTORS_H

#include "kernel/include/types.h"

/* What the handler must end with, decided by hand from Linux's rules (the rows where the
   image deliberately differs: docs/design/machine-checks.md). */
enum mce_vector_end { VEC_RESUME, VEC_RECOVER, VEC_PANIC };

struct mce_vector {
	const char *rule;	/* the row it must hit (its name) */
	bool amd, ser, fixup;
	u64 status, mcg_status;
	bool handler_reaches;	/* false: the handler skips such banks (VAL clear) */
	enum mce_vector_end end;
	bool deviates;		/* Linux ends otherwise; docs/design/machine-checks.md says why */
	/* Model-specific rows: the bank (0: bank 1) and the CPU (family 0: the CPU's own). */
	u16 bank;
	u8 family, model, stepping;
};

extern const struct mce_vector mce_vectors[];
extern const unsigned int mce_nr_vectors;

#endif
