// SPDX-License-Identifier: GPL-2.0-only
/*
 * dispatch.c - Linux's choice of string primitive per API, as a pure function of the CPU's
 * derived features (see dispatch.h for the rules).
 */
#include "copy/dispatch.h"

const char *const copy_page_impl_names[NR_COPY_PAGE_IMPL] = { "rep", "unrolled" };
const char *const memcpy_impl_names[NR_MEMCPY_IMPL] = { "erms", "orig" };
const char *const copy_mc_impl_names[NR_COPY_MC_IMPL] = {
	"fragile", "erms", "memcpy", "avx2nt", "avx512nt",
};
const char *const clear_page_impl_names[NR_CLEAR_PAGE_IMPL] = {
	"erms", "rep", "unrolled", "nt", "clzero",
};
const char *const copy_pages_impl_names[NR_COPY_PAGES_IMPL] = { "erms", "rep", "unrolled" };
const char *const memcpy_pa_impl_names[NR_MEMCPY_PA_IMPL] = { "erms", "rep", "unrolled" };

const char *copy_page_impl_desc(enum copy_page_impl i)
{
	return i == COPY_PAGE_REP ? "rep movsq" : "unrolled movq";
}

const char *memcpy_impl_desc(enum memcpy_impl i)
{
	return i == MEMCPY_ERMS ? "rep movsb" : "memcpy_orig (movq)";
}

const char *copy_mc_impl_desc(enum copy_mc_impl i)
{
	switch (i) {
	case COPY_MC_FRAGILE:	return "copy_mc_fragile (movq)";
	case COPY_MC_ERMS:	return "rep movsb";
	case COPY_MC_AVX2_NT:	return "AVX2 load + NT store";
	case COPY_MC_AVX512_NT:	return "AVX-512 load + NT store";
	default:		return "memcpy (not #MC-safe)";
	}
}

const char *clear_page_impl_desc(enum clear_page_impl i)
{
	switch (i) {
	case CLEAR_PAGE_ERMS:	return "rep stosb";
	case CLEAR_PAGE_REP:	return "rep stosq";
	case CLEAR_PAGE_NT:	return "movnti (NT)";
	case CLEAR_PAGE_CLZERO:	return "clzero";
	default:		return "unrolled movq";
	}
}

const char *copy_pages_impl_desc(enum copy_pages_impl i, bool mc)
{
	switch (i) {
	case COPY_PAGES_ERMS:	return "rep movsb";
	case COPY_PAGES_REP:	return "rep movsq";
	default:		return mc ? "unrolled movq (no prefetch)" : "unrolled movq";
	}
}

const char *memcpy_pa_impl_desc(enum memcpy_pa_impl i)
{
	switch (i) {
	case MEMCPY_PA_ERMS:	return "rep movsb";
	case MEMCPY_PA_REP:	return "pages: rep movsq, else memcpy_orig";
	default:		return "pages: unrolled movq, else memcpy_orig";
	}
}

/*
 * Linux 7.0's clear_pages(): ALTERNATIVE_2(unrolled, rep stosq on REP_GOOD, rep stosb on
 * ERMS); the later alternative's feature wins, so ERMS takes it with or without REP_GOOD.
 */
static void decide_clear_pages(const struct dispatch_cpu *cpu, struct copy_dispatch *d)
{
	if (cpu->erms) {
		d->clear_pages = CLEAR_PAGE_ERMS;
		d->clear_pages_why = "ERMS";
	} else if (cpu->rep_good) {
		d->clear_pages = CLEAR_PAGE_REP;
		d->clear_pages_why = "REP_GOOD, no ERMS";
	} else {
		d->clear_pages = CLEAR_PAGE_UNROLLED;
		d->clear_pages_why = "no ERMS, no REP_GOOD";
	}
}

/* rep movsb when @fast (the key's feature), else rep movsq with REP_GOOD, else unrolled. */
static enum copy_pages_impl pages_body(bool fast, bool rep_good)
{
	return fast ? COPY_PAGES_ERMS : rep_good ? COPY_PAGES_REP : COPY_PAGES_UNROLLED;
}

