// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cores.c - the cores suite: cores that compute or copy wrongly. Every online CPU runs
 * the same seeded kernel at once (cores/: copy primitives, CRC32C by instruction, an integer
 * multiply/divide chain, the others of cores/list.c), each in its own buffers, and returns
 * a digest; the digests are put to the vote against the known answer (cores/vote.h). One
 * case per kernel, with one KTAP parameter per CPU (ok when that CPU is not named) and one
 * JSON record (cores/record.h); a CPU whose own CPUID lacks what a kernel needs skips it, and
 * the case says which and why. A CPU the vote names replays the seed beside one that did
 * not. Then the copy pairs: each CPU checks the copy the CPU before it wrote, a third CPU
 * deciding between writer and checker. cores= (t->ctx->cores) picks the seed, the rounds and
 * the families. Each CPU reads its machine-check banks just before and after each slice (its
 * part of one dispatch: a kernel's run, a replay, a copy check) and the #MC records taken
 * meanwhile are matched to the slices by CPU and TSC (cores/mca.h grades them): a finding is
 * reported with the slice, kernel, CPU, bank, microcode and PPIN, and fails the case that
 * read it as cores/mca.h says. With cores=time: the cases above are pass 1 of the soak mode
 * and the case soak runs further passes, each with its own seed, until the time is up: a
 * clean pass prints nothing, a failing one its findings under a line naming the pass and its
 * seed (the first CORES_SOAK_DETAILED failing passes; later ones are counted), every pass is
 * counted once and the total is one record (cores_soak). docs/user/cores.md is the reader's
 * page.
 */
#include "cores/k_copy.h"
#include "cores/list.h"
#include "cores/mca.h"
#include "cores/topo.h"
#include "cores/opts.h"
#include "cores/record.h"
#include "cores/vote.h"
#include "kernel/arch/bootmem.h"
#include "kernel/arch/cpuid.h"
#include "kernel/arch/percpu.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/platform/cpu_here.h"
#include "kernel/platform/smp.h"
#include "kernel/platform/tsc.h"
#include "ktest/lib/ctx.h"
#include "ktest/lib/ktap.h"
#include "mce/mce.h"
#include "mce/mce_regs.h"
#include "mce/poll.h"
#include "soak/ledger.h"

struct cores_slot {
	u64 digest;
	u64 ticks;		/* the kernel's run on this CPU, TSC ticks */
	const char *why_not;	/* this CPU cannot run the kernel: why (its own CPUID) */
	bool done;
};

/* Every CPU the same seed (cores=seed:), so the same data and the same digests. */
struct cores_job {
	const struct cores_kernel *k;
	u64 seed;
	unsigned int rounds;	/* seeds seed .. seed + rounds - 1, folded */
};

static struct cores_slot slots[NR_CPUS];
static u64 digests[NR_CPUS], scratch[NR_CPUS];
static unsigned int voter_cpu[NR_CPUS];
static u8 *areas;
static unsigned int nr_ran, nr_skipped;
static u64 first_us;		/* when the first kernel started (smp_now_us) */

/* ---- the soak mode (cores=time:): pass 1 is the cases, the soak case the rest ---------- */

#define CORES_SOAK_DETAILED	8	/* failing soak passes printed in full; later ones counted */
#define CORES_SOAK_MCA_LINES	32	/* corrected-error lines the soak passes print, at most */

static bool in_soak;			/* a pass of the soak case runs: quiet when it agrees */
static unsigned int soak_pass = 1;	/* the pass running; the cases are pass 1 */
static u64 pass_seed;			/* its seed */
static bool pass_failed, pass_detailed;
static unsigned int nr_failing, nr_soak_failing, nr_detailed, soak_mca_lines;
static unsigned int first_failing;
static u64 first_failing_seed;
static bool named_now[NR_CPUS];		/* named in the pass running */
static unsigned int named_passes[NR_CPUS], named_soak_passes[NR_CPUS];
static const struct cores_opts *run_opts;	/* cores= of the run, for the replay words */

/* A soak pass past the detailed ones: its findings are counted, not printed. */
static bool soak_hush(void)
{
	return in_soak && !pass_detailed;
}

/* Whole records (printk() keeps PRINTK_MAX bytes): as one diagnostic line of the case. */
static void say_json(const char *json)
{
	static char line[4096];
	int n = ck_snprintf(line, sizeof(line), "    # %s\n", json);

	console_write(line, MIN((size_t)n, sizeof(line) - 1));
}

/*
 * The pass running found something (naming CPU @cpu, or no CPU: ~0U): counted once for the
 * pass; in a soak pass, the first finding says which pass and how to replay it alone.
 */
static void note_fail(unsigned int cpu)
{
	if (cpu < NR_CPUS)
		named_now[cpu] = true;
	if (pass_failed)
		return;
	pass_failed = true;
	pass_detailed = !in_soak || nr_detailed < CORES_SOAK_DETAILED;
	if (in_soak && pass_detailed) {
		struct cores_opts again = *run_opts;
		char words[96];

		again.seed = pass_seed;
		again.seed_set = true;
		again.seconds = 0;
		cores_opts_text(&again, words, sizeof(words));
		ck_diag("soak: pass %u (seed 0x%llx) finds what follows; cores=%s replays it alone",
			soak_pass, (unsigned long long)pass_seed, words);
	}
}

/* A failure: reported in full, or in a soak pass past the detailed ones, only counted. */
#define finding(t, ...)	(soak_hush() ? ((t)->failed = true, false) :			\
				 report(t, false, __VA_ARGS__))

/* The pass ended: each finding counted once, for the pass and for each CPU it named. */
static void pass_end(void)
{
	if (pass_failed) {
		nr_failing++;
		nr_soak_failing += in_soak;
		nr_detailed += in_soak && pass_detailed;
		if (!first_failing) {
			first_failing = soak_pass;
			first_failing_seed = pass_seed;
		}
	}
	for (unsigned int c = 0; c < smp_nr_cpus(); c++) {
		named_passes[c] += named_now[c];
		named_soak_passes[c] += in_soak && named_now[c];
		named_now[c] = false;
	}
	pass_failed = pass_detailed = false;
}

/* ---- machine checks around each slice ------------------------------------------------- */

/* What identifies a CPU, read by that CPU at its first slice. */
struct cores_ident {
	bool read, ucode_ok, ppin_ok, said;
	u32 ucode;
	u64 ppin;
	const char *no_ppin;	/* why it has none */
};

#define SLICE_MCA	8

