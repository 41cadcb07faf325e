// SPDX-License-Identifier: GPL-2.0-only
/*
 * efi_runtime.c - the UEFI runtime services the kernel may use after ExitBootServices,
 * behind the neutral callbacks of struct boot_info. No SetVirtualAddressMap is ever called:
 * the kernel's page tables map runtime regions 1:1, so the physical pointers stay valid.
 *
 * The variables the kernel reads, the soak's checkpoint and the firmware's SecureBoot and
 * SetupMode, are read here while boot services are still up (efi_read_checkpoint,
 * efi_read_secure_boot): the kernel gets bytes in boot_info and needs no GetVariable of its
 * own, so after the takeover the firmware is entered only to store.
 */
#include <efi.h>
#include <efilib.h>

#include "boot/efi_glue.h"
#include "kernel/lib/format.h"

static EFI_RUNTIME_SERVICES *runtime;

/* copykernel's vendor GUID: 6c6b6b63-7970-4b65-8e72-6e656c727573. */
static EFI_GUID ck_vendor_guid = {
	0x6c6b6b63, 0x7970, 0x4b65, { 0x8e, 0x72, 0x6e, 0x65, 0x6c, 0x72, 0x75, 0x73 }
};

#define VAR_NAME_MAX	64

static void var_name(const char *name, CHAR16 *wname)
{
	UINTN i;

	for (i = 0; name[i] && i + 1 < VAR_NAME_MAX; i++)
		wname[i] = (CHAR16)name[i];
	wname[i] = 0;
}

static int efi_set_var(const char *name, const void *data, size_t size)
{
	CHAR16 wname[VAR_NAME_MAX];
	EFI_STATUS st;

	var_name(name, wname);
	/* Size 0 deletes the variable; one that does not exist is not an error then. */
	st = uefi_call_wrapper(runtime->SetVariable, 5, wname, &ck_vendor_guid,
			       EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS |
			       EFI_VARIABLE_RUNTIME_ACCESS, (UINTN)size, (void *)data);
	if (!size && st == EFI_NOT_FOUND)
		return 0;
	return EFI_ERROR(st) ? (int)(st & 0xff) : 0;
}

/* The firmware clock as "2026-11-30T09:55:00", plus "+01:00"-style when it knows the zone. */
static int efi_get_time(char *buf, size_t size)
{
	EFI_TIME t;
	EFI_STATUS st = uefi_call_wrapper(runtime->GetTime, 2, &t, NULL);
	int len;

	if (EFI_ERROR(st) || t.Month < 1 || t.Month > 12 || t.Day < 1 || t.Day > 31)
		return -1;
	len = ck_snprintf(buf, size, "%04u-%02u-%02uT%02u:%02u:%02u", t.Year, t.Month, t.Day,
			  t.Hour, t.Minute, t.Second);
	/* UEFI: TimeZone is minutes to add to local time for UTC, 2047 when unspecified. */
	if (t.TimeZone != EFI_UNSPECIFIED_TIMEZONE && t.TimeZone >= -1440 && t.TimeZone <= 1440)
		ck_snprintf(buf + len, size > (size_t)len ? size - (size_t)len : 0,
			    "%c%02d:%02d", t.TimeZone > 0 ? '-' : '+',
			    (t.TimeZone < 0 ? -t.TimeZone : t.TimeZone) / 60,
			    (t.TimeZone < 0 ? -t.TimeZone : t.TimeZone) % 60);
	return 0;
}

static void efi_reset(enum fw_reset_kind kind)
{
	EFI_RESET_TYPE type = kind == FW_RESET_SHUTDOWN ? EfiResetShutdown : EfiResetCold;

	uefi_call_wrapper(runtime->ResetSystem, 4, type, EFI_SUCCESS, 0, NULL);
}

/*
 * Read variable @name of @guid into @data (at most @cap bytes): *@state says how it went
 * (enum boot_var_state), *@len how many bytes it holds (the size it needs when too big, 0
 * when absent or unread), *@err the firmware's code when it failed.
 */
static void read_var(const char *name, EFI_GUID *guid, u8 *data, UINTN cap, u32 *state,
		     u32 *len, u32 *err)
{
	CHAR16 wname[VAR_NAME_MAX];
	UINTN size = cap;
	UINT32 attrs = 0;
	EFI_STATUS st;

	*state = BOOT_VAR_NOT_READ;
	if (!runtime || !runtime->GetVariable)
		return;
	var_name(name, wname);
	st = uefi_call_wrapper(runtime->GetVariable, 5, wname, guid, &attrs, &size, data);
	*len = (u32)size;
	if (st == EFI_SUCCESS) {
		*state = BOOT_VAR_READ;
	} else if (st == EFI_NOT_FOUND) {
		*state = BOOT_VAR_ABSENT;
		*len = 0;
	} else if (st == EFI_BUFFER_TOO_SMALL) {
		*state = BOOT_VAR_TOO_BIG;	/* size is what it needs */
	} else {
		*state = BOOT_VAR_ERROR;
		*err = (u32)(st & 0xff);
		*len = 0;
	}
}

void efi_read_checkpoint(struct boot_info *bi)
{
	struct boot_var *v = &bi->prev_ckpt;

	read_var(BOOT_CKPT_VAR, &ck_vendor_guid, v->data, sizeof(v->data), &v->state, &v->len,
		 &v->err);
}

/* EFI_GLOBAL_VARIABLE (UEFI spec, "Globally Defined Variables"). */
static EFI_GUID global_guid = {
	0x8be4df61, 0x93ca, 0x11d2, { 0xaa, 0x0d, 0x00, 0xe0, 0x98, 0x03, 0x2b, 0x8c }
};

static void read_flag(const char *name, struct boot_flag_var *v)
{
	read_var(name, &global_guid, v->data, sizeof(v->data), &v->state, &v->len, &v->err);
}

void efi_read_secure_boot(struct boot_info *bi)
{
	read_flag("SecureBoot", &bi->secure_boot);
	read_flag("SetupMode", &bi->setup_mode);
}

void efi_runtime_init(EFI_RUNTIME_SERVICES *rt, struct boot_info *bi)
{
	runtime = rt;
	bi->fw_reset = efi_reset;
	bi->fw_set_var = efi_set_var;
	bi->fw_get_time = efi_get_time;
}
