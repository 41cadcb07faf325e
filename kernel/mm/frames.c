// SPDX-License-Identifier: GPL-2.0-only
/*
 * frames.c - give RAM its page frames at boot: one section per run of adjacent RAM entries
 * of the firmware map, the frames allocated from free memory, each frame's NUMA node from
 * the SRAT when there is one.
 */
#include "kernel/arch/bootmem.h"
#include "kernel/arch/memmap.h"
#include "kernel/console/printk.h"
#include "kernel/mm/page.h"
#include "kernel/platform/numa.h"

struct frame_count {
	u64 frames;
	unsigned int runs, dropped;
};

static void frames_for_run(u64 start, u64 end, void *ctx)
{
	struct frame_count *fc = ctx;
	u64 nr = (end - start) >> PAGE_SHIFT;
	u64 pa = bootmem_alloc(nr * sizeof(struct page), SZ_4K);

	if (!pa || pgmap_add(start >> PAGE_SHIFT, nr, (struct page *)(uintptr_t)pa, 0)) {
		fc->dropped++;
		return;
	}
	if (numa()->from_srat) {
		struct page *pg = (struct page *)(uintptr_t)pa;

		for (u64 i = 0; i < nr; i++) {
			int node = numa_node_of(numa(), start + i * SZ_4K);

			pg[i].node = node < 0 ? 0 : (u16)node;
		}
	}
	fc->frames += nr;
	fc->runs++;
}

/* Frames for every run of adjacent RAM entries; pages have node 0 until SRAT is read. */
void pages_setup(const struct boot_info *bi)
{
	struct frame_count fc = { 0 };

	pgmap_reset();
	memmap_for_each_ram_run(bi, frames_for_run, &fc);
	printk("pages: %llu page frames in %u RAM runs (%llu KiB of struct page)%s\n",
	       (unsigned long long)fc.frames, fc.runs,
	       (unsigned long long)(fc.frames * sizeof(struct page)) >> 10,
	       fc.dropped ? "; some runs have no frames (out of memory or sections)" : "");
}
