// SPDX-License-Identifier: GPL-2.0-only
/*
 * smbios_fw.c - the firmware's SMBIOS table as the run's DIMM map: smbios_load()
 * (smbios_load.c) finds, checks, parses and describes it; this prints its lines and keeps the
 * map for the soak.
 *
 * It runs once, early (init/main.c, right after ACPI): the firmware's page tables still map
 * every range of its memory map, and no boot-services memory has been reused yet, so a table
 * a firmware left there is still whole. The table itself is not needed afterwards.
 */
#include "kernel/console/printk.h"
#include "kernel/include/boot_info.h"
#include "kernel/platform/smbios.h"

static struct smbios_dimms dimms;
static bool have_dimms;

const struct smbios_dimms *smbios_dimms_get(void)
{
	return have_dimms ? &dimms : NULL;
}

static void print_line(void *ctx, bool warn, const char *line)
{
	(void)ctx;
	if (warn)
		pr_warn("%s\n", line);
	else
		printk("%s\n", line);
}

void smbios_fw_init(const struct boot_info *bi)
{
	have_dimms = smbios_load(bi, &dimms, print_line, NULL);
}
