// SPDX-License-Identifier: GPL-2.0-only
/*
 * efi_main.c - UEFI entry: gather what the kernel needs, leave boot services, hand over.
 *
 * This file and the rest of boot/ are the only code that knows UEFI. efi_main collects the
 * memory map, the ACPI RSDP, the SMBIOS entry points, the GOP framebuffer, the command line
 * (LoadOptions, else the file copykernel.cmdline beside the image) and the previous run's soak
 * checkpoint variable, calls ExitBootServices (fetching the map again when the key went stale)
 * and calls kernel_start() with one struct boot_info.
 *
 * Before ExitBootServices, messages go to the firmware console (OVMF mirrors it to COM1).
 */
#include <efi.h>
#include <efilib.h>

#include "boot/efi_glue.h"
#include "kernel/include/boot_info.h"
#include "kernel/lib/cmdline_text.h"
#include "kernel/lib/efi_memmap.h"

#define CMDLINE_FILE	L"copykernel.cmdline"
#define LABELS_FILE	L"copykernel.labels"
#define EBS_MAX_TRIES	8

static EFI_GUID acpi20_guid = ACPI_20_TABLE_GUID;
static EFI_GUID acpi10_guid = ACPI_TABLE_GUID;
static EFI_GUID smbios3_guid = SMBIOS3_TABLE_GUID;
static EFI_GUID smbios_guid = SMBIOS_TABLE_GUID;
static EFI_GUID gop_guid = EFI_GRAPHICS_OUTPUT_PROTOCOL_GUID;

static void fail(const CHAR16 *what, EFI_STATUS st)
{
	Print(L"copykernel: boot: %s failed: %r\n", what, st);
}

/* The firmware vendor's name for reports: printable ASCII, anything else as '?'. */
static void fw_vendor_ascii(const CHAR16 *in, char *out, UINTN size)
{
	UINTN n = 0;

	for (; in && in[n] && n + 1 < size; n++)
		out[n] = in[n] >= 0x20 && in[n] <= 0x7e ? (char)in[n] : '?';
	out[n] = '\0';
}

static BOOLEAN word_is_image_name(const char *w, UINTN len)
{
	UINTN i;

	if (len && (w[0] == '\\' || w[0] == '/'))
		return TRUE;
	for (i = 0; i + 4 <= len; i++) {
		if (w[i] == '.' && (w[i + 1] | 0x20) == 'e' && (w[i + 2] | 0x20) == 'f' &&
		    (w[i + 3] | 0x20) == 'i' && i + 4 == len)
			return TRUE;
	}
	return FALSE;
}

/* Shells and iPXE pass the image's own name as the first word: drop it. */
static void strip_image_name(char *s)
{
	UINTN start = 0, end, i;

	while (s[start] == ' ')
		start++;
	end = start;
	while (s[end] && s[end] != ' ')
		end++;
	if (!word_is_image_name(s + start, end - start))
		return;
	while (s[end] == ' ')
		end++;
	for (i = 0; s[end + i]; i++)
		s[i] = s[end + i];
	s[i] = '\0';
}

/* True when the command line holds the word @w exactly. */
static BOOLEAN has_word(const char *s, const char *w)
{
	UINTN n = 0, i;

	while (w[n])
		n++;
	for (i = 0; s[i]; i++) {
		if ((i == 0 || s[i - 1] == ' ') && !CompareMem(s + i, w, n) &&
		    (s[i + n] == ' ' || s[i + n] == '\0'))
			return TRUE;
	}
	return FALSE;
}

static BOOLEAN blank(const char *s)
{
	for (; *s; s++)
		if (*s != ' ')
			return FALSE;
	return TRUE;
}

/*
 * LoadOptions first (the UEFI shell, iPXE, a boot entry with arguments), else the file
 * beside the image. The text rules, and the notes for what could not be taken whole, are
 * kernel/lib/cmdline_text.c's; the kernel prints the notes after the takeover.
 */
static void get_cmdline(EFI_LOADED_IMAGE *li, struct boot_info *bi)
{
	static char filebuf[BOOT_CMDLINE_FILE_MAX + 2];	/* one byte more tells "longer" */
	struct boot_notes *notes = &bi->cmdline_notes;
	UINTN len = 0;
	BOOLEAN more = FALSE;

	bi->cmdline_source = "none";
	bi->cmdline[0] = '\0';
	if (li->LoadOptionsSize && li->LoadOptions) {
		/* The bytes as the firmware gave them: the encoding is cmdline_text.c's to read. */
		if (cmdline_from_options(li->LoadOptions, li->LoadOptionsSize, bi->cmdline,
					 sizeof(bi->cmdline), notes) >= 0) {
			strip_image_name(bi->cmdline);
			if (!blank(bi->cmdline)) {
				bi->cmdline_source = "LoadOptions";
				return;
			}
		} else {
			Print(L"copykernel: boot: LoadOptions are not text, ignored\n");
		}
	}
	bi->cmdline[0] = '\0';
	if (efi_read_file_beside_image(li, CMDLINE_FILE, filebuf, sizeof(filebuf), &len)) {
		/* One byte more than the limit was asked for: if it came, the file is longer. */
		more = len > BOOT_CMDLINE_FILE_MAX;
		if (more)
			len = BOOT_CMDLINE_FILE_MAX;
		cmdline_from_file((const u8 *)filebuf, len, more, bi->cmdline,
				  sizeof(bi->cmdline), notes);
		bi->cmdline_source = "copykernel.cmdline";
	}
}

