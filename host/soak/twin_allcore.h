/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host/soak/twin_allcore.h - the machine's all-core limits measured for make soak-bench
 * (host/soak/twin_allcore.c; what they are: host/soak/twin_limit.h).
 */
#ifndef CK_HOST_SOAK_TWIN_ALLCORE_H
#define CK_HOST_SOAK_TWIN_ALLCORE_H

#include <stddef.h>

#include "host/lib/machine.h"
#include "host/soak/twin_limit.h"

#define SOAK_LIMIT_MS	1000	/* each stream's time, every thread at once */

/*
 * One measurement of every limit on the @nr CPUs @cpu at once, over @mib MiB in all (each
 * thread maps its own share, half source and half destination, after it is pinned: hugetlb
 * when there are pages, else THP), into @limit (bytes/s; 0: not measured). @memory says what
 * the mapping got. False, after a line that says why, when a thread could not start or map.
 */
bool soak_allcore_measure(const struct ck_host *h, const int *cpu, unsigned int nr, u64 mib,
			  double limit[NR_SOAK_LIMITS], char *memory, size_t size);

#endif
