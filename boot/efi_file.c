// SPDX-License-Identifier: GPL-2.0-only
/*
 * efi_file.c - read a small file that sits beside the loaded image on its file system.
 * Used for the default command-line file; only called before ExitBootServices.
 */
#include <efi.h>
#include <efilib.h>

#include "boot/efi_glue.h"

#define PATH_MAX_CHARS	256

/* Collect the file-path nodes of the image's device path: "\EFI\BOOT\BOOTX64.EFI". */
static UINTN image_dir(EFI_DEVICE_PATH *dp, CHAR16 *out, UINTN max)
{
	UINTN n = 0, i, last_sep = 0;

	for (; dp && !IsDevicePathEnd(dp); dp = NextDevicePathNode(dp)) {
		FILEPATH_DEVICE_PATH *fp = (FILEPATH_DEVICE_PATH *)dp;
		UINTN chars;

		if (DevicePathType(dp) != MEDIA_DEVICE_PATH ||
		    DevicePathSubType(dp) != MEDIA_FILEPATH_DP)
			continue;
		chars = (DevicePathNodeLength(dp) - 4) / sizeof(CHAR16);
		if (n && out[n - 1] != L'\\' && n + 1 < max)
			out[n++] = L'\\';
		for (i = 0; i < chars && fp->PathName[i] && n + 1 < max; i++)
			out[n++] = fp->PathName[i];
	}
	for (i = 0; i < n; i++)
		if (out[i] == L'\\' || out[i] == L'/')
			last_sep = i + 1;
	out[last_sep] = L'\0';
	return last_sep;
}

BOOLEAN efi_read_file_beside_image(EFI_LOADED_IMAGE *li, const CHAR16 *name, char *buf,
				   UINTN bufsz, UINTN *lenp)
{
	CHAR16 path[PATH_MAX_CHARS];
	EFI_FILE_HANDLE root, f;
	UINTN len, i, n;
	EFI_STATUS st;

	buf[0] = '\0';
	*lenp = 0;
	root = LibOpenRoot(li->DeviceHandle);
	if (!root)
		return FALSE;
	n = image_dir(li->FilePath, path, PATH_MAX_CHARS);
	if (n == 0)
		path[n++] = L'\\';
	for (i = 0; name[i] && n + 1 < PATH_MAX_CHARS; i++)
		path[n++] = name[i];
	path[n] = L'\0';

	st = uefi_call_wrapper(root->Open, 5, root, &f, path, EFI_FILE_MODE_READ, 0ULL);
	if (EFI_ERROR(st)) {
		uefi_call_wrapper(root->Close, 1, root);
		return FALSE;
	}
	len = bufsz - 1;
	st = uefi_call_wrapper(f->Read, 3, f, &len, buf);
	uefi_call_wrapper(f->Close, 1, f);
	uefi_call_wrapper(root->Close, 1, root);
	if (EFI_ERROR(st))
		len = 0;
	buf[len] = '\0';
	*lenp = len;
	return !EFI_ERROR(st);
}
