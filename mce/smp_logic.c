// SPDX-License-Identifier: GPL-2.0-only
/*
 * smp_logic.c - the rendezvous decisions and per-CPU setup verdicts of machine checks on
 * several CPUs, as plain C (see smp_logic.h). No CPU, clock or memory is touched here: the
 * handler (mce/handler.c) and the setup (mce/smp.c) read the registers and pass the facts.
 */
#include "kernel/lib/format.h"
#include "mce/mce_regs.h"
#include "mce/smp_logic.h"

bool mce_rv_broadcast_capable(bool amd, u32 family, u32 model)
{
	return !amd && (family > 6 || (family == 6 && model >= 0xe));
}

bool mce_rv_needed(bool amd, bool capable, u64 mcg_status, unsigned int nr_online)
{
	return !amd && capable && nr_online > 1 && (mcg_status & MCG_STATUS_MCIP) &&
	       !(mcg_status & MCG_STATUS_LMCES);
}

enum mce_grade mce_rv_cpu_grade(const struct mce_decision *d)
{
	if (d->fatal || d->end == MCE_END_PANIC)
		return MCE_GRADE_PANIC;
	return d->worst ? d->worst->grade : MCE_GRADE_NONE;
}

const struct mce_rule *mce_rv_cpu_why(const struct mce_decision *d)
{
	if (d->fatal)
		return d->fatal;
	return d->end == MCE_END_PANIC ? d->why : d->worst;
}

bool mce_rv_checked_in(const struct mce_view *v, u32 gen)
{
	return v && v->gen == gen && v->order;
}

static const struct mce_rule rule_reign_fatal = {
	.name = "broadcast machine check: a CPU's error is fatal", .grade = MCE_GRADE_PANIC,
};

void mce_rv_reign(mce_view_fn view, void *ctx, unsigned int n, u32 gen, struct mce_reign *out)
{
	const struct mce_view *worst = NULL;

	*out = (struct mce_reign){ .end = MCE_END_RESUME, .worst = MCE_GRADE_NONE,
				   .worst_cpu = -1, .monarch = -1 };
	for (unsigned int c = 0; c < n; c++) {
		const struct mce_view *v = view(ctx, c);

		if (!v)
			continue;
		out->nr_online++;
		if (!mce_rv_checked_in(v, gen))
			continue;
		out->nr_in++;
		if (v->order == 1)
			out->monarch = (int)c;
		/* Linux: only a strictly worse grade replaces the one found first. */
		if (v->grade > out->worst) {
			out->worst = v->grade;
			out->worst_cpu = (int)c;
			worst = v;
		}
	}
	if (out->worst >= MCE_GRADE_PANIC) {
		out->end = MCE_END_PANIC;
		out->why = worst->why ? worst->why : &rule_reign_fatal;
	} else if (out->worst <= MCE_GRADE_KEEP) {
		/* Nobody claims it: an external source, or a CPU is hung. */
		out->end = MCE_END_PANIC;
		out->why = &mce_rule_unknown_source;
	}
}

bool mce_rv_stage_done(enum mce_rv_stage s, unsigned int callin, unsigned int executing,
		       unsigned int order, unsigned int expected)
{
	switch (s) {
	case MCE_RV_CALLIN:
		return callin >= expected;
	case MCE_RV_TURN:
		return executing >= order;
	case MCE_RV_SUBJECTS:
		return executing > expected;
	case MCE_RV_MONARCH:
		return executing == 0;
	}
	return true;
}

enum mce_rv_wait mce_rv_wait_step(bool done, u64 now, u64 deadline)
{
	if (done)
		return MCE_RV_GO;
	/* Linux's mce_timed_out(): no budget left for one more spin is a timeout. */
	return now >= deadline ? MCE_RV_TIMEOUT : MCE_RV_WAIT;
}

static const struct mce_rule rule_timeout[] = {
	[MCE_RV_CALLIN] = { .name = "timeout: not all CPUs entered the broadcast machine-check "
			    "handler", .grade = MCE_GRADE_PANIC },
	[MCE_RV_TURN] = { .name = "timeout: a CPU checked in before this one did not finish its "
			  "bank scan", .grade = MCE_GRADE_PANIC },
	[MCE_RV_SUBJECTS] = { .name = "timeout: the Monarch waited for Subject CPUs to finish "
			      "their bank scans", .grade = MCE_GRADE_PANIC },
	[MCE_RV_MONARCH] = { .name = "timeout: the Monarch did not finish the machine-check "
			     "processing", .grade = MCE_GRADE_PANIC },
};

const struct mce_rule *mce_rv_timeout_rule(enum mce_rv_stage s)
{
	return &rule_timeout[s <= MCE_RV_MONARCH ? s : MCE_RV_CALLIN];
}

const char *mce_rv_ordinal(unsigned int n, char *buf, size_t size)
{
	const char *suf = "th";

	if (n % 100 < 11 || n % 100 > 13) {
		if (n % 10 == 1)
			suf = "st";
		else if (n % 10 == 2)
			suf = "nd";
		else if (n % 10 == 3)
			suf = "rd";
	}
	ck_snprintf(buf, size, "%u%s", n, suf);
	return buf;
}

enum mce_cmci_owner mce_cmci_probe(u64 ctl2_before, u64 ctl2_after)
{
	if (ctl2_before & MCI_CTL2_CMCI_EN)
		return MCE_CMCI_OTHER;
	return ctl2_after & MCI_CTL2_CMCI_EN ? MCE_CMCI_MINE : MCE_CMCI_NONE;
}

