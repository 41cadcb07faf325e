// SPDX-License-Identifier: GPL-2.0-only
/*
 * numa.c - SRAT and SLIT parsing (ACPI 6.x sections 5.2.16 and 5.2.17). Proximity domains are
 * numbered densely in the order they first appear; disabled entries are ignored.
 */
#include "kernel/include/unaligned.h"
#include "kernel/lib/string.h"
#include "kernel/platform/numa.h"

#define SRAT_FIRST	(ACPI_HDR_LEN + 12)
#define SLIT_FIRST	(ACPI_HDR_LEN + 8)
#define SRAT_CPU	0	/* processor local APIC affinity, 16 bytes */
#define SRAT_MEM	1	/* memory affinity, 40 bytes */
#define SRAT_X2APIC	2	/* processor x2APIC affinity, 24 bytes */

static void note(struct numa_info *n, const char *what, u64 value)
{
	acpi_note(n->note, &n->nr_notes, NUMA_MAX_NOTES, what, value);
}

static int refuse(struct numa_info *n, const char **why, const char *what, u64 value)
{
	return acpi_refuse(why, &n->why_value, what, value);
}

/* The node of @domain, a new one when it is first seen; -1 past NUMA_MAX_NODES. */
static int node_for(struct numa_info *n, u32 domain)
{
	for (unsigned int i = 0; i < n->nr_nodes; i++)
		if (n->domain[i] == domain)
			return (int)i;
	if (n->nr_nodes == NUMA_MAX_NODES)
		return -1;
	n->domain[n->nr_nodes] = domain;
	return (int)n->nr_nodes++;
}

/*
 * Record [base, end) for @node. A range that touches the previous one of the same node
 * extends it; one that overlaps a range of another node makes the SRAT ambiguous (-1).
 */
static int add_range(struct numa_info *n, u64 base, u64 end, u8 node, u32 flags,
		     const char **why)
{
	struct numa_range *last = n->nr_ranges ? &n->range[n->nr_ranges - 1] : NULL;

	for (unsigned int i = 0; i < n->nr_ranges; i++) {
		const struct numa_range *r = &n->range[i];

		if (base >= r->end || end <= r->start)
			continue;
		if (r->node != node)
			return refuse(n, why, "SRAT memory affinity: ranges of two proximity "
				      "domains overlap at base", base);
		note(n, "SRAT memory affinity: a range overlaps another of its domain, "
		     "ignored: base", base);
		return 0;
	}
	n->bytes[node] += end - base;
	if (last && last->node == node && last->end == base &&
	    last->hotplug == !!(flags & 2) && last->nonvolatile == !!(flags & 4)) {
		last->end = end;
		return 0;
	}
	if (n->nr_ranges == NUMA_MAX_RANGES) {
		n->bytes[node] -= end - base;
		note(n, "SRAT memory affinity: ranges beyond the 64 kept are ignored "
		     "(memory in no node): base", base);
		return 0;
	}
	n->range[n->nr_ranges++] = (struct numa_range){ base, end, node, flags & 2, flags & 4 };
	return 0;
}

static void add_cpu_affinity(struct numa_info *n, u32 apic_id, int node)
{
	if (n->nr_cpu_aff < NUMA_MAX_CPU_AFF)
		n->cpu_aff[n->nr_cpu_aff++] = (struct numa_cpu_aff){ apic_id, (u8)node };
}

int numa_node_of_apic(const struct numa_info *n, u32 apic_id)
{
	for (unsigned int i = 0; i < n->nr_cpu_aff; i++)
		if (n->cpu_aff[i].apic_id == apic_id)
			return n->cpu_aff[i].node;
	return -1;
}