/* One CPU's findings around the current slice: written by that CPU only, read after it. */
struct slice_mca {
	struct cores_mca_hit hit[SLICE_MCA];
	unsigned int n, lost;
	u64 t0, t1;		/* the slice, TSC */
};

static struct cores_ident idents[NR_CPUS];
static struct slice_mca slice_mca[NR_CPUS];
static struct cores_mca_ledger mca;
static bool mca_ready;
static unsigned int slice_no;
static const char *slice_kernel, *slice_part;
static u64 slice_mc_seq;		/* mce_count() when the slice was dispatched */
/* The current kernel case's findings, for its record; the CPUs a finding there fails. */
static struct cores_mca_hit case_hits[CORES_RECORD_MCA];
static unsigned int case_nr_hits;
static bool case_mca_bad[NR_CPUS];

/* ---- where each CPU sits (cores/topo.h) ------------------------------------------------- */

static struct cores_topo topo[NR_CPUS];
static bool topo_read[NR_CPUS];

/* The last-level cache's sharing from leaf 4 (Intel) or 8000001Dh (AMD): EAX[25:14] + 1. */
static u32 llc_sharing(u32 leaf)
{
	u32 best_level = 0, sharing = 0;

	for (u32 i = 0; i < 16; i++) {
		struct cpuid_regs x = cpuid_count(leaf, i);

		if (!(x.eax & 0x1f))			/* EAX[4:0]: cache type, 0: no more */
			break;
		if ((x.eax >> 5 & 7) >= best_level) {	/* EAX[7:5]: its level */
			best_level = x.eax >> 5 & 7;
			sharing = (x.eax >> 14 & 0xfff) + 1;
		}
	}
	return sharing;
}

/* This CPU's own CPUID, as cores/topo.h wants it (the field positions are the SDM's). */
static void read_topo(unsigned int c)
{
	struct cores_topo_raw r = { 0 };
	struct cpuid_regs l1 = cpuid(CPUID_LEAF_SIGNATURE);
	u32 max = cpuid(CPUID_LEAF_VENDOR).eax, max_ext = cpuid(CPUID_LEAF_EXT_MAX).eax;
	u32 leaf = CPUID_LEAF_EXT_TOPOLOGY;
	bool amd = cpuid_boot()->vendor == VENDOR_AMD || cpuid_boot()->vendor == VENDOR_HYGON;
	bool topoext = amd && cores_cpu_has(X86_FEATURE_TOPOEXT);

	if (max >= CPUID_LEAF_V2_EXT_TOPOLOGY && cpuid_count(CPUID_LEAF_V2_EXT_TOPOLOGY, 0).ebx)
		leaf = CPUID_LEAF_V2_EXT_TOPOLOGY;
	r.apic = l1.ebx >> 24;
	r.logical = l1.ebx >> 16 & 0xff;
	r.htt = l1.edx >> 28 & 1;
	if (max >= leaf && cpuid_count(leaf, 0).ebx & 0xffff) {
		r.ext = true;
		for (u32 i = 0; i < CORES_TOPO_LEVELS; i++) {
			struct cpuid_regs x = cpuid_count(leaf, i);

			if (!(x.ecx >> 8 & 0xff))	/* ECX[15:8]: level type, 0: no more */
				break;
			r.level[i].type = (u8)(x.ecx >> 8 & 0xff);
			r.level[i].shift = (u8)(x.eax & 0x1f);
			r.x2apic = x.edx;
			r.nr_levels++;
		}
	}
	if (!amd && max >= CPUID_LEAF_CACHE && (cpuid_count(CPUID_LEAF_CACHE, 0).eax & 0x1f)) {
		r.cores = (cpuid_count(CPUID_LEAF_CACHE, 0).eax >> 26) + 1;
		r.llc_sharing = llc_sharing(CPUID_LEAF_CACHE);
	}
	if (topoext && max_ext >= CPUID_LEAF_CACHE_AMD)
		r.llc_sharing = llc_sharing(CPUID_LEAF_CACHE_AMD);
	if (topoext && max_ext >= CPUID_LEAF_TOPOLOGY_AMD)
		r.amd_threads = (cpuid(CPUID_LEAF_TOPOLOGY_AMD).ebx >> 8 & 0xff) + 1;
	if (amd && max_ext >= CPUID_LEAF_ADDR_SIZES)
		r.amd_pkg_bits = cpuid(CPUID_LEAF_ADDR_SIZES).ecx >> 12 & 0xf;
	cores_topo_decode(&r, &topo[c]);
	topo_read[c] = true;
}

/* What the CPUs say of where they sit: each CPU (the first 8), then the counts. */
static void say_topo(void)
{
	unsigned int n = 0, pk = 0, cx = 0, co = 0;
	static bool said;

	if (said)
		return;
	said = true;
	for (unsigned int c = 0; c < smp_nr_cpus(); c++) {
		const struct cores_topo *t = &topo[c];
		bool new_pk = true, new_cx = true, new_co = true;

		if (!topo_read[c])
			continue;
		for (unsigned int d = 0; d < c; d++) {
			if (!topo_read[d])
				continue;
			new_pk &= topo[d].package != t->package;
			new_cx &= topo[d].complex != t->complex || topo[d].package != t->package;
			new_co &= topo[d].core != t->core || topo[d].package != t->package;
		}
		pk += new_pk;
		cx += new_cx;
		co += new_co;
		if (n++ < 8)
			ck_diag("topology: CPU %u (APIC id %u): package %u, complex %u, core %u "
				"(shifts %u/%u/%u, %s)", c, t->apic, t->package, t->complex,
				t->core, t->smt_shift, t->llc_shift, t->pkg_shift, t->source);
	}
	ck_diag("topology: %u CPUs: packages %u, core complexes %u, cores %u", n, pk, cx, co);
	for (unsigned int c = 0; c < smp_nr_cpus(); c++) {
		char buf[256];

		if (!topo_read[c])
			continue;
		cores_cpu_json(c, &topo[c], buf, sizeof(buf));
		say_json(buf);
	}
}

static void read_ident(unsigned int c)
{
	struct cores_ident *id = &idents[c];

	if (id->read)
		return;
	id->ucode_ok = cpu_ucode_rev_here(&id->ucode);
	id->ppin_ok = cpu_ppin_here(&id->ppin, &id->no_ppin);
	read_topo(c);
	id->read = true;
}

