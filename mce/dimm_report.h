/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dimm_report.h - the image's words on which DIMM a DRAM error hit (mce/dimm.c's decode of an
 * SMCA UMC bank), with the silkscreen label from the labels file the boot medium carried
 * (copykernel.labels, rasdaemon's format, mce/dimm_labels.c) for this SMBIOS baseboard.
 */
#ifndef CK_MCE_DIMM_REPORT_H
#define CK_MCE_DIMM_REPORT_H

#include "kernel/include/types.h"

/*
 * Take the labels file (@len bytes, 0: none) for the board @vendor/@product (NULL: SMBIOS
 * named none) once, before any report; prints what it took or why the file is ignored.
 */
void mce_dimm_labels_init(const char *text, size_t len, bool truncated, const char *vendor,
			  const char *product);
/*
 * "DIMM: node N UMC U chip select C: DIMM D rank R, <severity>, label L" or "DIMM: unknown
 * (why)" for one bank logged by a CPU of AMD node @node (-1 unknown: mce_cpu_amd_node()),
 * starting with @p; nothing when the CPU has no SMCA (@smca false).
 */
void mce_dimm_report(const char *p, int node, bool smca, u64 status, u64 synd, u64 ipid);
/*
 * The label of AMD node @node's UMC @umc chip select @cs (rasdaemon's mc.row.channel) in the
 * labels file taken for this board, or NULL (no file, no board entry, no such location).
 */
const char *mce_dimm_label(unsigned int node, unsigned int cs, unsigned int umc);

#endif
