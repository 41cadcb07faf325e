// SPDX-License-Identifier: GPL-2.0-only
/*
 * host/cores/verdict.c - one kernel's verdict in the hosted twin (host/cores/verdict.h): the
 * known answer folded as ktest/test_cores.c folds it, cores/vote.c's vote, the image's words
 * for each class, the replay of a named CPU, and cores/record.c's record.
 */
#include "host/cores/verdict.h"

u64 cores_twin_known(const struct cores_kernel *k, u64 seed, unsigned int rounds)
{
	u64 known = CORES_FOLD_INIT;

	for (unsigned int r = 0; r < rounds; r++)
		known = cores_fold(known, k->known(k, seed + r));
	return known;
}

void cores_twin_judge(const struct cores_kernel *k, u64 seed, unsigned int rounds,
		      const struct cores_twin_slot *s, unsigned int n,
		      struct cores_twin_verdict *out)
{
	static u64 scratch[CORES_TWIN_MAX_CPUS];
	unsigned int voters = 0;
	u64 slowest = 0;

	out->k = k;
	out->seed = seed;
	out->rounds = rounds;
	out->skipped = out->failed = 0;
	out->why_not = NULL;
	for (unsigned int i = 0; i < n && i < CORES_TWIN_MAX_CPUS; i++) {
		if (s[i].failed) {
			out->failed++;
		} else if (s[i].why_not) {
			if (!out->skipped++)
				out->why_not = s[i].why_not;
		} else {
			out->digest[voters] = s[i].digest;
			out->cpu[voters] = s[i].cpu;
			out->apic[voters++] = s[i].apic;
			slowest = MAX(slowest, s[i].t1 - s[i].t0);
		}
	}
	out->known = voters ? cores_twin_known(k, seed, rounds) : 0;
	out->slowest_us = slowest / 1000;
	cores_vote(out->digest, voters, out->known, scratch, &out->v);
}

bool cores_twin_passes(const struct cores_twin_verdict *v)
{
	return !v->failed && (v->v.cls == CORES_AGREE || v->v.cls == CORES_NONE);
}

static void say_minority(FILE *f, const char *pre, const struct cores_twin_verdict *t)
{
	const struct cores_vote *v = &t->v;

	for (unsigned int i = 0; i < MIN(v->nr_named, (unsigned int)CORES_MAX_NAMED); i++) {
		unsigned int x = v->named[i];

		fprintf(f, "%scores: kernel %s: CPU %d (APIC id %u) in the minority: digest "
			"0x%016llx; %u of %u CPUs and the known answer give 0x%016llx\n", pre,
			t->k->name, t->cpu[x], t->apic[x], (unsigned long long)t->digest[x],
			v->nr_known, v->n, (unsigned long long)t->known);
	}
	if (v->nr_named > CORES_MAX_NAMED)
		fprintf(f, "%scores: kernel %s: %u more CPUs in the minority\n", pre, t->k->name,
			v->nr_named - CORES_MAX_NAMED);
}