static u8 sev_of_poll(u8 kind)
{
	if (kind == MCE_POLL_DEFERRED)
		return CORES_MCA_DEFERRED;
	if (kind == MCE_POLL_UCNA)
		return CORES_MCA_UNCORRECTED;
	return CORES_MCA_CORRECTED;	/* corrected, AMD threshold overflow */
}

/* This CPU reads its banks as the poller does, before (@after false) or after its slice. */
static void slice_read(unsigned int c, bool after)
{
	struct slice_mca *m = &slice_mca[c];
	struct mce_poll_event ev[8];
	unsigned int n;

	mce_poll_cpu();
	while ((n = mce_poll_take(ev, ARRAY_SIZE(ev)))) {
		for (unsigned int i = 0; i < n; i++) {
			if (m->n == SLICE_MCA) {
				m->lost++;
				continue;
			}
			m->hit[m->n++] = (struct cores_mca_hit){
				.cpu = (u16)c, .bank = ev[i].bank, .status = ev[i].status,
				.sev = sev_of_poll(ev[i].kind),
				.when = cores_mca_read_when(after) };
		}
	}
}

static void slice_begin(unsigned int c)
{
	read_ident(c);
	slice_read(c, false);
	slice_mca[c].t0 = rdtsc();
}

static void slice_end(unsigned int c)
{
	slice_mca[c].t1 = rdtsc();
	slice_read(c, true);
}

/* Before a dispatch: a new slice number, every CPU's findings emptied. */
static void slice_start(const char *kernel, const char *part)
{
	if (!mca_ready) {
		cores_mca_init(&mca, SOAK_CE_THRESHOLD);
		mca_ready = true;
	}
	slice_no++;
	slice_kernel = kernel;
	slice_part = part;
	slice_mc_seq = mce_count();
	for (unsigned int c = 0; c < smp_nr_cpus(); c++)
		slice_mca[c] = (struct slice_mca){ .n = 0 };
}

/* A CPU's microcode and PPIN, once, before its first finding. */
static void say_ident(unsigned int c)
{
	struct cores_ident *id = &idents[c];
	char ucode[32], ppin[96];

	if (id->said)
		return;
	id->said = true;
	if (id->ucode_ok)
		ck_snprintf(ucode, sizeof(ucode), "microcode 0x%x", id->ucode);
	else
		ck_snprintf(ucode, sizeof(ucode), "microcode not readable");
	if (id->ppin_ok)
		ck_snprintf(ppin, sizeof(ppin), "PPIN 0x%016llx", (unsigned long long)id->ppin);
	else
		ck_snprintf(ppin, sizeof(ppin), "no PPIN (%s)", id->no_ppin);
	ck_diag("mca: CPU %u (APIC id %u): %s, %s", c, smp_cpu(c)->apic_id, ucode, ppin);
}

static void add_hit(struct ck_test *t, struct cores_mca_hit *h)
{
	const struct cores_ident *id = &idents[h->cpu];
	char msg[256];
	bool fails;

	h->slice = slice_no;
	h->kernel = slice_kernel;
	h->part = slice_part;
	h->apic = smp_cpu(h->cpu)->apic_id;
	h->ucode_ok = id->ucode_ok;
	h->ucode = id->ucode;
	h->ppin_ok = id->ppin_ok;
	h->ppin = id->ppin;
	fails = cores_mca_add(&mca, h);
	if (case_nr_hits < CORES_RECORD_MCA)
		case_hits[case_nr_hits] = *h;
	case_nr_hits++;
	if (!in_soak || fails || soak_mca_lines < CORES_SOAK_MCA_LINES)
		say_ident(h->cpu);
	ck_snprintf(msg, sizeof(msg), "cores: mca: slice %u (%s %s) CPU %u (APIC id %u) bank %u: "
		    "%s%s, STATUS 0x%016llx, %s; %u corrected on this bank, more than %u fail",
		    h->slice, h->kernel, h->part, h->cpu, h->apic, h->bank,
		    cores_mca_sev_name(h->sev), h->from_mc ? " (#MC)" : "",
		    (unsigned long long)h->status,
		    h->when == CORES_MCA_IN_SLICE ? "in the slice" :
		    "between slices, not the kernel's",
		    cores_mca_corrected_of(&mca, h->cpu, h->bank), mca.ce_threshold);
	if (!fails) {
		if (!in_soak || soak_mca_lines++ < CORES_SOAK_MCA_LINES)
			ck_diag("%s", msg);
		return;
	}
	note_fail(h->cpu);
	finding(t, "%s", msg);
	case_mca_bad[h->cpu] = true;
}

static u8 sev_of_status(u64 status)
{
	if (status & MCI_STATUS_UC)
		return CORES_MCA_UNCORRECTED;
	if ((mce_caps()->amd || mce_caps()->hygon) && (status & MCI_STATUS_DEFERRED))
		return CORES_MCA_DEFERRED;
	return CORES_MCA_CORRECTED;
}

/* The #MC records taken during the dispatch: the banks the handler logged, by CPU and TSC. */
static void fold_mc_records(struct ck_test *t)
{
	for (u64 seq = slice_mc_seq; seq < mce_count(); seq++) {
		const struct mce_record *r = mce_get(seq);

		if (!r || r->cpu >= smp_nr_cpus()) {
			note_fail(~0U);
			finding(t, "cores: mca: #MC record %llu gone or of no CPU before the "
			       "suite read it", (unsigned long long)seq);
			continue;
		}
		for (unsigned int b = 0; b < MIN(r->nr_banks, (unsigned int)MCE_LOG_BANKS); b++) {
			const struct mce_bank_log *bl = &r->banks[b];
			const struct slice_mca *m = &slice_mca[r->cpu];
			struct cores_mca_hit h;

			if (!bl->logged || !(bl->status & MCI_STATUS_VAL))
				continue;
			h = (struct cores_mca_hit){
				.cpu = (u16)r->cpu, .bank = bl->bank, .status = bl->status,
				.sev = sev_of_status(bl->status), .from_mc = true,
				.when = cores_mca_mc_in_slice(r->cpu, r->tsc, r->cpu, m->t0,
							      m->t1) ? CORES_MCA_IN_SLICE :
					CORES_MCA_BETWEEN };
			add_hit(t, &h);
		}
	}
}

/* After a dispatch: every CPU's findings, then the #MC records, into the ledger and the case. */
static void slice_fold(struct ck_test *t)
{
	for (unsigned int c = 0; c < smp_nr_cpus(); c++) {
		struct slice_mca *m = &slice_mca[c];

		for (unsigned int i = 0; i < m->n; i++)
			add_hit(t, &m->hit[i]);
		if (m->lost) {
			note_fail(c);
			finding(t, "cores: mca: slice %u (%s %s) CPU %u: %u more findings not "
				"kept: what they were is not known", slice_no, slice_kernel,
				slice_part, c, m->lost);
		}
	}
	fold_mc_records(t);
}

