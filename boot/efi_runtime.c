// SPDX-License-Identifier: GPL-2.0-only
/*
 * efi_runtime.c - the UEFI runtime services the kernel may use after ExitBootServices,
 * behind the neutral callbacks of struct boot_info. No SetVirtualAddressMap is ever called:
 * the kernel's page tables map runtime regions 1:1, so the physical pointers stay valid.
 */
#include <efi.h>
#include <efilib.h>

#include "boot/efi_glue.h"

static EFI_RUNTIME_SERVICES *runtime;

static void efi_reset(enum fw_reset_kind kind)
{
	EFI_RESET_TYPE type = kind == FW_RESET_SHUTDOWN ? EfiResetShutdown : EfiResetCold;

	uefi_call_wrapper(runtime->ResetSystem, 4, type, EFI_SUCCESS, 0, NULL);
}

void efi_runtime_init(EFI_RUNTIME_SERVICES *rt, struct boot_info *bi)
{
	runtime = rt;
	bi->fw_reset = efi_reset;
}
