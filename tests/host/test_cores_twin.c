// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cores_twin.c - the hosted twin of the cores suite (host/cores/) on this machine's CPUs,
 * pinned: every kernel of cores/list.c gives a passing verdict; a kernel made wrong here on
 * one chosen CPU (a test kernel wrapping muldiv's and crc32c's run, which flips a bit of the
 * digest when sched_getcpu() is that CPU) is named with that CPU (the first and the last CPU
 * in turn), in the vote, the image's line and the record, and its replay (10 times on it, 10
 * on the highest-numbered CPU that gave the known answer) finds it wrong every time there
 * and never on the other: one_cpu; wrong on every CPU it is "reference or code wrong" with no
 * CPU named; a CPU whose cannot() says no is skipped and said; and the timed runs count the
 * broken kernel's wrong rounds. With one CPU a wrong kernel can only be "reference or code
 * wrong": the case says so.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cores/list.h"
#include "host/cores/rate.h"
#include "host/cores/verdict.h"
#include "tests/host/host_test.h"

#define EVERY_CPU	-2

static int cpus[CORES_TWIN_MAX_CPUS];
static unsigned int n;
static struct cores_twin_slot slots[CORES_TWIN_MAX_CPUS];
static struct cores_twin_verdict v;

/* The broken kernels: the real one's run, one bit of the digest flipped on @bad_cpu. */
static const struct cores_kernel *real;
static int bad_cpu = -1, no_cpu = -1;

static u64 broken_run(const struct cores_kernel *k, const struct cores_area *a, u64 seed)
{
	u64 d = real->run(real, a, seed);

	return bad_cpu == EVERY_CPU || sched_getcpu() == bad_cpu ? d ^ 1ULL << 17 : d;
}

static u64 broken_known(const struct cores_kernel *k, u64 seed)
{
	return real->known(real, seed);
}

static const char *cannot_here(const struct cores_kernel *k)
{
	return no_cpu == EVERY_CPU || sched_getcpu() == no_cpu ? "not on this CPU (test)" : NULL;
}

static struct cores_kernel broken(const char *name, int cpu)
{
	real = cores_kernel_named(name, strlen(name));
	bad_cpu = cpu;
	return (struct cores_kernel){ .name = real->name, .family = real->family,
				      .cannot = real->cannot, .run = broken_run,
				      .known = broken_known };
}

/* The verdict run of @k on every CPU, judged; its lines in @text. */
static void judge(const struct cores_kernel *k, u64 seed, unsigned int rounds, char *text,
		  size_t size)
{
	struct cores_twin_job j = { .k = k, .seed = seed, .rounds = rounds };
	FILE *f = fmemopen(text, size, "w");

	CHECK(cores_twin_run(&j, cpus, n, slots), "%s ran", k->name);
	cores_twin_judge(k, seed, rounds, slots, n, &v);
	cores_twin_say(f, "# ", &v);
	fclose(f);
}

static void test_cpus(void)
{
	n = cores_twin_cpus(cpus, CORES_TWIN_MAX_CPUS);
	CHECK(n >= 1, "a CPU to run on");
	printf("# %u CPUs: %d .. %d\n", n, n ? cpus[0] : -1, n ? cpus[n - 1] : -1);
}

/* A clean machine: every kernel agrees with its known answer on every CPU, or none runs it. */
static void test_every_kernel_agrees(void)
{
	char text[2048];

	for (unsigned int i = 0; i < cores_nr_kernels(); i++) {
		const struct cores_kernel *k = cores_kernel(i);

		judge(k, 0x2a, 2, text, sizeof(text));
		CHECK(cores_twin_passes(&v), "%s: %s", k->name, text);
		CHECK(v.v.cls == CORES_NONE || (v.v.n + v.skipped == n && v.v.nr_known == v.v.n),
		      "%s: every CPU voted and gave the known answer: %s", k->name, text);
		for (unsigned int c = 0; c < n; c++)
			CHECK(slots[c].cpu == cpus[c] && !slots[c].failed, "%s: CPU %d pinned",
			      k->name, cpus[c]);
	}
}