/* The DIMM labels file beside the image, as bytes: the kernel parses it (mce/dimm_labels.c). */
static void get_labels(EFI_LOADED_IMAGE *li, struct boot_info *bi)
{
	static char filebuf[BOOT_LABELS_MAX + 2];	/* one byte more tells "longer" */
	UINTN len = 0;

	bi->labels_len = 0;
	bi->labels_truncated = FALSE;
	if (!efi_read_file_beside_image(li, LABELS_FILE, filebuf, sizeof(filebuf), &len))
		return;
	bi->labels_truncated = len > BOOT_LABELS_MAX;
	if (bi->labels_truncated)
		len = BOOT_LABELS_MAX;
	for (UINTN i = 0; i < len; i++)
		bi->labels[i] = filebuf[i];
	bi->labels_len = (u32)len;
}

/*
 * The ACPI RSDPs and the SMBIOS entry points of the configuration table. Of an entry point
 * only its length field is read here (byte 6 of "_SM3_", byte 5 of "_SM_", DSP0134 5.2); the
 * kernel checks anchors, checksums and the table (kernel/platform/smbios_fw.c).
 */
static void get_tables(struct boot_info *bi)
{
	UINTN i;

	for (i = 0; i < ST->NumberOfTableEntries; i++) {
		EFI_CONFIGURATION_TABLE *t = &ST->ConfigurationTable[i];
		const u8 *p = t->VendorTable;

		if (!CompareGuid(&t->VendorGuid, &acpi20_guid)) {
			bi->rsdp = (u64)(UINTN)p;
		} else if (!CompareGuid(&t->VendorGuid, &acpi10_guid)) {
			bi->rsdp1 = (u64)(UINTN)p;
		} else if (!CompareGuid(&t->VendorGuid, &smbios3_guid) && p) {
			bi->smbios3 = (u64)(UINTN)p;
			bi->smbios3_len = p[6];
		} else if (!CompareGuid(&t->VendorGuid, &smbios_guid) && p) {
			bi->smbios = (u64)(UINTN)p;
			bi->smbios_len = p[5];
		}
	}
}

static void get_framebuffer(struct boot_info *bi)
{
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop = NULL;
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *mi;
	EFI_STATUS st;

	bi->fb.format = FB_NONE;
	st = uefi_call_wrapper(BS->LocateProtocol, 3, &gop_guid, NULL, (void **)&gop);
	if (EFI_ERROR(st) || !gop || !gop->Mode || !gop->Mode->Info)
		return;
	mi = gop->Mode->Info;
	switch (mi->PixelFormat) {
	case PixelBlueGreenRedReserved8BitPerColor:
		bi->fb.format = FB_BGRX;
		break;
	case PixelRedGreenBlueReserved8BitPerColor:
		bi->fb.format = FB_RGBX;
		break;
	case PixelBitMask:
		bi->fb.format = FB_BITMASK;
		break;
	default:
		return;		/* Blt-only: no linear framebuffer */
	}
	bi->fb.base = gop->Mode->FrameBufferBase;
	bi->fb.size = gop->Mode->FrameBufferSize;
	bi->fb.width = mi->HorizontalResolution;
	bi->fb.height = mi->VerticalResolution;
	bi->fb.stride = mi->PixelsPerScanLine;
}

/* The layout kernel/lib/efi_memmap.c reads: checked against gnu-efi's structure. */
_Static_assert(sizeof(EFI_MEMORY_DESCRIPTOR) == BOOT_MEMMAP_DESC_MIN, "BOOT_MEMMAP_DESC_MIN");
_Static_assert(offsetof(EFI_MEMORY_DESCRIPTOR, PhysicalStart) == 8, "PhysicalStart");
_Static_assert(offsetof(EFI_MEMORY_DESCRIPTOR, NumberOfPages) == 24, "NumberOfPages");