int numa_parse_srat(const void *srat, size_t len, struct numa_info *out, const char **why)
{
	const u8 *b = srat;
	size_t off = SRAT_FIRST;
	u32 dom = 0;

	memset(out, 0, sizeof(*out));
	*why = NULL;
	if (acpi_check_header(b, len, "SRAT", SRAT_FIRST, why, &out->why_value))
		return -1;
	while (off + 2 <= len) {
		u8 type = b[off], elen = b[off + 1];
		const u8 *e = b + off;
		int node;

		if (elen < 2 || off + elen > len)
			return refuse(out, why, "SRAT: an entry runs past the table: entry length",
				      elen);
		if (type == SRAT_CPU && elen >= 16 && (get_le32(e + 4) & 1)) {
			dom = e[2] | (u32)e[9] << 8 | (u32)e[10] << 16 | (u32)e[11] << 24;
			node = node_for(out, dom);
			if (node < 0)
				goto too_many;
			out->cpus[node]++;
			add_cpu_affinity(out, e[3], node);
		} else if (type == SRAT_X2APIC && elen >= 24 && (get_le32(e + 12) & 1)) {
			dom = get_le32(e + 4);
			node = node_for(out, dom);
			if (node < 0)
				goto too_many;
			out->cpus[node]++;
			add_cpu_affinity(out, get_le32(e + 8), node);
		} else if (type == SRAT_MEM && elen >= 40 && (get_le32(e + 28) & 1)) {
			u64 base = get_le64(e + 8), size = get_le64(e + 16);

			dom = get_le32(e + 2);
			if (!size)
				goto next;
			if (base + size < base) {
				note(out, "SRAT memory affinity: base + length wraps past 2^64, "
				     "range ignored: base", base);
				goto next;
			}
			node = node_for(out, dom);
			if (node < 0)
				goto too_many;
			if (add_range(out, base, base + size, (u8)node, get_le32(e + 28), why))
				return -1;
		}
next:
		off += elen;
	}
	if (!out->nr_nodes)
		return refuse(out, why, "SRAT: no enabled processor or memory entry: entries",
			      0);
	out->from_srat = true;
	return 0;
too_many:
	return refuse(out, why, "SRAT: more proximity domains than the 8 nodes kept: domain",
		      dom);
}

int numa_parse_slit(const void *slit, size_t len, struct numa_info *io, const char **why)
{
	u8 d[NUMA_MAX_NODES][NUMA_MAX_NODES];
	const u8 *b = slit;
	bool asym = false;
	u64 n;

	*why = NULL;
	io->have_slit = false;
	if (acpi_check_header(b, len, "SLIT", SLIT_FIRST, why, &io->why_value))
		return -1;
	n = get_le64(b + ACPI_HDR_LEN);
	if (n > 256 || SLIT_FIRST + n * n > len)
		return refuse(io, why, "SLIT: locality count does not fit the table: count", n);
	/* SLIT rows are indexed by proximity domain; map each to our node numbers. */
	for (unsigned int i = 0; i < io->nr_nodes; i++)
		for (unsigned int j = 0; j < io->nr_nodes; j++) {
			if (io->domain[i] >= n || io->domain[j] >= n)
				return refuse(io, why, "SLIT: a proximity domain is beyond the "
					      "localities: domain", MAX(io->domain[i],
									io->domain[j]));
			d[i][j] = b[SLIT_FIRST + io->domain[i] * n + io->domain[j]];
		}
	/* ACPI 6.x 5.2.17: the diagonal is 10, every other distance is above it. */
	for (unsigned int i = 0; i < io->nr_nodes; i++)
		for (unsigned int j = 0; j < io->nr_nodes; j++) {
			if (i == j && d[i][j] != NUMA_LOCAL_DISTANCE)
				return refuse(io, why, "SLIT: a local distance is not 10: "
					      "distance", d[i][j]);
			if (i != j && d[i][j] <= NUMA_LOCAL_DISTANCE)
				return refuse(io, why, "SLIT: a remote distance is not above 10: "
					      "distance", d[i][j]);
		}
	for (unsigned int i = 0; i < io->nr_nodes; i++)
		for (unsigned int j = i + 1; j < io->nr_nodes; j++)
			if (d[i][j] != d[j][i] && !asym) {
				note(io, "SLIT: distances are asymmetric (kept as given): "
				     "domain", io->domain[i]);
				asym = true;
			}
	memcpy(io->distance, d, sizeof(d));
	io->have_slit = true;
	return 0;
}

