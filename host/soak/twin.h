/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host/soak/twin.h - what the hosted soak twin's parts share: the options (host/soak/ck-soak.c
 * reads them) and the comparison with stressapptest (host/soak/twin_compare.c).
 */
#ifndef CK_HOST_SOAK_TWIN_H
#define CK_HOST_SOAK_TWIN_H

#include "kernel/include/types.h"

enum soak_backing { SOAK_BACK_AUTO, SOAK_BACK_HUGETLB, SOAK_BACK_THP, SOAK_BACK_4K };

struct ck_soak_opts {
	u64 mib;			/* memory soaked (stressapptest -M) */
	unsigned int seconds;		/* stressapptest -s */
	unsigned int threads;		/* stressapptest -m; 0: every CPU we may use */
	unsigned int fade_s;		/* the retention pass's idle (0: none) */
	u64 chunk_mib;
	u64 seed;
	enum soak_backing backing;
	const char *json;		/* JSON-lines file, or NULL */
	bool quiet;			/* a child of the comparison: no per-worker lines */
	/* the comparison */
	bool compare;
	unsigned int rounds;
	bool warm;			/* stressapptest -W as a third side */
	bool hugepages;			/* reserve 2 MiB pages for both sides (root) */
	const char *sat;		/* stressapptest's path */
	const char *log_dir;		/* every run's output is kept here */
};

/* The comparison (host/soak/twin_compare.c): the exit status. */
int ck_soak_compare(const struct ck_soak_opts *o, const char *self);

#endif
