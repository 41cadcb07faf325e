/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * boot_info.h - the one structure boot/ hands to the kernel after ExitBootServices.
 *
 * boot/ is the only code that knows UEFI. It translates the firmware's memory map, tables,
 * framebuffer and command line into the neutral types below; the kernel never sees an
 * EFI type. The firmware callbacks at the end are the runtime services the kernel may use
 * after boot services are gone, wrapped by boot/.
 *
 * Things boot/ only finds and copies, for the kernel to check and decode: where the SMBIOS
 * entry points are (the configuration table's SMBIOS3 and SMBIOS entries), the bytes of the
 * soak's checkpoint variable as the previous run left them, and the firmware's SecureBoot
 * and SetupMode variables (all read with GetVariable while boot services are up, so the
 * kernel never has to read a variable).
 */
#ifndef CK_BOOT_INFO_H
#define CK_BOOT_INFO_H

#include "kernel/include/types.h"

enum mem_type {
	MEM_RESERVED,		/* firmware reserved, never touched */
	MEM_USABLE,		/* free RAM the kernel may allocate */
	MEM_LOADER_CODE,	/* this image */
	MEM_LOADER_DATA,	/* boot_info and other allocations made by boot/ */
	MEM_BOOT_SERVICES,	/* firmware boot-services memory: RAM, free once we own it */
	MEM_RUNTIME_CODE,	/* UEFI runtime services code: RAM, must stay executable */
	MEM_RUNTIME_DATA,
	MEM_ACPI_RECLAIM,
	MEM_ACPI_NVS,
	MEM_MMIO,		/* firmware-described MMIO (flash, etc.) */
	MEM_PERSISTENT,
	MEM_UNUSABLE,		/* RAM with errors */
	MEM_TYPE_COUNT,
};

struct mem_range {
	u64 base;
	u64 pages;		/* 4 KiB pages */
	u32 type;		/* enum mem_type */
	u32 fw_type;		/* the firmware's own type number, for reports */
};

enum fb_format {
	FB_NONE,
	FB_BGRX,		/* blue in the low byte */
	FB_RGBX,
	FB_BITMASK,
};

struct framebuffer_info {
	u64 base;
	u64 size;
	u32 width, height;
	u32 stride;		/* pixels per scan line */
	u32 format;		/* enum fb_format */
};

enum fw_reset_kind {
	FW_RESET_COLD,
	FW_RESET_SHUTDOWN,
};

#define BOOT_CMDLINE_MAX	4096	/* the command line, after comments are dropped */
#define BOOT_CMDLINE_FILE_MAX	16384	/* copykernel.cmdline as read, comments included */
#define BOOT_LABELS_MAX		16384	/* copykernel.labels (rasdaemon's DIMM labels format) */
#define BOOT_NOTES_MAX		6
#define BOOT_NOTE_LEN		200

/* What boot/ could not take whole, for the kernel to print after the takeover. */
struct boot_notes {
	u32 n;			/* notes held */
	u32 errors;		/* of all notes, how many make the command line bad */
	u32 dropped;		/* notes beyond BOOT_NOTES_MAX */
	bool error[BOOT_NOTES_MAX];
	char text[BOOT_NOTES_MAX][BOOT_NOTE_LEN];
};
#define BOOT_MEMMAP_MAX		512
#define BOOT_MEMMAP_DESC_MIN	40	/* sizeof(EFI_MEMORY_DESCRIPTOR) */

/*
 * The soak checkpoint variable (init/results.h, "CopykernelSoak" under the project's
 * vendor GUID) as boot/ found it before ExitBootServices.
 */
#define BOOT_CKPT_VAR		"CopykernelSoak"
#define BOOT_CKPT_MAX		1024

enum boot_var_state {
	BOOT_VAR_NOT_READ,	/* boot/ did not look (no runtime services) */
	BOOT_VAR_ABSENT,	/* the firmware has no such variable */
	BOOT_VAR_READ,		/* data[0..len) holds it */
	BOOT_VAR_TOO_BIG,	/* longer than BOOT_CKPT_MAX: len is its size, nothing copied */
	BOOT_VAR_ERROR,		/* GetVariable failed: err is the firmware's code (low bits) */
};

struct boot_var {
	u32 state;		/* enum boot_var_state */
	u32 len;
	u32 err;
	u8 data[BOOT_CKPT_MAX];
};

/*
 * A UEFI global variable of one byte (EFI_GLOBAL_VARIABLE, 8be4df61-93ca-11d2-aa0d-00e098032b8c)
 * as boot/ read it before ExitBootServices: SecureBoot (1: the firmware enforces image
 * signatures) and SetupMode (1: no platform key enrolled). kernel/platform/secureboot.h says
 * what the pair means.
 */
struct boot_flag_var {
	u32 state;		/* enum boot_var_state */
	u32 len;		/* bytes the firmware holds (READ: copied, at most 8) */
	u32 err;		/* ERROR: the firmware's code (low bits) */
	u8 data[8];
};

struct boot_info {
	u64 image_base, image_size;
	u64 rsdp;		/* physical address of the ACPI 2.0+ RSDP, 0 if none */
	u64 rsdp1;		/* ACPI 1.0 RSDP, 0 if none */
	/*
	 * SMBIOS entry point structures (physical addresses, 0 if none) and their own length
	 * fields as boot/ read them: the 64-bit "_SM3_" one and the 32-bit "_SM_" one.
	 */
	u64 smbios3, smbios;
	u32 smbios3_len, smbios_len;
	struct boot_var prev_ckpt;	/* the previous run's soak checkpoint */
	struct boot_flag_var secure_boot, setup_mode;	/* SecureBoot, SetupMode */
	struct framebuffer_info fb;
	char cmdline[BOOT_CMDLINE_MAX];
	const char *cmdline_source;	/* "LoadOptions", a file name, or "none" */
	struct boot_notes cmdline_notes;
	char labels[BOOT_LABELS_MAX];	/* copykernel.labels beside the image, as read */
	u32 labels_len;			/* 0: no such file */
	bool labels_truncated;		/* the file is longer than BOOT_LABELS_MAX */
	char fw_vendor[64];
	u32 fw_revision;
	u32 ebs_attempts;	/* ExitBootServices calls it took */
	u32 memmap_entries_dropped;	/* firmware entries beyond BOOT_MEMMAP_MAX */
	u32 memmap_desc_size;		/* the firmware's descriptor size; too small: no map */
	u32 nr_mem;
	struct mem_range mem[BOOT_MEMMAP_MAX];
	/* Runtime services, valid after ExitBootServices. */
	void (*fw_reset)(enum fw_reset_kind kind);
	/*
	 * Store @size bytes as the non-volatile UEFI variable @name (ASCII) under the project's
	 * vendor GUID (docs/user/results.md); @size 0 deletes it. Returns 0
	 * or the firmware's error code (its low bits).
	 */
	int (*fw_set_var)(const char *name, const void *data, size_t size);
	/* The firmware clock as ISO 8601 text ("2026-11-30T09:55:00[+hh:mm]"); 0 or -1. */
	int (*fw_get_time)(char *buf, size_t size);
};

/* The kernel's entry point: never returns. boot/ calls it on the firmware's stack. */
__noreturn void kernel_start(struct boot_info *bi);

#endif
