// SPDX-License-Identifier: GPL-2.0-only
/*
 * record.c - the cores suite's JSON records. Per kernel: what ran (seed, rounds, the soak
 * pass, CPUs, the skipped ones and why), the known answer, the vote's class and groups, and
 * the CPUs it names with their APIC ids and digests, and the machine checks its slices' bank
 * readings found (slice, CPU, bank, severity, microcode, PPIN where the CPU has one). Per
 * CPU: where it sits. The soak mode's total: passes, failing passes, the CPUs named.
 */
#include "cores/record.h"
#include "kernel/lib/json.h"

static void mca_json(struct json_writer *w, const struct cores_result *r)
{
	json_u64(w, "mca_total", r->mca_total);
	json_arr_begin(w, "mca");
	for (unsigned int i = 0; i < MIN(r->mca_total, (unsigned int)CORES_RECORD_MCA); i++) {
		const struct cores_mca_hit *h = &r->mca[i];

		json_obj_begin(w, NULL);
		json_u64(w, "slice", h->slice);
		json_str(w, "part", h->part);
		json_u64(w, "cpu", h->cpu);
		json_u64(w, "apic", h->apic);
		json_u64(w, "bank", h->bank);
		json_str(w, "severity", cores_mca_sev_name(h->sev));
		json_str(w, "when", cores_mca_when_name(h->when));
		json_str(w, "source", h->from_mc ? "mc" : "poll");
		json_hex(w, "status", h->status);
		if (h->ucode_ok)
			json_hex(w, "microcode", h->ucode);
		if (h->ppin_ok)
			json_hex(w, "ppin", h->ppin);
		json_obj_end(w);
	}
	json_arr_end(w);
}

const char *cores_replay_class_of(const struct cores_replay *p)
{
	return cores_replay_class(p->wrong, p->have_sibling ? p->sibling_wrong : 0,
				  p->have_near ? p->near_wrong : 0, p->other_wrong,
				  p->other_package);
}

void cores_record_json(const struct cores_result *r, char *buf, size_t size)
{
	const struct cores_vote *v = r->vote;
	struct json_writer w;

	json_record(&w, buf, size, "cores");
	json_str(&w, "kernel", r->kernel);
	json_str(&w, "family", r->family);
	json_hex(&w, "seed", r->seed);
	json_u64(&w, "rounds", r->rounds);
	if (r->pass)
		json_u64(&w, "pass", r->pass);
	json_u64(&w, "cpus", v->n);
	json_u64(&w, "skipped", r->skipped);
	if (r->why_not)
		json_str(&w, "why_skipped", r->why_not);
	json_str(&w, "verdict", cores_class_name(v->cls));
	if (v->n) {
		json_hex(&w, "known", r->known);
		json_u64(&w, "known_cpus", v->nr_known);
		json_u64(&w, "groups", v->nr_groups);
		if (v->nr_top) {
			json_hex(&w, "top", v->top);
			json_u64(&w, "top_cpus", v->nr_top);
		}
		json_u64(&w, "slowest_us", r->slowest_us);
	}
	json_u64(&w, "named_total", v->nr_named);
	json_arr_begin(&w, "named");
	for (unsigned int i = 0; i < MIN(v->nr_named, (unsigned int)CORES_MAX_NAMED); i++) {
		json_obj_begin(&w, NULL);
		json_u64(&w, "cpu", r->named[i].cpu);
		json_u64(&w, "apic", r->named[i].apic);
		json_hex(&w, "digest", r->named[i].digest);
		json_obj_end(&w);
	}
	json_arr_end(&w);
	if (r->replay && r->replay->runs) {
		const struct cores_replay *p = r->replay;

		json_obj_begin(&w, "replay");
		json_u64(&w, "cpu", p->cpu);
		json_u64(&w, "runs", p->runs);
		json_u64(&w, "wrong", p->wrong);
		if (p->wrong)
			json_u64(&w, "first_wrong_us", p->first_wrong_us);
		json_u64(&w, "other_cpu", p->other_cpu);
		json_u64(&w, "other_wrong", p->other_wrong);
		if (p->other_rel)
			json_str(&w, "other_rel", p->other_rel);
		if (p->have_sibling) {
			json_u64(&w, "sibling_cpu", p->sibling_cpu);
			json_u64(&w, "sibling_wrong", p->sibling_wrong);
		}
		if (p->have_near) {
			json_u64(&w, "near_cpu", p->near_cpu);
			json_u64(&w, "near_wrong", p->near_wrong);
			if (p->near_rel)
				json_str(&w, "near_rel", p->near_rel);
		}
		json_str(&w, "class", cores_replay_class_of(p));
		json_obj_end(&w);
	}
	if (r->mca_total)
		mca_json(&w, r);
	json_end(&w);
}

void cores_cpu_json(unsigned int cpu, const struct cores_topo *t, char *buf, size_t size)
{
	struct json_writer w;

	json_record(&w, buf, size, "cores_cpu");
	json_u64(&w, "cpu", cpu);
	json_u64(&w, "apic", t->apic);
	json_u64(&w, "package", t->package);
	json_u64(&w, "complex", t->complex);
	json_u64(&w, "core", t->core);
	json_u64(&w, "thread", cores_topo_thread(t));
	json_end(&w);
}

void cores_soak_json(const struct cores_soak *s, char *buf, size_t size)
{
	struct json_writer w;

	json_record(&w, buf, size, "cores_soak");
	json_str(&w, "result", s->failing ? "FAIL" : "PASS");
	json_hex(&w, "seed", s->seed);
	json_u64(&w, "seconds", s->seconds);
	json_u64(&w, "elapsed_ms", s->elapsed_ms);
	json_u64(&w, "passes", s->passes);
	json_u64(&w, "failing_passes", s->failing);
	json_u64(&w, "soak_failing_passes", s->soak_failing);
	if (s->first_failing) {
		json_u64(&w, "first_failing_pass", s->first_failing);
		json_hex(&w, "first_failing_seed", s->first_failing_seed);
	}
	json_u64(&w, "named_total", s->nr_named);
	json_arr_begin(&w, "named");
	for (unsigned int i = 0; i < MIN(s->nr_named, (unsigned int)CORES_SOAK_NAMED); i++) {
		json_obj_begin(&w, NULL);
		json_u64(&w, "cpu", s->named[i].cpu);
		json_u64(&w, "apic", s->named[i].apic);
		json_u64(&w, "passes", s->named[i].passes);
		json_obj_end(&w);
	}
	json_arr_end(&w);
	json_end(&w);
}
