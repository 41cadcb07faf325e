// SPDX-License-Identifier: GPL-2.0-only
/*
 * dimm_report.c - print the DIMM of a DRAM error beside the bank (mce/report.c's #MC banks,
 * mce/poll_report.c's corrected ones): node, UMC, chip select, DIMM, rank and the label, or
 * "unknown" and why. The labels are taken once at start-up, before any report reads them.
 */
#include "kernel/console/printk.h"
#include "mce/dimm.h"
#include "mce/dimm_labels.h"
#include "mce/dimm_report.h"

static struct dimm_labels labels;
static bool labels_taken;		/* a labels file parsed and its board found */

void mce_dimm_labels_init(const char *text, size_t len, bool truncated, const char *vendor,
			  const char *product)
{
	if (!len)
		return;
	if (!vendor || !product) {
		printk("labels: copykernel.labels read, but SMBIOS names no baseboard (type 2) "
		       "to match it by: no labels\n");
		return;
	}
	if (truncated) {
		printk("labels: copykernel.labels is longer than the image reads: ignored\n");
		return;
	}
	if (dimm_labels_parse(&labels, text, len, vendor, product)) {
		printk("labels: copykernel.labels line %u: %s: the file is ignored\n",
		       labels.bad_line, labels.error);
		return;
	}
	labels_taken = labels.board_found;
	printk("labels: copykernel.labels: %s \"%s\" / \"%s\"%s (%u locations)\n",
	       labels.board_found ? "board" : "no entry for board", vendor, product,
	       labels.board_found ? " found" : "", labels.n);
}

const char *mce_dimm_label(unsigned int node, unsigned int cs, unsigned int umc)
{
	return labels_taken ? dimm_labels_find(&labels, node, cs, umc) : NULL;
}

void mce_dimm_report(const char *p, int node, bool smca, u64 status, u64 synd, u64 ipid)
{
	struct dimm_bank b = { .status = status, .synd = synd, .ipid = ipid,
			       .node = node < 0 ? 0 : (unsigned int)node, .smca = smca };
	struct dimm_loc l = dimm_decode(&b);
	const char *label = NULL;
	char words[160];

	if (!b.smca)
		return;
	if (l.why == DIMM_KNOWN && node >= 0 && labels_taken)
		label = dimm_labels_find(&labels, l.node, l.cs, l.umc);
	dimm_describe(&l, node, label ? label : labels_taken ? "(none in copykernel.labels)" :
		      "(no labels file)", words, sizeof(words));
	printk("%sDIMM: %s\n", p, words);
}