/* @name wrong on @cpu alone: that CPU named wherever the verdict is said. */
static void one_cpu_wrong(const char *name, int cpu)
{
	struct cores_kernel k = broken(name, cpu);
	char text[2048], rec[2048], want[96];
	struct cores_twin_job j = { .k = &k, .seed = 7, .rounds = 3 };
	struct cores_replay rp;
	FILE *f;

	judge(&k, 7, 3, text, sizeof(text));
	CHECK(!cores_twin_passes(&v), "%s wrong on CPU %d fails: %s", name, cpu, text);
	if (n == 1) {
		CHECK(v.v.cls == CORES_REF_WRONG && !v.v.nr_named,
		      "one CPU: the reference or the code, nobody named: %s", text);
		return;
	}
	CHECK(v.v.cls == CORES_MINORITY && v.v.nr_named == 1 && v.cpu[v.v.named[0]] == cpu,
	      "%s: CPU %d named: %s", name, cpu, text);
	snprintf(want, sizeof(want), "cores: kernel %s: CPU %d (APIC id ", name, cpu);
	CHECK(strstr(text, want) && strstr(text, "in the minority"), "the line names it: %s",
	      text);
	cores_twin_record(&v, NULL, rec, sizeof(rec));
	snprintf(want, sizeof(want), "\"named\":[{\"cpu\":%d,", cpu);
	CHECK(strstr(rec, "\"verdict\":\"minority\"") && strstr(rec, want), "record: %s", rec);
	/* The replay: wrong again every time on that CPU alone, never on the other. */
	f = fmemopen(text, sizeof(text), "w");
	CHECK(cores_twin_replay(&j, &v, &rp, f, "# "), "replayed");
	fclose(f);
	CHECK(rp.cpu == (unsigned int)cpu && rp.runs == 10 && rp.wrong == 10 &&
	      rp.other_wrong == 0 && rp.other_cpu == (unsigned int)(cpu == cpus[0] ? cpus[n - 1] :
								    cpus[n - 2]),
	      "replay: CPU %u wrong %u of %u, CPU %u wrong %u", rp.cpu, rp.wrong, rp.runs,
	      rp.other_cpu, rp.other_wrong);
	snprintf(want, sizeof(want), "%s: replayed 10 times: CPU %d wrong 10 times, CPU", name,
		 cpu);
	CHECK(strstr(text, want) && strstr(text, "wrong 0 times: one_cpu"), "said: %s", text);
	cores_twin_record(&v, &rp, rec, sizeof(rec));
	CHECK(strstr(rec, "\"replay\":{") && strstr(rec, "\"class\":\"one_cpu\""), "record: %s",
	      rec);
}

static void test_wrong_on_first_cpu(void)
{
	one_cpu_wrong("muldiv", cpus[0]);
}

static void test_wrong_on_last_cpu(void)
{
	const struct cores_kernel *k = cores_kernel_named("crc32c", 6);

	if (k->cannot && k->cannot(k)) {
		SKIP("crc32c: %s", k->cannot(k));
		return;
	}
	one_cpu_wrong("crc32c", cpus[n - 1]);
}

static void test_wrong_everywhere(void)
{
	struct cores_kernel k = broken("muldiv", EVERY_CPU);
	char text[2048];

	judge(&k, 7, 1, text, sizeof(text));
	CHECK(v.v.cls == CORES_REF_WRONG && !v.v.nr_named && !cores_twin_passes(&v),
	      "every CPU wrong alike: no core blamed: %s", text);
	CHECK(strstr(text, "the reference or the code is wrong, no core blamed") &&
	      !strstr(text, "in the minority"), "said so: %s", text);
}

static void test_skip_said(void)
{
	struct cores_kernel k = *cores_kernel_named("muldiv", 6);
	char text[2048];

	k.cannot = cannot_here;
	no_cpu = cpus[n - 1];
	judge(&k, 7, 1, text, sizeof(text));
	CHECK(v.skipped == 1 && v.v.n == n - 1 && cores_twin_passes(&v),
	      "CPU %d skips it, the others vote: %s", no_cpu, text);
	CHECK(v.why_not && !strcmp(v.why_not, "not on this CPU (test)"), "why: %s",
	      v.why_not ? v.why_not : "(none)");
	no_cpu = EVERY_CPU;
	judge(&k, 7, 1, text, sizeof(text));
	CHECK(v.v.cls == CORES_NONE && cores_twin_passes(&v) &&
	      strstr(text, "no CPU can run it: not on this CPU (test)"), "nobody runs it: %s",
	      text);
	no_cpu = -1;
}

/* The timed runs check every round: the broken kernel's wrong rounds are counted. */
static void test_rate_counts_wrong(void)
{
	struct cores_kernel k = broken("muldiv", cpus[n - 1]);
	struct cores_twin_rate r;

	CHECK(cores_twin_rate(real, 7, 2, cpus, n, 3, 1, &r), "measured: %s",
	      r.why_not ? r.why_not : "");
	CHECK(!r.wrong && r.rounds >= 2 && r.alone && r.each, "clean: no wrong round (%u)",
	      r.wrong);
	CHECK(r.alone_lo <= r.alone && r.alone <= r.alone_hi && r.each_lo <= r.each &&
	      r.each <= r.each_hi, "medians inside their intervals");
	CHECK(cores_twin_rate(&k, 7, 2, cpus, n, 3, 1, &r), "broken: measured");
	/* CPU n-1 runs alone in the runs (n-1) mod n, and in every run of all CPUs at once. */
	CHECK(r.wrong >= 3 * r.rounds, "wrong rounds counted: %u of %u per run", r.wrong,
	      r.rounds);
}

int main(void)
{
	return RUN_TESTS(test_cpus, test_every_kernel_agrees, test_wrong_on_first_cpu,
			 test_wrong_on_last_cpu, test_wrong_everywhere, test_skip_said,
			 test_rate_counts_wrong);
}
