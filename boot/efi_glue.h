/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * efi_glue.h - helpers inside boot/ shared between its files (UEFI types allowed here).
 */
#ifndef CK_EFI_GLUE_H
#define CK_EFI_GLUE_H

#include <efi.h>
#include "kernel/include/boot_info.h"

/*
 * Read the file @name from the directory the image was loaded from into @buf: at most
 * @bufsz - 1 bytes, NUL-terminated, the count in *@len (bytes past a NUL included). Returns
 * FALSE when there is no such file or no file system (PXE boots).
 */
BOOLEAN efi_read_file_beside_image(EFI_LOADED_IMAGE *li, const CHAR16 *name, char *buf,
				   UINTN bufsz, UINTN *len);

/* Keep the runtime-services table and fill in boot_info's firmware callbacks. */
void efi_runtime_init(EFI_RUNTIME_SERVICES *rt, struct boot_info *bi);
/*
 * Copy the soak checkpoint variable (BOOT_CKPT_VAR) into bi->prev_ckpt, with what GetVariable
 * said. Called before ExitBootServices, after efi_runtime_init().
 */
void efi_read_checkpoint(struct boot_info *bi);
/* Copy the UEFI global variables SecureBoot and SetupMode into @bi (same conditions). */
void efi_read_secure_boot(struct boot_info *bi);

#endif