void cores_twin_say(FILE *f, const char *pre, const struct cores_twin_verdict *t)
{
	const struct cores_vote *v = &t->v;

	if (t->failed)
		fprintf(f, "%s%s: %u CPUs could not be pinned: they ran nothing\n", pre,
			t->k->name, t->failed);
	if (!v->n) {
		fprintf(f, "%s%s: no CPU can run it: %s\n", pre, t->k->name,
			t->why_not ? t->why_not : "none pinned");
		return;
	}
	if (t->skipped)
		fprintf(f, "%s%s: %u CPUs skip it (%s), %u run it: the CPUs differ\n", pre,
			t->k->name, t->skipped, t->why_not, v->n);
	fprintf(f, "%s%s (%s): %u CPUs, seed 0x%llx, %u rounds, %u distinct digests, slowest "
		"CPU %llu us: %s\n", pre, t->k->name, t->k->family, v->n,
		(unsigned long long)t->seed, t->rounds, v->nr_groups,
		(unsigned long long)t->slowest_us, cores_class_name(v->cls));
	switch (v->cls) {
	case CORES_AGREE:
		fprintf(f, "%s%s: all %u CPUs agree with the known answer 0x%016llx\n", pre,
			t->k->name, v->n, (unsigned long long)t->known);
		break;
	case CORES_MINORITY:
		say_minority(f, pre, t);
		break;
	case CORES_REF_WRONG:
		fprintf(f, "%scores: kernel %s: all %u CPUs agree on 0x%016llx against the known "
			"answer 0x%016llx: the reference or the code is wrong, no core blamed\n",
			pre, t->k->name, v->n, (unsigned long long)v->top,
			(unsigned long long)t->known);
		break;
	case CORES_DISPUTED:
		fprintf(f, "%scores: kernel %s: %u of %u CPUs agree on 0x%016llx, %u give the "
			"known answer 0x%016llx: disputed, no core named (the reference, the code "
			"or several cores are wrong)\n", pre, t->k->name, v->nr_top, v->n,
			(unsigned long long)v->top, v->nr_known, (unsigned long long)t->known);
		break;
	default:
		break;
	}
}

/* @j CORES_TWIN_REPLAY_RUNS times on @cpu alone: how often not @known; false: no thread. */
static bool replay_on(const struct cores_twin_job *j, int cpu, u64 known, unsigned int *wrong,
		      u64 *first_wrong_us)
{
	struct cores_twin_slot s;
	u64 t0 = cores_twin_now_ns();

	*wrong = 0;
	for (unsigned int i = 0; i < CORES_TWIN_REPLAY_RUNS; i++) {
		if (!cores_twin_run(j, &cpu, 1, &s))
			return false;
		if ((s.failed || s.digest != known) && !(*wrong)++)
			*first_wrong_us = (cores_twin_now_ns() - t0) / 1000;
	}
	return true;
}

bool cores_twin_replay(const struct cores_twin_job *j, const struct cores_twin_verdict *v,
		       struct cores_replay *rp, FILE *f, const char *pre)
{
	int named = v->cpu[v->v.named[0]], other = -1;
	u64 first = 0, unused = 0;
	bool ok;

	for (unsigned int i = 0; i < v->v.n; i++)
		if (v->digest[i] == v->known)
			other = v->cpu[i];
	*rp = (struct cores_replay){ .cpu = (unsigned int)named };
	if (other < 0)
		return true;
	rp->runs = CORES_TWIN_REPLAY_RUNS;
	rp->other_cpu = (unsigned int)other;
	ok = replay_on(j, named, v->known, &rp->wrong, &first) &&
	     replay_on(j, other, v->known, &rp->other_wrong, &unused);
	rp->first_wrong_us = first;
	fprintf(f, "%s%s: replayed %u times: CPU %d wrong %u times%s, CPU %d (it gave the known "
		"answer) wrong %u times: %s\n", pre, j->k->name, CORES_TWIN_REPLAY_RUNS, named,
		rp->wrong, rp->wrong ? "" : " (not reproduced)", other, rp->other_wrong,
		cores_replay_class_of(rp));
	return ok;
}

void cores_twin_record(const struct cores_twin_verdict *t, const struct cores_replay *replay,
		       char *buf, size_t size)
{
	struct cores_named_cpu named[CORES_MAX_NAMED];
	struct cores_result r = { .kernel = t->k->name, .family = t->k->family, .seed = t->seed,
				  .rounds = t->rounds, .skipped = t->skipped,
				  .why_not = t->why_not, .known = t->known, .vote = &t->v,
				  .named = named, .slowest_us = t->slowest_us, .replay = replay };

	for (unsigned int i = 0; i < MIN(t->v.nr_named, (unsigned int)CORES_MAX_NAMED); i++) {
		unsigned int x = t->v.named[i];

		named[i] = (struct cores_named_cpu){ (unsigned int)t->cpu[x], t->apic[x],
						     t->digest[x] };
	}
	cores_record_json(&r, buf, size);
}
