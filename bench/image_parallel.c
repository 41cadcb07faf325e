// SPDX-License-Identifier: GPL-2.0-only
/*
 * image_parallel.c - the image's side of the `parallel` preset (bench/parallel.c): the
 * online CPUs of kernel/platform/smp.c, buffers from each CPU's NUMA node, the TSC as the
 * one clock (QEMU and invariant-TSC hardware keep the CPUs' TSCs in step), and a `run` that
 * posts one function to every CPU of a step, holds them at a barrier until all have
 * arrived, then lets them go together.
 *
 * A CPU that misses the barrier or the deadline does not run its part later: each call
 * has a generation number, a part is kept per CPU (a CPU still busy with an old part cannot
 * be given a new one) and copied on entry, and a part whose generation is stale, before or
 * after the barrier, returns without running.
 */
#include "bench/image.h"
#include "bench/parallel.h"
#include "kernel/arch/bootmem.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"
#include "kernel/lib/string.h"
#include "kernel/platform/cpu.h"
#include "kernel/platform/numa.h"
#include "kernel/platform/smp.h"
#include "kernel/platform/tsc.h"

#define RUN_TIMEOUT_MS	60000	/* a step's round: 64 MiB per CPU under TCG takes ~1 s */

struct part {
	void (*fn)(void *arg, unsigned int i);
	void *arg;
	unsigned int i;
	u32 gen;
};

static unsigned int online[PAR_MAX_CPUS];
static struct part parts[PAR_MAX_CPUS];		/* by index into online[] */
static struct smp_barrier barrier;
static volatile u32 cur_gen;

static int cpu_node(void *ctx, unsigned int i)
{
	return smp_cpu_node(online[i]);
}

static unsigned int cpu_id(void *ctx, unsigned int i)
{
	return online[i];
}

static void *alloc(void *ctx, unsigned int node, u64 bytes)
{
	const struct numa_info *n = numa();

	if (n->from_srat && n->nr_nodes > 1)
		return bench_image_alloc_node(bytes, node);
	return bench_image_alloc(bytes);
}

static void part_run(void *p)
{
	struct part pt = *(struct part *)p;

	if (pt.gen != __atomic_load_n(&cur_gen, __ATOMIC_ACQUIRE))
		return;
	if (smp_barrier_wait(&barrier, RUN_TIMEOUT_MS))
		return;
	if (pt.gen == __atomic_load_n(&cur_gen, __ATOMIC_ACQUIRE))
		pt.fn(pt.arg, pt.i);
}

static int run(void *ctx, const unsigned int *cpus, unsigned int n,
	       void (*fn)(void *arg, unsigned int i), void *arg)
{
	unsigned int self = smp_processor_id(), mine = n;
	u32 gen = __atomic_add_fetch(&cur_gen, 1, __ATOMIC_ACQ_REL);
	int err = 0;

	smp_barrier_init(&barrier, n);
	for (unsigned int i = 0; i < n; i++) {
		struct part *pt = &parts[cpus[i]];

		*pt = (struct part){ fn, arg, i, gen };
		if (online[cpus[i]] == self)
			mine = i;
		else if (on_cpu_async(online[cpus[i]], part_run, pt))
			err = -PAR_ETIMEDOUT;
	}
	if (mine < n)
		part_run(&parts[cpus[mine]]);
	for (unsigned int i = 0; i < n; i++)
		if (i != mine && on_cpu_wait(online[cpus[i]], RUN_TIMEOUT_MS))
			err = -PAR_ETIMEDOUT;
	if (err)	/* stragglers must not run this call's part later */
		__atomic_add_fetch(&cur_gen, 1, __ATOMIC_ACQ_REL);
	return err;
}

static u64 clock(void *ctx)
{
	return rdtsc_ordered();
}

static void out(const char *line)
{
	/* JSON lines list every CPU and outgrow printk's buffer: write them whole. */
	console_write(line, strlen(line));
	console_write("\n", 1);
}

void bench_image_parallel(const struct bench_image_opts *opts)
{
	struct par_ops ops = { .cpu_node = cpu_node, .cpu_id = cpu_id, .alloc = alloc,
			       .run = run, .clock = clock, .clock_hz = tsc_info()->hz };
	struct par_config cfg = { .ops = &ops, .out = out, .machine = cpu()->vendor_str,
				  .rounds = opts->runs, .lava = true };
	unsigned int n = 0;
	u64 per_cpu;

	for (unsigned int c = 0; c < smp_nr_cpus() && n < PAR_MAX_CPUS; c++)
		if (cpu_online(c))
			online[n++] = c;
	ops.nr_cpus = n;
	/* Two buffers a CPU; leave a quarter of free memory alone. */
	per_cpu = bootmem_free_bytes() / 8 * 3 / n;
	cfg.bytes = opts->tiny ? PAR_TINY_BYTES : MIN(PAR_DEFAULT_BYTES, per_cpu & ~(SZ_2M - 1));
	if (!cfg.bytes) {
		printk("bench: parallel: not enough free memory for %u CPUs\n", n);
		return;
	}
	printk("\n== preset parallel ==\n");
	printk("bench: parallel: %u online CPU%s, %llu KiB per buffer%s\n", n, n == 1 ? "" : "s",
	       (unsigned long long)cfg.bytes >> 10,
	       cfg.bytes < PAR_DEFAULT_BYTES && !opts->tiny ? " (less than the default 64 MiB: "
	       "free memory)" : "");
	if (n > 1) {
		u64 warps = 0, max_warp = 0;

		if (smp_tsc_warp(MAX(50, 20000 / n), &warps, &max_warp))
			printk("bench: parallel: the TSC check did not finish on every CPU\n");
		else if (warps)
			printk("bench: parallel: WARNING: the TSC ran backwards between CPUs %llu "
			       "times (by up to %llu ns): skews and aggregates below mix clocks\n",
			       (unsigned long long)warps, (unsigned long long)tsc_to_ns(max_warp));
		else
			printk("bench: parallel: TSCs in step across the %u CPUs (no warp)\n", n);
	}
	if (cpu()->hypervisor)
		printk("bench: parallel: under a hypervisor the scaling says how the host schedules "
		       "vCPUs, not how memory scales\n");
	bench_parallel(&cfg);
}
