// SPDX-License-Identifier: GPL-2.0-only
/*
 * copy_setup.c - bind copy/ to this machine: dispatch from the identified CPU, overrides from
 * the command line, the seed-style table, and struct page arrays for every RAM run.
 *
 * copy_mc_fragile: Linux enables it through platform quirks (Brickland and Purley Xeon RAS
 * SKUs, found through PCI config space) or its MCE recovery option. The image probes no PCI
 * device, so it never enables fragile by itself: copy_mc=fragile selects it.
 */
#include "copy/ops.h"
#include "copy/pages.h"
#include "init/cmdline_errors.h"
#include "init/copy_setup.h"
#include "init/dispatch_cpu.h"
#include "kernel/arch/fpu.h"
#include "kernel/console/printk.h"
#include "kernel/lib/format.h"
#include "kernel/platform/cpu.h"
#include "kernel/platform/numa.h"

void copy_linux_choice(struct copy_dispatch *d)
{
	struct dispatch_cpu in;

	dispatch_cpu_from_ident(cpu(), false, &in);
	dispatch_decide(&in, d);
}

void copy_caps(struct dispatch_caps *c)
{
	c->avx2 = cpu()->avx2 && fpu_state()->avx;
	c->avx512f = cpu()->avx512f && fpu_state()->avx512;
	c->clzero = cpu()->clzero;
}

/* Linux's primitives run on any x86-64 CPU; the candidates beyond Linux need features. */
static const char *runs_anywhere(int impl)
{
	(void)impl;
	return NULL;
}

static const char *copy_mc_check(int impl)
{
	struct dispatch_caps c;

	copy_caps(&c);
	return copy_mc_cannot_run((enum copy_mc_impl)impl, &c);
}

static const char *clear_page_check(int impl)
{
	struct dispatch_caps c;

	copy_caps(&c);
	return clear_page_cannot_run((enum clear_page_impl)impl, &c);
}

/*
 * Apply one command-line override (@field: 0 = none, else 1 + impl). Returns 1 if refused:
 * a command-line error (init/cmdline_errors.h), said with what is kept instead.
 */
static int apply_override(const char *key, u8 field, const char *(*check)(int impl), int *slot,
			  const char **why, const char *const *names)
{
	char brief[CMDLINE_ERROR_LEN];
	const char *no;

	if (!field)
		return 0;
	no = check(field - 1);
	if (no) {
		pr_err("dispatch: %s=%s refused: %s; keeping %s\n", key, names[field - 1], no,
		       names[*slot]);
		ck_snprintf(brief, sizeof(brief), "'%s=%s': refused (%s); keeping %s", key,
			    names[field - 1], no, names[*slot]);
		cmdline_error_add(brief);
		return 1;
	}
	*why = *slot == field - 1 ? "command-line override (same as Linux's choice)" :
				    "command-line override";
	*slot = field - 1;
	return 0;
}

/* The copy_pages() candidates (copy/dispatch.h), each line saying it is not Linux's. */
static void print_candidates(const struct copy_dispatch *d)
{
	printk("dispatch: candidate (not Linux) copy_pages=%s: %s (%s); FSRM-keyed=%s: %s (%s)\n",
	       copy_pages_impl_names[d->copy_pages], copy_pages_impl_desc(d->copy_pages, false),
	       d->copy_pages_why, copy_pages_impl_names[d->copy_pages_fsrm],
	       copy_pages_impl_desc(d->copy_pages_fsrm, false), d->copy_pages_fsrm_why);
	printk("dispatch: candidate (not Linux) memcpy_pa=%s: %s (%s); copy_mc_pages=%s: %s "
	       "(%s)\n", memcpy_pa_impl_names[d->memcpy_pa], memcpy_pa_impl_desc(d->memcpy_pa),
	       d->memcpy_pa_why, copy_pages_impl_names[d->copy_mc_pages],
	       copy_pages_impl_desc(d->copy_mc_pages, true), d->copy_mc_pages_why);
}

int copy_setup(const struct ck_config *cfg)
{
	struct copy_dispatch d;
	const struct cpu_ident *c = cpu();
	char a[48], b[48];
	int refused = 0, v;

	copy_linux_choice(&d);
	v = (int)d.copy_page;
	refused += apply_override("copy_page", cfg->copy_page, runs_anywhere, &v,
				  &d.copy_page_why, copy_page_impl_names);
	d.copy_page = (enum copy_page_impl)v;
	v = (int)d.memcpy;
	refused += apply_override("memcpy", cfg->memcpy, runs_anywhere, &v, &d.memcpy_why,
				  memcpy_impl_names);
	d.memcpy = (enum memcpy_impl)v;
	v = (int)d.copy_mc;
	refused += apply_override("copy_mc", cfg->copy_mc, copy_mc_check, &v, &d.copy_mc_why,
				  copy_mc_impl_names);
	d.copy_mc = (enum copy_mc_impl)v;
	v = (int)d.clear_page;
	refused += apply_override("clear_page", cfg->clear_page, clear_page_check, &v,
				  &d.clear_page_why, clear_page_impl_names);
	if (cfg->clear_page)	/* clear_pages() takes the override too */
		dispatch_override_clear(&d, (enum clear_page_impl)v, d.clear_page_why);
	copy_ops_apply(&d);

	printk("dispatch: %s family 0x%x model 0x%x: REP_GOOD %s, ERMS %s, FSRM %s, "
	       "copy_mc_fragile %s\n", c->vendor_str, c->family, c->model,
	       c->rep_good ? "yes" : "no", c->erms_effective ? "yes" : "no",
	       c->fsrm ? "yes" : "no",
	       d.copy_mc == COPY_MC_FRAGILE ? "on" : "off (no platform quirk probed)");
	printk("dispatch: %-20s %-34s %-34s %s\n", "API", "per-page primitive",
	       "bulk primitive (batched)", "why");
	ck_snprintf(a, sizeof(a), "copy_page: %s", copy_page_impl_desc(d.copy_page));
	ck_snprintf(b, sizeof(b), "memcpy: %s", memcpy_impl_desc(d.memcpy));
	printk("dispatch: %-20s %-34s %-34s %s; %s\n", "copy_highpage(s)", a, b, d.copy_page_why,
	       d.memcpy_why);
	ck_snprintf(a, sizeof(a), "copy_mc: %s", copy_mc_impl_desc(d.copy_mc));
	printk("dispatch: %-20s %-34s %-34s %s\n", "copy_mc_highpage(s)", a, a, d.copy_mc_why);
	ck_snprintf(a, sizeof(a), "clear_page: %s", clear_page_impl_desc(d.clear_page));
	ck_snprintf(b, sizeof(b), "clear_pages: %s", clear_page_impl_desc(d.clear_pages));
	printk("dispatch: %-20s %-34s %-34s %s\n", "clear_highpage(s)", a, b, d.clear_page_why);
	print_candidates(&d);
	return refused;
}