static void run_here(void *arg)
{
	const struct cores_job *j = arg;
	unsigned int c = this_cpu()->cpu;
	struct cores_slot *s = &slots[c];
	struct cores_area a = { areas + (u64)c * 2 * CORES_BUF,
				areas + (u64)c * 2 * CORES_BUF + CORES_BUF };
	u64 t0;

	s->why_not = j->k->cannot ? j->k->cannot(j->k) : NULL;
	if (!s->why_not) {
		u64 d = CORES_FOLD_INIT;

		slice_begin(c);
		t0 = rdtsc();
		for (unsigned int r = 0; r < j->rounds; r++)
			d = cores_fold(d, j->k->run(j->k, &a, j->seed + r));
		s->digest = d;
		s->ticks = rdtsc() - t0;
		slice_end(c);
	}
	__atomic_store_n(&s->done, true, __ATOMIC_RELEASE);
}

static bool have_areas(struct ck_test *t)
{
	if (!areas)
		areas = (u8 *)(uintptr_t)bootmem_alloc((u64)smp_nr_cpus() * 2 * CORES_BUF, SZ_4K);
	if (!areas)
		report(t, false, "no memory for %u CPUs' buffers (%u bytes each)", smp_nr_cpus(),
		       2 * CORES_BUF);
	return areas != NULL;
}

/* Run @k on every online CPU at once; the voters' digests in digests[], their CPUs. */
static unsigned int run_everywhere(struct ck_test *t, const struct cores_job *j,
				   const char *part, const char **why_not,
				   unsigned int *nr_skipped_cpus)
{
	unsigned int n = 0, skipped = 0, late;
	u32 timeout = MAX(30000U, 200U * smp_nr_online());

	for (unsigned int c = 0; c < smp_nr_cpus(); c++)
		slots[c] = (struct cores_slot){ 0 };
	slice_start(j->k->name, part);
	late = on_each_cpu(run_here, (void *)j, timeout);
	slice_fold(t);
	if (late) {
		note_fail(~0U);
		finding(t, "%s: %u CPUs did not finish within %u ms", j->k->name, late, timeout);
	}
	*why_not = NULL;
	for (unsigned int c = 0; c < smp_nr_cpus(); c++) {
		const struct cores_slot *s = &slots[c];

		if (!cpu_online(c))
			continue;
		if (!__atomic_load_n(&s->done, __ATOMIC_ACQUIRE)) {
			note_fail(c);
			finding(t, "%s: CPU %u (APIC id %u) did not finish", j->k->name, c,
				smp_cpu(c)->apic_id);
		} else if (s->why_not) {
			if (!skipped++)
				*why_not = s->why_not;
			if (skipped <= 4 && !in_soak)
				ck_diag("%s: CPU %u (APIC id %u) skips it: %s", j->k->name, c,
					smp_cpu(c)->apic_id, s->why_not);
		} else {
			voter_cpu[n] = c;
			digests[n++] = s->digest;
		}
	}
	if (skipped && n && !in_soak)
		ck_diag("%s: %u CPUs skip it, %u run it: the CPUs differ", j->k->name, skipped, n);
	*nr_skipped_cpus = skipped;
	return n;
}

static void say_verdict(struct ck_test *t, const struct cores_kernel *k,
			const struct cores_vote *v, u64 known)
{
	switch (v->cls) {
	case CORES_AGREE:
		if (!in_soak)
				ck_diag("%s: all %u CPUs agree with the known answer 0x%016llx", k->name,
				v->n, (unsigned long long)known);
		break;
	case CORES_MINORITY:
		for (unsigned int i = 0; i < v->nr_named; i++)
			note_fail(voter_cpu[v->named[i]]);
		for (unsigned int i = 0; i < MIN(v->nr_named, (unsigned int)CORES_MAX_NAMED); i++) {
			unsigned int c = voter_cpu[v->named[i]];

			finding(t, "cores: kernel %s: CPU %u (APIC id %u) in the minority: "
				"digest 0x%016llx; %u of %u CPUs and the known answer give 0x%016llx",
				k->name, c, smp_cpu(c)->apic_id,
				(unsigned long long)digests[v->named[i]], v->nr_known, v->n,
				(unsigned long long)known);
		}
		if (v->nr_named > CORES_MAX_NAMED)
			finding(t, "cores: kernel %s: %u more CPUs in the minority", k->name,
				v->nr_named - CORES_MAX_NAMED);
		break;
	case CORES_REF_WRONG:
		note_fail(~0U);
		finding(t, "cores: kernel %s: all %u CPUs agree on 0x%016llx against the "
		       "known answer 0x%016llx: the reference or the code is wrong, no core blamed",
		       k->name, v->n, (unsigned long long)v->top, (unsigned long long)known);
		break;
	case CORES_DISPUTED:
		note_fail(~0U);
		finding(t, "cores: kernel %s: %u of %u CPUs agree on 0x%016llx, %u give the "
		       "known answer 0x%016llx: disputed, no core named (the reference, the code "
		       "or several cores are wrong)", k->name, v->nr_top, v->n,
		       (unsigned long long)v->top, v->nr_known, (unsigned long long)known);
		break;
	default:
		break;
	}
}

/*
 * One KTAP parameter per CPU that ran @k: ok unless the vote names it (in the minority every
 * CPU without the known answer is named; the other classes name none).
 */
static void cpu_params(struct ck_test *t, const struct cores_kernel *k,
		       const struct cores_vote *v, unsigned int n, u64 known)
{
	char name[48];

	ck_params_begin(t, k->name, n);
	for (unsigned int i = 0; i < n; i++) {
		unsigned int c = voter_cpu[i];
		bool blamed = (v->cls == CORES_MINORITY && digests[i] != known) ||
			      case_mca_bad[c];

		ck_snprintf(name, sizeof(name), "cpu%u_apic%u", c, smp_cpu(c)->apic_id);
		ck_param_result(t, i + 1, !blamed, name);
	}
}

#define REPLAY_RUNS	10

struct replay_job {
	const struct cores_job *j;
	u64 known;
	unsigned int wrong;
	u64 first_wrong_us;
};

