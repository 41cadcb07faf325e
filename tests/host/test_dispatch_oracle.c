// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_dispatch_oracle.c - the feature rules (cpufeat_apply_rules) and the dispatch rules
 * (dispatch_decide) against ktest/oracle/linux_dispatch_facts.h: rows of what Linux v6.17
 * ends up using for given CPUID facts, written from Linux's sources as data by someone who
 * had not read this code, with the clear_pages() column of Linux 7.0 as merged. Every row
 * must agree, column by column; the test prints how many were compared.
 */
#include "copy/dispatch.h"
#include "init/dispatch_cpu.h"
#include "kernel/platform/cpufeat.h"
#include "ktest/oracle/linux_dispatch_facts.h"
#include "tests/host/host_test.h"

/* CPUID 1 EAX for a family/model/stepping, as the CPU would encode it. */
static u32 signature_of(unsigned int fam, unsigned int model, unsigned int step)
{
	u32 eax = step & 0xf;

	if (fam >= 0xf) {
		eax |= 0xfu << 8;
		eax |= (u32)(fam - 0xf) << 20;
	} else {
		eax |= fam << 8;
	}
	eax |= (model & 0xf) << 4;
	if (fam >= 6)
		eax |= (u32)(model >> 4) << 16;
	return eax;
}

static void test_rows_agree(void)
{
	unsigned int n = sizeof(lx_dispatch_facts) / sizeof(lx_dispatch_facts[0]), bad = 0;
	unsigned int bad_cp = 0;

	for (unsigned int i = 0; i < n; i++) {
		const struct lx_dispatch_fact *f = &lx_dispatch_facts[i];
		struct dispatch_cpu in;
		struct copy_dispatch d;
		struct cpu_ident c;
		u32 fam, model, step;
		bool ok;

		memset(&c, 0, sizeof(c));
		c.vendor = cpuid_vendor(f->vendor);
		c.signature = signature_of(f->family, f->model, f->stepping);
		cpuid_decode_signature(c.signature, &fam, &model, &step);
		CHECK(fam == f->family && model == f->model && step == f->stepping,
		      "%s: signature 0x%x decodes to 0x%x/0x%x/%u", f->cpu, c.signature, fam,
		      model, step);
		c.family = fam;
		c.model = model;
		c.stepping = step;
		c.erms = f->erms;
		c.fsrm = f->fsrm;
		c.misc_enable_valid = c.vendor == VENDOR_INTEL;
		c.fast_strings = f->fast_strings;
		cpufeat_apply_rules(&c);
		dispatch_cpu_from_ident(&c, f->fragile, &in);
		dispatch_decide(&in, &d);
		ok = c.rep_good == f->rep_good && c.erms_effective == f->erms_effective &&
		     !strcmp(copy_page_impl_names[d.copy_page], f->copy_page) &&
		     !strcmp(memcpy_impl_names[d.memcpy], f->memcpy) &&
		     !strcmp(clear_page_impl_names[d.clear_page], f->clear_page) &&
		     !strcmp(copy_mc_impl_names[d.copy_mc], f->copy_mc);
		CHECK(ok, "%s (%s fam 0x%x model 0x%x): ours REP_GOOD %d ERMS %d copy_page %s "
		      "memcpy %s clear_page %s copy_mc %s; Linux %d %d %s %s %s %s (%s)", f->cpu,
		      f->vendor, f->family, f->model, c.rep_good, c.erms_effective,
		      copy_page_impl_names[d.copy_page], memcpy_impl_names[d.memcpy],
		      clear_page_impl_names[d.clear_page], copy_mc_impl_names[d.copy_mc],
		      f->rep_good, f->erms_effective, f->copy_page, f->memcpy, f->clear_page,
		      f->copy_mc, f->source);
		bad += !ok;
		/* Linux 7.0's clear_pages(): decided on its own, compared on its own. */
		ok = !strcmp(clear_page_impl_names[d.clear_pages], f->clear_pages);
		CHECK(ok, "%s: clear_pages ours %s (%s), Linux 7.0 %s (%s)", f->cpu,
		      clear_page_impl_names[d.clear_pages], d.clear_pages_why, f->clear_pages,
		      f->source);
		bad_cp += !ok;
	}
	printf("# dispatch oracle: %u CPU rows compared, %u disagreements; clear_pages (7.0): "
	       "%u disagreements\n", n, bad, bad_cp);
}

int main(void)
{
	return RUN_TESTS(test_rows_agree);
}