int numa_node_of(const struct numa_info *n, u64 pa)
{
	for (unsigned int i = 0; i < n->nr_ranges; i++)
		if (pa >= n->range[i].start && pa < n->range[i].end)
			return n->range[i].node;
	return -1;
}

void numa_clip_to_ram(struct numa_info *n, const u64 (*ram)[2], unsigned int nr)
{
	struct numa_range out[NUMA_MAX_RANGES];
	unsigned int k = 0;
	bool full = false;

	for (unsigned int i = 0; i < NUMA_MAX_NODES; i++)
		n->bytes[i] = 0;
	for (unsigned int i = 0; i < n->nr_ranges; i++) {
		const struct numa_range *r = &n->range[i];
		bool any = false;

		for (unsigned int j = 0; j < nr; j++) {
			u64 lo = MAX(r->start, ram[j][0]), hi = MIN(r->end, ram[j][1]);

			if (lo >= hi)
				continue;
			any = true;
			if (k == NUMA_MAX_RANGES) {
				full = true;
				continue;
			}
			out[k] = *r;
			out[k].start = lo;
			out[k].end = hi;
			n->bytes[r->node] += hi - lo;
			k++;
		}
		if (!any)
			note(n, "SRAT memory affinity: a range holds no RAM of the memory map, "
			     "ignored: base", r->start);
	}
	if (full)
		note(n, "SRAT memory affinity: more RAM pieces than the 64 kept; the rest is in "
		     "no node: count", NUMA_MAX_RANGES);
	for (unsigned int i = 0; i < k; i++)
		n->range[i] = out[i];
	n->nr_ranges = k;
}

#ifdef CK_KERNEL
#include "kernel/arch/memmap.h"
#include "kernel/console/printk.h"
#include "kernel/platform/acpi.h"

static struct numa_info info;

const struct numa_info *numa(void)
{
	return &info;
}

#define NUMA_RAM_RUNS	128

struct ram_runs {
	u64 run[NUMA_RAM_RUNS][2];
	unsigned int n;
};

static void add_ram_run(u64 start, u64 end, void *ctx)
{
	struct ram_runs *r = ctx;

	if (r->n < NUMA_RAM_RUNS) {
		r->run[r->n][0] = start;
		r->run[r->n][1] = end;
		r->n++;
	}
}

void numa_init(const struct boot_info *bi)
{
	const struct acpi_sdt_hdr *srat = acpi_find("SRAT"), *slit = acpi_find("SLIT");
	static struct ram_runs ram;
	const char *why;

	if (!srat || numa_parse_srat(srat, srat->length, &info, &why)) {
		if (srat)
			acpi_print_refusal("NUMA", "SRAT", why, info.why_value, "");
		memset(&info, 0, sizeof(info));
		info.nr_nodes = 1;
		info.cpus[0] = 1;
		printk("NUMA: no usable SRAT: one node holds everything\n");
		return;
	}
	ram.n = 0;
	memmap_for_each_ram_run(bi, add_ram_run, &ram);
	numa_clip_to_ram(&info, (const u64 (*)[2])ram.run, ram.n);
	if (slit && numa_parse_slit(slit, slit->length, &info, &why))
		acpi_print_refusal("NUMA", "SLIT", why, info.why_value, " (no distances)");
	acpi_print_notes("NUMA", info.note, info.nr_notes);
	for (unsigned int i = 0; i < info.nr_nodes; i++) {
		printk("NUMA: node%u (proximity domain %u): %llu MiB, %u CPU%s%s", i,
		       info.domain[i],
		       (unsigned long long)info.bytes[i] >> 20, info.cpus[i],
		       info.cpus[i] == 1 ? "" : "s",
		       !info.bytes[i] ? " (no memory: tests cannot place buffers here)" :
		       info.cpus[i] ? "" : " (memory without CPUs: how CXL memory appears)");
		if (info.have_slit) {
			printk(", distances");
			for (unsigned int j = 0; j < info.nr_nodes; j++)
				printk(" %u", info.distance[i][j]);
		}
		printk("\n");
	}
}
#endif