/* The kernel again, REPLAY_RUNS times on this CPU alone, against the known answer. */
static void replay_here(void *arg)
{
	struct replay_job *r = arg;
	unsigned int c = this_cpu()->cpu;
	struct cores_area a = { areas + (u64)c * 2 * CORES_BUF,
				areas + (u64)c * 2 * CORES_BUF + CORES_BUF };
	u64 t0 = smp_now_us();

	slice_begin(c);
	for (unsigned int i = 0; i < REPLAY_RUNS; i++) {
		u64 d = CORES_FOLD_INIT;

		for (unsigned int k = 0; k < r->j->rounds; k++)
			d = cores_fold(d, r->j->k->run(r->j->k, &a, r->j->seed + k));
		if (d != r->known && !r->wrong++)
			r->first_wrong_us = smp_now_us() - t0;
	}
	slice_end(c);
}

/* The CPUs that gave the known answer, but @except, into @cand; how many. */
static unsigned int known_cpus(unsigned int n, u64 known, unsigned int except, unsigned int *cand)
{
	unsigned int nk = 0;

	for (unsigned int i = 0; i < n; i++)
		if (digests[i] == known && voter_cpu[i] != except)
			cand[nk++] = voter_cpu[i];
	return nk;
}

/*
 * Of the CPUs that gave the known answer but @except, the first that sits from @me at one
 * of @rels[0..@nr) in that order (the highest-numbered among equals), or ~0U.
 */
static unsigned int pick_cpu(unsigned int me, unsigned int n, u64 known, unsigned int except,
			     const enum cores_rel *rels, unsigned int nr, enum cores_rel *rel)
{
	static unsigned int cand[NR_CPUS];
	unsigned int pick[CORES_NR_REL], nk = known_cpus(n, known, except, cand);

	cores_topo_pick(topo, me, cand, nk, pick);
	for (unsigned int r = 0; r < nr; r++) {
		if (pick[rels[r]] != ~0U) {
			*rel = rels[r];
			return pick[rels[r]];
		}
	}
	return ~0U;
}

/* The furthest CPU first: another package, complex, core, else the SMT sibling. */
static const enum cores_rel far_rels[] = { CORES_REL_OTHER_PACKAGE, CORES_REL_OTHER_COMPLEX,
					   CORES_REL_COMPLEX, CORES_REL_SMT };
/* The second: another core of the package (another complex first), else another package. */
static const enum cores_rel near_rels[] = { CORES_REL_OTHER_COMPLEX, CORES_REL_COMPLEX,
					    CORES_REL_OTHER_PACKAGE };

/* The kernel again on CPU @cpu (REPLAY_RUNS times) into @r. */
static void replay_on(struct ck_test *t, const struct cores_job *j, unsigned int cpu,
		      struct replay_job *r)
{
	slice_start(j->k->name, "replay");
	report(t, on_cpu(cpu, replay_here, r, 30000) == 0, "replay on CPU %u finished", cpu);
	slice_fold(t);
}

static void say_replay(const struct cores_job *j, const struct cores_replay *p)
{
	const char *name = j->k->name;

	ck_diag("%s: replay: CPU %u's SMT sibling: %s; the CPU furthest from it with the known "
		"answer: CPU %u, %s", name, p->cpu, p->have_sibling ? "replayed" : "none",
		p->other_cpu, p->other_rel);
	if (p->have_sibling)
		ck_diag("%s: replayed %u times on SMT sibling CPU %u: wrong %u times", name,
			REPLAY_RUNS, p->sibling_cpu, p->sibling_wrong);
	if (p->have_near)
		ck_diag("%s: replayed %u times on a second distant CPU %u (%s): wrong %u times",
			name, REPLAY_RUNS, p->near_cpu, p->near_rel, p->near_wrong);
	else
		ck_diag("%s: no second distant CPU with the known answer to replay on", name);
	ck_diag("%s: replayed %u times: CPU %u wrong %u times%s, CPU %u (it gave the known answer) "
		"wrong %u times: %s", name, REPLAY_RUNS, p->cpu, p->wrong,
		p->wrong ? "" : " (not reproduced)", p->other_cpu, p->other_wrong,
		cores_replay_class_of(p));
}

/*
 * Isolate before blaming: the first CPU the vote named replays the seed, so does its SMT
 * sibling when it has one (whatever its own digest), and so do two distant CPUs that gave
 * the known answer: the furthest (another package, else another complex, else another core)
 * and a second, another core of the named CPU's package where there is one, so that a
 * package-wide fault reads apart from one core's and from the machine's.
 */
static void replay(struct ck_test *t, const struct cores_job *j, const struct cores_vote *v,
		   u64 known, struct cores_replay *out)
{
	struct replay_job mine = { j, known, 0, 0 }, far = { j, known, 0, 0 };
	struct replay_job sib = { j, known, 0, 0 }, near = { j, known, 0, 0 };
	unsigned int named = voter_cpu[v->named[0]], other, second, pick[CORES_NR_REL];
	enum cores_rel rel = CORES_REL_SAME, near_rel = CORES_REL_SAME;
	bool have_sib, have_near;

	other = pick_cpu(named, v->n, known, ~0U, far_rels, ARRAY_SIZE(far_rels), &rel);
	*out = (struct cores_replay){ .cpu = named, .other_cpu = other };
	if (other == ~0U)
		return;
	second = pick_cpu(named, v->n, known, other, near_rels, ARRAY_SIZE(near_rels), &near_rel);
	cores_topo_pick(topo, named, voter_cpu, v->n, pick);
	have_sib = pick[CORES_REL_SMT] != ~0U && pick[CORES_REL_SMT] != other;
	have_near = second != ~0U && (!have_sib || second != pick[CORES_REL_SMT]);
	replay_on(t, j, named, &mine);
	replay_on(t, j, other, &far);
	if (have_sib)
		replay_on(t, j, pick[CORES_REL_SMT], &sib);
	if (have_near)
		replay_on(t, j, second, &near);
	*out = (struct cores_replay){
		.cpu = named, .other_cpu = other, .runs = REPLAY_RUNS, .wrong = mine.wrong,
		.other_wrong = far.wrong, .first_wrong_us = mine.first_wrong_us, .other_rel = cores_rel_name(rel),
		.other_package = rel == CORES_REL_OTHER_PACKAGE,
		.have_sibling = have_sib, .sibling_cpu = pick[CORES_REL_SMT],
		.sibling_wrong = sib.wrong, .have_near = have_near, .near_cpu = second,
		.near_wrong = near.wrong, .near_rel = have_near ? cores_rel_name(near_rel) : NULL };
	say_replay(j, out);
}