u64 mce_ipid_shared(const u64 *ipid, unsigned int n, const u64 *other, unsigned int m)
{
	u64 mask = 0;

	for (unsigned int i = 0; i < n && i < 64; i++) {
		if (!ipid[i])
			continue;
		for (unsigned int j = 0; j < m; j++)
			if (other[j] == ipid[i]) {
				mask |= BIT(i);
				break;
			}
	}
	return mask;
}

/* ---- the summary text ---- */

struct out {
	char *buf;
	size_t size;
	int len;
};

static void put(struct out *o, const char *fmt, ...) __printf(2, 3);
static void put(struct out *o, const char *fmt, ...)
{
	size_t at = (size_t)o->len < o->size ? (size_t)o->len : o->size;
	va_list ap;

	va_start(ap, fmt);
	o->len += ck_vsnprintf(o->buf ? o->buf + at : NULL, o->buf ? o->size - at : 0, fmt, ap);
	va_end(ap);
}

/* Members of 0 .. n - 1 for which @in says yes, as ranges; "none" when there are none. */
static void put_set(struct out *o, bool (*in)(const void *ctx, unsigned int i),
		    const void *ctx, unsigned int n)
{
	bool any = false;

	for (unsigned int i = 0; i < n; i++) {
		unsigned int j = i;

		if (!in(ctx, i))
			continue;
		while (j + 1 < n && in(ctx, j + 1))
			j++;
		put(o, "%s%u", any ? "," : "", i);
		if (j > i)
			put(o, "%s%u", j == i + 1 ? "," : "-", j);
		any = true;
		i = j;
	}
	if (!any)
		put(o, "none");
}

static bool bank_in(const void *ctx, unsigned int i)
{
	return *(const u64 *)ctx & BIT(i);
}

int mce_bank_list(u64 mask, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };

	if (buf && size)
		buf[0] = '\0';
	put_set(&o, bank_in, &mask, 64);
	return o.len;
}

struct sel {
	mce_facts_fn facts;
	void *ctx;
	unsigned int nbanks;
	bool (*test)(const struct mce_cpu_facts *f, const struct sel *s);
};

static bool cpu_in(const void *ctx, unsigned int i)
{
	const struct sel *s = ctx;
	const struct mce_cpu_facts *f = s->facts(s->ctx, i);

	return f && f->started && s->test(f, s);
}

static bool t_stale(const struct mce_cpu_facts *f, const struct sel *s)
{
	return f->stale;
}

static bool t_nbanks(const struct mce_cpu_facts *f, const struct sel *s)
{
	return f->mca && f->nbanks == s->nbanks;
}

static bool t_not_enabled(const struct mce_cpu_facts *f, const struct sel *s)
{
	return f->not_enabled;
}

static bool t_no_mca(const struct mce_cpu_facts *f, const struct sel *s)
{
	return !f->mca;
}

int mce_cpus_summary(mce_facts_fn facts, void *ctx, unsigned int n, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };
	struct sel s = { facts, ctx, 0, NULL };
	unsigned int started = 0, counts[4] = { 0 }, values[4], nval = 0, with_mca = 0;
	u64 shared = 0;
	bool by_cmci = false, by_ipid = false, unknown = false;

	if (buf && size)
		buf[0] = '\0';
	for (unsigned int c = 0; c < n; c++) {
		const struct mce_cpu_facts *f = facts(ctx, c);
		unsigned int k;

		if (!f || !f->started)
			continue;
		started++;
		if (!f->mca)
			continue;
		with_mca++;
		for (k = 0; k < nval && values[k] != f->nbanks; k++)
			;
		if (k == nval && nval < 4)
			values[nval++] = f->nbanks;
		if (k < nval)
			counts[k]++;
		shared |= f->shared;
		by_cmci |= f->share == MCE_SHARE_CMCI;
		by_ipid |= f->share == MCE_SHARE_IPID;
		unknown |= f->share == MCE_SHARE_UNKNOWN;
	}
	put(&o, "%u CPU%s (%u started), banks ", n, n == 1 ? "" : "s", started);
	if (!with_mca) {
		put(&o, "none (no MCA)");
	} else if (nval == 1 && counts[0] == started) {
		put(&o, "%u on every CPU", values[0]);
	} else {
		for (unsigned int k = 0; k < nval; k++) {
			s.nbanks = values[k];
			s.test = t_nbanks;
			put(&o, "%s%u on CPUs ", k ? ", " : "", values[k]);
			put_set(&o, cpu_in, &s, n);
		}
		if (with_mca < started) {
			s.test = t_no_mca;
			put(&o, ", no MCA on CPUs ");
			put_set(&o, cpu_in, &s, n);
		}
	}
	s.test = t_not_enabled;
	put(&o, " (not enabling on CPUs ");
	put_set(&o, cpu_in, &s, n);
	s.test = t_stale;
	put(&o, "), stale errors on CPUs ");
	put_set(&o, cpu_in, &s, n);
	put(&o, ", shared banks ");
	if (!by_cmci && !by_ipid) {
		put(&o, "unknown (no CMCI ownership probe, no SMCA IPID)");
	} else {
		put_set(&o, bank_in, &shared, 64);
		put(&o, " (%s%s%s)", by_cmci ? "CMCI ownership probe" : "",
		    by_cmci && by_ipid ? ", " : "", by_ipid ? "SMCA IPID" : "");
		if (unknown)
			put(&o, ", unknown on some CPUs");
	}
	return o.len;
}
