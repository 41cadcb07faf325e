// SPDX-License-Identifier: GPL-2.0-only
/*
 * numa.c - SRAT and SLIT parsing (ACPI 6.x sections 5.2.16 and 5.2.17). Proximity domains are
 * numbered densely in the order they first appear; disabled entries are ignored.
 */
#include "kernel/include/unaligned.h"
#include "kernel/lib/string.h"
#include "kernel/platform/numa.h"

#define ACPI_HDR	36
#define SRAT_FIRST	(ACPI_HDR + 12)
#define SRAT_CPU	0	/* processor local APIC affinity, 16 bytes */
#define SRAT_MEM	1	/* memory affinity, 40 bytes */
#define SRAT_X2APIC	2	/* processor x2APIC affinity, 24 bytes */

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

int numa_parse_srat(const void *srat, size_t len, struct numa_info *out, const char **why)
{
	const u8 *b = srat;
	size_t off = SRAT_FIRST;

	memset(out, 0, sizeof(*out));
	*why = NULL;
	if (len < SRAT_FIRST || memcmp(b, "SRAT", 4) || get_le32(b + 4) != len) {
		*why = "not an SRAT, or its length is wrong";
		return -1;
	}
	while (off + 2 <= len) {
		u8 type = b[off], elen = b[off + 1];
		const u8 *e = b + off;
		int node;

		if (elen < 2 || off + elen > len) {
			*why = "an entry runs past the table";
			return -1;
		}
		if (type == SRAT_CPU && elen >= 16 && (get_le32(e + 4) & 1)) {
			u32 dom = e[2] | (u32)e[9] << 8 | (u32)e[10] << 16 | (u32)e[11] << 24;

			node = node_for(out, dom);
			if (node >= 0)
				out->cpus[node]++;
		} else if (type == SRAT_X2APIC && elen >= 24 && (get_le32(e + 12) & 1)) {
			node = node_for(out, get_le32(e + 4));
			if (node >= 0)
				out->cpus[node]++;
		} else if (type == SRAT_MEM && elen >= 40 && (get_le32(e + 28) & 1)) {
			u64 base = get_le64(e + 8), size = get_le64(e + 16);

			node = node_for(out, get_le32(e + 2));
			if (node < 0 || !size)
				goto next;
			if (out->nr_ranges == NUMA_MAX_RANGES) {
				*why = "more memory ranges than the kernel keeps";
				return -1;
			}
			out->range[out->nr_ranges++] = (struct numa_range){
				base, base + size, (u8)node, get_le32(e + 28) & 2,
				get_le32(e + 28) & 4 };
			out->bytes[node] += size;
		}
next:
		off += elen;
	}
	if (!out->nr_nodes) {
		*why = "the SRAT names no enabled node";
		return -1;
	}
	out->from_srat = true;
	return 0;
}

int numa_parse_slit(const void *slit, size_t len, struct numa_info *io, const char **why)
{
	const u8 *b = slit;
	u64 n;

	*why = NULL;
	if (len < ACPI_HDR + 8 || memcmp(b, "SLIT", 4) || get_le32(b + 4) != len) {
		*why = "not a SLIT, or its length is wrong";
		return -1;
	}
	n = get_le64(b + ACPI_HDR);
	if (n > 256 || ACPI_HDR + 8 + n * n > len) {
		*why = "locality count does not fit the table";
		return -1;
	}
	/* SLIT rows are indexed by proximity domain; map each to our node numbers. */
	for (unsigned int i = 0; i < io->nr_nodes; i++)
		for (unsigned int j = 0; j < io->nr_nodes; j++) {
			if (io->domain[i] >= n || io->domain[j] >= n) {
				*why = "a proximity domain is beyond the SLIT's localities";
				return -1;
			}
			io->distance[i][j] = b[ACPI_HDR + 8 + io->domain[i] * n + io->domain[j]];
		}
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

#ifdef CK_KERNEL
#include "kernel/console/printk.h"
#include "kernel/platform/acpi.h"

static struct numa_info info;

const struct numa_info *numa(void)
{
	return &info;
}

void numa_init(void)
{
	const struct acpi_sdt_hdr *srat = acpi_find("SRAT"), *slit = acpi_find("SLIT");
	const char *why;

	if (!srat || numa_parse_srat(srat, srat->length, &info, &why)) {
		if (srat)
			pr_warn("NUMA: SRAT unusable (%s)\n", why);
		memset(&info, 0, sizeof(info));
		info.nr_nodes = 1;
		info.cpus[0] = 1;
		printk("NUMA: no SRAT: one node holds everything\n");
		return;
	}
	if (slit && numa_parse_slit(slit, slit->length, &info, &why))
		pr_warn("NUMA: SLIT unusable (%s)\n", why);
	for (unsigned int i = 0; i < info.nr_nodes; i++) {
		printk("NUMA: node%u (proximity domain %u): %llu MiB, %u CPU%s%s", i,
		       info.domain[i],
		       (unsigned long long)info.bytes[i] >> 20, info.cpus[i],
		       info.cpus[i] == 1 ? "" : "s",
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