/* boot_info in loader data (the kernel keeps it), zeroed; the image's place and the firmware. */
static EFI_STATUS alloc_boot_info(EFI_HANDLE image, struct boot_info **out,
				  EFI_LOADED_IMAGE **li)
{
	EFI_PHYSICAL_ADDRESS addr;
	struct boot_info *bi;
	EFI_STATUS st;

	st = uefi_call_wrapper(BS->AllocatePages, 4, AllocateAnyPages, EfiLoaderData,
			       EFI_SIZE_TO_PAGES(sizeof(*bi)), &addr);
	if (EFI_ERROR(st)) {
		fail(L"AllocatePages(boot_info)", st);
		return st;
	}
	bi = (struct boot_info *)(UINTN)addr;
	SetMem(bi, sizeof(*bi), 0);
	st = uefi_call_wrapper(BS->HandleProtocol, 3, image, &LoadedImageProtocol, (void **)li);
	if (EFI_ERROR(st)) {
		fail(L"HandleProtocol(LoadedImage)", st);
		return st;
	}
	bi->image_base = (u64)(UINTN)(*li)->ImageBase;
	bi->image_size = (*li)->ImageSize;
	fw_vendor_ascii(ST->FirmwareVendor, bi->fw_vendor, sizeof(bi->fw_vendor));
	bi->fw_revision = ST->FirmwareRevision;
	*out = bi;
	return EFI_SUCCESS;
}

/*
 * Leave boot services. The map buffer is allocated once, with room for the entries the
 * allocation itself and a few firmware events may add. Between GetMemoryMap and
 * ExitBootServices nothing may allocate; a stale key just means: fetch the map again into the
 * same buffer. @stale_once spoils the first key (ebs=stale), to exercise that retry. On
 * success the map is translated into @bi; on failure boot services are still up.
 */
static EFI_STATUS exit_boot_services(EFI_HANDLE image, struct boot_info *bi, BOOLEAN stale_once)
{
	UINTN map_size = 0, map_key, desc_size, map_cap;
	UINT32 desc_ver;
	void *map = NULL;
	EFI_STATUS st;
	u32 tries;

	uefi_call_wrapper(BS->GetMemoryMap, 5, &map_size, NULL, &map_key, &desc_size, &desc_ver);
	map_cap = map_size + 16 * (desc_size ? desc_size : sizeof(EFI_MEMORY_DESCRIPTOR));
	st = uefi_call_wrapper(BS->AllocatePool, 3, EfiLoaderData, map_cap, &map);
	if (EFI_ERROR(st)) {
		fail(L"AllocatePool(memory map)", st);
		return st;
	}
	for (tries = 1; tries <= EBS_MAX_TRIES; tries++) {
		map_size = map_cap;
		st = uefi_call_wrapper(BS->GetMemoryMap, 5, &map_size, map, &map_key, &desc_size,
				       &desc_ver);
		if (EFI_ERROR(st)) {
			fail(L"GetMemoryMap", st);
			return st;
		}
		if (stale_once) {
			stale_once = FALSE;
			map_key++;
		}
		st = uefi_call_wrapper(BS->ExitBootServices, 2, image, map_key);
		if (!EFI_ERROR(st))
			break;
		if (st != EFI_INVALID_PARAMETER) {
			fail(L"ExitBootServices", st);
			return st;
		}
	}
	if (EFI_ERROR(st))
		return st;	/* boot services are still up: the firmware reports it */
	/* Boot services are gone: no Print, no allocation from here on. */
	bi->ebs_attempts = tries;
	efi_memmap_translate(bi, map, map_size, desc_size);
	return EFI_SUCCESS;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	EFI_LOADED_IMAGE *li = NULL;
	struct boot_info *bi;
	BOOLEAN stale_once;
	EFI_STATUS st;

	InitializeLib(image, systab);
	Print(L"copykernel: boot: UEFI %s rev %d.%d\n", ST->FirmwareVendor,
	      ST->Hdr.Revision >> 16, ST->Hdr.Revision & 0xffff);
	st = alloc_boot_info(image, &bi, &li);
	if (EFI_ERROR(st))
		return st;
	get_cmdline(li, bi);
	get_labels(li, bi);
	/* Test knob: spoil the first ExitBootServices key to exercise the retry. */
	stale_once = has_word(bi->cmdline, "ebs=stale");
	get_tables(bi);
	get_framebuffer(bi);
	efi_runtime_init(ST->RuntimeServices, bi);
	efi_read_checkpoint(bi);
	efi_read_secure_boot(bi);
	Print(L"copykernel: boot: image at 0x%lx, command line from %a: '%a'\n",
	      bi->image_base, bi->cmdline_source, bi->cmdline);
	Print(L"copykernel: boot: leaving boot services; output continues on the serial port\n");
	st = exit_boot_services(image, bi, stale_once);
	if (EFI_ERROR(st))
		return st;
	kernel_start(bi);
}