/* The kernel's JSON record, as a diagnostic line of its case. */
static void say_record(const struct cores_job *j, const struct cores_vote *v, u64 known,
		       unsigned int skipped, const char *why_not, u64 slowest_us,
		       const struct cores_replay *rp)
{
	static char buf[2048];
	struct cores_named_cpu named[CORES_MAX_NAMED];
	struct cores_result r = { .kernel = j->k->name, .family = j->k->family,
				  .seed = j->seed, .rounds = j->rounds, .skipped = skipped,
				  .why_not = why_not, .known = known, .vote = v, .named = named,
				  .slowest_us = slowest_us, .replay = rp,
				  .mca = case_hits, .mca_total = case_nr_hits,
				  .pass = run_opts && run_opts->seconds ? soak_pass : 0 };

	for (unsigned int i = 0; i < MIN(v->nr_named, (unsigned int)CORES_MAX_NAMED); i++) {
		unsigned int c = voter_cpu[v->named[i]];

		named[i] = (struct cores_named_cpu){ c, smp_cpu(c)->apic_id, digests[v->named[i]] };
	}
	cores_record_json(&r, buf, sizeof(buf));
	say_json(buf);			/* whole: ck_diag() keeps 255 characters */
}

/* Whether the case's own machine checks failed a CPU (cores/mca.h graded them). */
static bool mca_failed(void)
{
	for (unsigned int c = 0; c < smp_nr_cpus(); c++)
		if (case_mca_bad[c])
			return true;
	return false;
}

/*
 * Kernel @k on every CPU with @seed, the vote against its known answer, the verdict, the
 * replay of a minority and the record; in a soak pass only what fails is said.
 */
static void run_one(struct ck_test *t, const struct cores_kernel *k, u64 seed)
{
	struct cores_job j = { .k = k, .seed = seed, .rounds = cores_opts_rounds(run_opts) };
	struct cores_vote v;
	const char *why_not;
	unsigned int n, skipped;
	u64 known = CORES_FOLD_INIT, slowest = 0;
	struct cores_replay rp;
	bool failed;

	case_nr_hits = 0;
	memset(case_mca_bad, 0, sizeof(case_mca_bad));
	n = run_everywhere(t, &j, "run", &why_not, &skipped);
	if (!n) {
		if (in_soak)
			return;
		cores_vote(digests, 0, 0, scratch, &v);
		say_record(&j, &v, 0, skipped, why_not, 0, NULL);
		nr_skipped++;
		ck_skip(t, "no CPU can run it: %s", why_not ? why_not : "none online");
		return;
	}
	nr_ran += !in_soak;
	for (unsigned int r = 0; r < j.rounds; r++)
		known = cores_fold(known, k->known(k, j.seed + r));
	cores_vote(digests, n, known, scratch, &v);
	for (unsigned int i = 0; i < n; i++)
		slowest = MAX(slowest, slots[voter_cpu[i]].ticks);
	failed = v.cls != CORES_AGREE || mca_failed();
	if (failed && in_soak)
		note_fail(~0U);		/* the pass's line first */
	if (!in_soak || (failed && !soak_hush()))
		ck_diag("%s (%s): %u CPUs, seed 0x%llx, %u rounds, %u distinct digests, slowest "
			"CPU %llu us: %s", k->name, k->family, n, (unsigned long long)j.seed,
			j.rounds, v.nr_groups,
			(unsigned long long)(tsc_to_ns(slowest) / 1000), cores_class_name(v.cls));
	say_verdict(t, k, &v, known);
	if (v.cls == CORES_MINORITY && !soak_hush())
		replay(t, &j, &v, known, &rp);
	if (!in_soak || (failed && !soak_hush()))
		say_record(&j, &v, known, skipped, why_not, tsc_to_ns(slowest) / 1000,
			   v.cls == CORES_MINORITY ? &rp : NULL);
	if (!in_soak)
		cpu_params(t, k, &v, n, known);
}

static void run_kernel(struct ck_test *t, const char *name)
{
	const struct cores_kernel *k = cores_kernel_named(name, strlen(name));

	run_opts = &t->ctx->cores;
	pass_seed = cores_opts_seed(run_opts);
	if (!report(t, k != NULL, "kernel %s is in cores/list.c", name))
		return;
	if (!cores_opts_family(run_opts, k->family)) {
		nr_skipped++;
		ck_skip(t, "cores=kernels: leaves the %s family out", k->family);
		return;
	}
	if (!have_areas(t))
		return;
	if (!first_us)
		first_us = smp_now_us();
	run_one(t, k, pass_seed);
}

/* Copy here, check there: the CPUs that ran a copy kernel, in a ring. */
static unsigned int ring[NR_CPUS], ring_pos[NR_CPUS], ring_n;
static u64 checked[NR_CPUS];
/* A third CPU's second look, kept apart: checked[] still holds its own check of its writer. */
static u64 rechecked[NR_CPUS];

static u8 *dst_of(unsigned int cpu)
{
	return areas + (u64)cpu * 2 * CORES_BUF + CORES_BUF;
}

/* This CPU checks the copy the CPU before it in the ring wrote. */
static void check_neighbour(void *arg)
{
	unsigned int c = this_cpu()->cpu, w = ring[(ring_pos[c] + ring_n - 1) % ring_n];

	slice_begin(c);
	checked[c] = cores_copy_check_other(dst_of(w), CORES_BUF);
	slice_end(c);
}

static void check_again(void *arg)
{
	unsigned int w = *(unsigned int *)arg, c = this_cpu()->cpu;

	slice_begin(c);
	rechecked[c] = cores_copy_check_other(dst_of(w), CORES_BUF);
	slice_end(c);
}

/* The ring's pairs (writer -> checker) by how they sit: each (the first 8), then the counts. */
static void say_ring(void)
{
	unsigned int count[CORES_NR_REL] = { 0 };
	static bool said;

	if (said)
		return;
	said = true;
	for (unsigned int i = 0; i < ring_n; i++) {
		unsigned int c = ring[i], w = ring[(i + ring_n - 1) % ring_n];
		enum cores_rel r = cores_topo_rel(&topo[w], &topo[c]);

		count[r]++;
		if (i < 8)
			ck_diag("pairs: CPU %u writes, CPU %u checks: %s", w, c, cores_rel_name(r));
	}
	ck_diag("pairs: %u in topology order: %u SMT siblings, %u in one complex, %u across "
		"complexes, %u across packages", ring_n, count[CORES_REL_SMT],
		count[CORES_REL_COMPLEX], count[CORES_REL_OTHER_COMPLEX],
		count[CORES_REL_OTHER_PACKAGE]);
}

