/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dispatch_cpu.h - the adapter between an identified CPU (kernel/platform/cpufeat.h) and the
 * inputs of the dispatch rules (copy/dispatch.h). It lives with the run because neither room
 * may see the other: copy/ knows no CPU identification, the platform knows no copy routine.
 */
#ifndef CK_INIT_DISPATCH_CPU_H
#define CK_INIT_DISPATCH_CPU_H

#include "copy/dispatch.h"
#include "kernel/platform/cpufeat.h"

/* The rule inputs from an identified CPU (after cpufeat_apply_rules). */
static inline void dispatch_cpu_from_ident(const struct cpu_ident *c, bool fragile,
					   struct dispatch_cpu *out)
{
	out->rep_good = c->rep_good;
	out->erms = c->erms_effective;
	out->fsrm = c->fsrm;
	out->fragile = fragile;
}

#endif