static const char *const pages_why[NR_COPY_PAGES_IMPL][2] = {	/* [impl][keyed on FSRM] */
	{ "ERMS (as clear_pages)", "FSRM" },
	{ "REP_GOOD, no ERMS", "REP_GOOD, no FSRM" },
	{ "no ERMS, no REP_GOOD", "no FSRM, no REP_GOOD" },
};

/* The candidates (dispatch.h): none is Linux's. */
static void decide_candidates(const struct dispatch_cpu *cpu, struct copy_dispatch *d)
{
	d->copy_pages = pages_body(cpu->erms, cpu->rep_good);
	d->copy_pages_why = pages_why[d->copy_pages][0];
	d->copy_pages_fsrm = pages_body(cpu->fsrm, cpu->rep_good);
	d->copy_pages_fsrm_why = pages_why[d->copy_pages_fsrm][1];
	d->memcpy_pa = cpu->fsrm ? MEMCPY_PA_ERMS : cpu->rep_good ? MEMCPY_PA_REP :
		       MEMCPY_PA_UNROLLED;
	d->memcpy_pa_why = d->memcpy_pa == MEMCPY_PA_ERMS ? "FSRM (memcpy unchanged)" :
			   d->memcpy_pa == MEMCPY_PA_REP ? "no FSRM; pages as copy_page (REP_GOOD)" :
			   "no FSRM; pages as copy_page (no REP_GOOD)";
	if (cpu->fragile) {
		d->copy_mc_pages = COPY_PAGES_UNROLLED;
		d->copy_mc_pages_why = "fragile enabled: no string instruction";
	} else {
		d->copy_mc_pages = pages_body(cpu->erms, cpu->rep_good);
		d->copy_mc_pages_why = pages_why[d->copy_mc_pages][0];
	}
}

void dispatch_override_clear(struct copy_dispatch *d, enum clear_page_impl impl,
			     const char *why)
{
	d->clear_page = d->clear_pages = impl;
	d->clear_page_why = d->clear_pages_why = why;
}

void dispatch_decide(const struct dispatch_cpu *cpu, struct copy_dispatch *d)
{
	if (cpu->rep_good) {
		d->copy_page = COPY_PAGE_REP;
		d->copy_page_why = "REP_GOOD";
	} else {
		d->copy_page = COPY_PAGE_UNROLLED;
		d->copy_page_why = "no REP_GOOD";
	}

	if (cpu->fsrm) {
		d->memcpy = MEMCPY_ERMS;
		d->memcpy_why = "FSRM";
	} else {
		d->memcpy = MEMCPY_ORIG;
		d->memcpy_why = "no FSRM";
	}

	if (cpu->fragile) {
		d->copy_mc = COPY_MC_FRAGILE;
		d->copy_mc_why = "fragile enabled";
	} else if (cpu->erms) {
		d->copy_mc = COPY_MC_ERMS;
		d->copy_mc_why = "ERMS";
	} else {
		d->copy_mc = COPY_MC_MEMCPY;
		d->copy_mc_why = "no ERMS, fragile off";
	}

	if (cpu->erms) {
		d->clear_page = CLEAR_PAGE_ERMS;
		d->clear_page_why = "ERMS";
	} else if (cpu->rep_good) {
		d->clear_page = CLEAR_PAGE_REP;
		d->clear_page_why = "REP_GOOD, no ERMS";
	} else {
		d->clear_page = CLEAR_PAGE_UNROLLED;
		d->clear_page_why = "no ERMS, no REP_GOOD";
	}
	decide_clear_pages(cpu, d);
	decide_candidates(cpu, d);
}

const char *copy_mc_cannot_run(enum copy_mc_impl impl, const struct dispatch_caps *c)
{
	if (impl == COPY_MC_AVX2_NT && !c->avx2)
		return "needs AVX2 (CPUID 7.0:EBX[5]) with AVX state enabled";
	if (impl == COPY_MC_AVX512_NT && !c->avx512f)
		return "needs AVX-512F (CPUID 7.0:EBX[16]) with its state enabled";
	return NULL;
}

const char *clear_page_cannot_run(enum clear_page_impl impl, const struct dispatch_caps *c)
{
	if (impl == CLEAR_PAGE_CLZERO && !c->clzero)
		return "needs CLZERO (CPUID 80000008h:EBX[0], AMD)";
	return NULL;
}