/* One copy kernel's pairs: true when every checker found its writer's copy right. */
static bool pairs_of(struct ck_test *t, const struct cores_kernel *k, u64 seed)
{
	struct cores_job j = { .k = k, .seed = seed, .rounds = 1 };
	u64 known = k->known(k, seed);
	unsigned int bad = 0;
	const char *why_not;
	unsigned int skipped;

	ring_n = run_everywhere(t, &j, "pair_write", &why_not, &skipped);
	if (ring_n < 2) {
		if (!in_soak)
				ck_diag("pairs: %s: %u CPUs ran it (%s): no pair", k->name, ring_n,
				why_not ? why_not : "one CPU");
		return true;
	}
	for (unsigned int i = 0; i < ring_n; i++)
		ring[i] = voter_cpu[i];
	cores_topo_order(topo, ring, ring_n);
	for (unsigned int i = 0; i < ring_n; i++)
		ring_pos[ring[i]] = i;
	say_ring();
	slice_start(k->name, "pair_check");
	if (on_each_cpu(check_neighbour, NULL, MAX(30000U, 200U * smp_nr_online()))) {
		note_fail(~0U);
		finding(t, "pairs: %s: not every CPU checked its neighbour's copy in time",
			k->name);
	}
	slice_fold(t);
	for (unsigned int i = 0; i < ring_n; i++) {
		unsigned int c = ring[i], w = ring[(i + ring_n - 1) % ring_n];
		unsigned int third = ring[(i + 1) % ring_n];
		bool have_third = third != w && third != c;
		u64 again = 0;
		enum cores_pair p;

		if (checked[c] == known)
			continue;
		if (have_third) {
			slice_start(k->name, "pair_recheck");
			have_third = on_cpu(third, check_again, &w, 30000) == 0;
			slice_fold(t);
		}
		again = rechecked[third];
		p = cores_pair_judge(false, have_third, again == known);
		bad++;
		note_fail(p == CORES_PAIR_CHECKER ? c : w);
		finding(t, "cores: pairs: kernel %s: CPU %u (APIC id %u) found CPU %u's copy wrong "
			"(0x%016llx, known 0x%016llx); CPU %u checked it again: %s; the %s is "
			"named: CPU %u (APIC id %u)", k->name, c, smp_cpu(c)->apic_id, w,
			(unsigned long long)checked[c], (unsigned long long)known, third,
			!have_third ? "no third CPU" : again == known ? "right" : "wrong too",
			cores_pair_name(p), p == CORES_PAIR_CHECKER ? c : w,
			smp_cpu(p == CORES_PAIR_CHECKER ? c : w)->apic_id);
	}
	return !bad;
}

/*
 * Every copy kernel's destination checked by another CPU (the next in a ring: linear in the
 * CPUs), a third deciding between the writer and the checker. One KTAP parameter per kernel.
 */
static void copy_pairs(struct ck_test *t)
{
	const struct cores_opts *o = &t->ctx->cores;
	unsigned int idx = 0;
	bool ok[32];

	run_opts = o;
	if (smp_nr_online() < 2) {
		ck_skip(t, "one CPU online: no pairs");
		return;
	}
	if (!cores_opts_family(o, "copy")) {
		ck_skip(t, "cores=kernels: leaves the copy family out");
		return;
	}
	if (!have_areas(t))
		return;
	say_topo();
	ck_diag("pairs: each of %u CPUs checks the copy of the CPU before it in topology order "
		"(package, complex, core, APIC id); the CPU after it decides", smp_nr_online());
	for (unsigned int i = 0; i < cores_nr_kernels() && idx < ARRAY_SIZE(ok); i++)
		if (!strcmp(cores_kernel(i)->family, "copy"))
			ok[idx++] = pairs_of(t, cores_kernel(i), cores_opts_seed(o));
	ck_params_begin(t, "copy_pairs", idx);
	for (unsigned int i = 0, p = 0; i < cores_nr_kernels() && p < idx; i++)
		if (!strcmp(cores_kernel(i)->family, "copy"))
			ck_param_result(t, p + 1, ok[p], cores_kernel(i)->name), p++;
}

/* One soak pass: every kernel cores= keeps, then the copy pairs, all with @seed. */
static void soak_one_pass(struct ck_test *t, u64 seed)
{
	pass_seed = seed;
	for (unsigned int i = 0; i < cores_nr_kernels(); i++)
		if (cores_opts_family(run_opts, cores_kernel(i)->family))
			run_one(t, cores_kernel(i), seed);
	if (smp_nr_online() < 2 || !cores_opts_family(run_opts, "copy"))
		return;
	for (unsigned int i = 0; i < cores_nr_kernels(); i++)
		if (!strcmp(cores_kernel(i)->family, "copy"))
			pairs_of(t, cores_kernel(i), seed);
}

/* The soak's total: one line, one record (cores_soak). */
static void say_soak_total(u64 elapsed_us)
{
	static struct cores_soak_cpu named[CORES_SOAK_NAMED];
	static char buf[1024];
	struct cores_soak r = { .seed = cores_opts_seed(run_opts), .seconds = run_opts->seconds,
				.elapsed_ms = elapsed_us / 1000, .passes = soak_pass,
				.failing = nr_failing, .soak_failing = nr_soak_failing,
				.first_failing = first_failing,
				.first_failing_seed = first_failing_seed, .named = named };

	for (unsigned int c = 0; c < smp_nr_cpus(); c++) {
		if (!named_passes[c])
			continue;
		if (r.nr_named < CORES_SOAK_NAMED)
			named[r.nr_named] = (struct cores_soak_cpu){ c, smp_cpu(c)->apic_id,
								     named_passes[c] };
		r.nr_named++;
	}
	ck_diag("soak: %u passes in %llu.%03llu s (pass 1: the cases above; %u in this case), "
		"%u failing (%u of them here, %u printed in full), %u CPUs named: %s",
		soak_pass, (unsigned long long)(elapsed_us / 1000000),
		(unsigned long long)(elapsed_us / 1000 % 1000), soak_pass - 1, nr_failing,
		nr_soak_failing, nr_detailed, r.nr_named, nr_failing ? "FAIL" : "PASS");
	cores_soak_json(&r, buf, sizeof(buf));
	say_json(buf);
}

/* One KTAP parameter per online CPU: ok unless a pass of the soak case named it. */
static void soak_params(struct ck_test *t)
{
	unsigned int n = 0;

	for (unsigned int c = 0; c < smp_nr_cpus(); c++)
		n += cpu_online(c);
	ck_params_begin(t, "soak", n);
	for (unsigned int c = 0, i = 0; c < smp_nr_cpus(); c++) {
		char name[48];

		if (!cpu_online(c))
			continue;
		ck_snprintf(name, sizeof(name), "cpu%u_apic%u", c, smp_cpu(c)->apic_id);
		ck_param_result(t, ++i, !named_soak_passes[c], name);
	}
}

#define SOAK_PROGRESS_US	(10ULL * 1000 * 1000)

/*
 * The soak mode (cores=time:T): passes back to back from the first kernel's start until T
 * is up, the cases above being pass 1 and pass N running cores_pass_seed(seed, N). A clean
 * pass says nothing; a progress line every 10 s. One KTAP parameter per CPU: ok unless a
 * pass here named it (pass 1's findings are the cases' own).
 */
static void soak(struct ck_test *t)
{
	u64 end, progress, now;

	run_opts = &t->ctx->cores;
	if (!run_opts->seconds) {
		ck_skip(t, "no cores=time: one pass, the cases above");
		return;
	}
	if (!have_areas(t))
		return;
	if (!first_us)
		first_us = smp_now_us();
	pass_end();			/* pass 1: the cases above */
	end = first_us + run_opts->seconds * 1000000ULL;
	progress = smp_now_us() + SOAK_PROGRESS_US;
	ck_diag("soak: cores=time:%us: passes back to back until %u s after the first kernel; "
		"pass 1 (seed 0x%llx) was the cases above", run_opts->seconds, run_opts->seconds,
		(unsigned long long)cores_opts_seed(run_opts));
	while ((now = smp_now_us()) < end) {
		if (now >= progress) {
			ck_diag("soak: pass %u next (seed 0x%llx), %llu of %u s, %u failing passes",
				soak_pass + 1,
				(unsigned long long)cores_pass_seed(cores_opts_seed(run_opts),
								    soak_pass + 1),
				(unsigned long long)(now - first_us) / 1000000, run_opts->seconds,
				nr_failing);
			progress = now + SOAK_PROGRESS_US;
		}
		soak_pass++;
		in_soak = true;
		soak_one_pass(t, cores_pass_seed(cores_opts_seed(run_opts), soak_pass));
		pass_end();
		in_soak = false;
	}
	say_soak_total(smp_now_us() - first_us);
	if (nr_soak_failing)
		report(t, false, "cores: soak: %u of the %u passes here failed, the first of all "
		       "passes pass %u (seed 0x%llx)", nr_soak_failing, soak_pass - 1,
		       first_failing, (unsigned long long)first_failing_seed);
	soak_params(t);
}

/* The suite's machine checks together (each failed its case when it was read). */
static void say_mca(void)
{
	const struct mce_caps *caps = mce_caps();

	if (!caps->mca || !caps->enabled) {
		ck_diag("mca: no machine-check banks in use: none read around the slices");
		return;
	}
	ck_diag("mca: banks read before and after %u slices on each CPU: %u corrected (%u in "
		"slices), %u deferred, %u uncorrected; corrected fail past %u on one CPU bank: %s",
		slice_no, cores_mca_total(&mca, CORES_MCA_CORRECTED),
		mca.count[CORES_MCA_CORRECTED][CORES_MCA_IN_SLICE],
		cores_mca_total(&mca, CORES_MCA_DEFERRED),
		cores_mca_total(&mca, CORES_MCA_UNCORRECTED), mca.ce_threshold,
		mca.ce_over ? "passed" : "not passed");
}

static void kernels_covered(struct ck_test *t)
{
	ck_diag("%u of %u kernels ran, %u skipped on every CPU or by cores=", nr_ran,
		cores_nr_kernels(), nr_skipped);
	say_topo();
	say_mca();
	if (first_us)
		ck_diag("the kernels took %llu ms on %u CPUs, votes and reports included",
			(unsigned long long)(smp_now_us() - first_us) / 1000, smp_nr_online());
	report(t, nr_ran + nr_skipped == cores_nr_kernels(),
	       "every kernel of cores/list.c has a case here (%u ran + %u skipped, %u listed)",
	       nr_ran, nr_skipped, cores_nr_kernels());
}

#define KCASE(nm)							\
	static void case_##nm(struct ck_test *t)			\
	{								\
		run_kernel(t, #nm);					\
	}
#define KENTRY(nm)	{ #nm, case_##nm }

KCASE(copy_page_rep)
KCASE(copy_page_unrolled)
KCASE(memcpy_erms)
KCASE(memcpy_orig)
KCASE(copy_mc_fragile)
KCASE(copy_mc_erms)
KCASE(copy_mc_avx2_nt)
KCASE(clear_page_erms)
KCASE(clear_page_rep)
KCASE(clear_page_unrolled)
KCASE(clear_pages_erms)
KCASE(crc32c)
KCASE(muldiv)
KCASE(popcnt)
KCASE(lzcnt_tzcnt)
KCASE(pdep_pext)
KCASE(aes128)
KCASE(clmul)
KCASE(sha256)
KCASE(vec_sse2)
KCASE(vec_avx2)
KCASE(vec_avx512)
KCASE(vec_avx512bw)
KCASE(fma_avx2)
KCASE(fma_avx512)
KCASE(x87)

CK_SUITE(cores, 85,
	 KENTRY(copy_page_rep), KENTRY(copy_page_unrolled), KENTRY(memcpy_erms),
	 KENTRY(memcpy_orig), KENTRY(copy_mc_fragile), KENTRY(copy_mc_erms),
	 KENTRY(copy_mc_avx2_nt), KENTRY(clear_page_erms), KENTRY(clear_page_rep),
	 KENTRY(clear_page_unrolled), KENTRY(clear_pages_erms), KENTRY(crc32c), KENTRY(muldiv), KENTRY(popcnt),
	 KENTRY(lzcnt_tzcnt), KENTRY(pdep_pext), KENTRY(aes128), KENTRY(clmul), KENTRY(sha256),
	 KENTRY(vec_sse2), KENTRY(vec_avx2), KENTRY(vec_avx512), KENTRY(vec_avx512bw),
	 KENTRY(fma_avx2), KENTRY(fma_avx512), KENTRY(x87),
	 CK_CASE(copy_pairs),
	 CK_CASE(soak),
	 CK_CASE(kernels_covered));
