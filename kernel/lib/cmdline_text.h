/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmdline_text.h - turn what the firmware hands over into one command line of printable
 * ASCII: the UCS-2 LoadOptions of the UEFI shell or iPXE, or the bytes of copykernel.cmdline
 * (lines joined, lines starting with '#' dropped as comments).
 *
 * Nothing is lost silently: a line cut at the length limit, a file cut at a NUL byte or at the
 * read limit, and every non-ASCII byte or character (replaced by '?', so the parser names the
 * word that holds it) leave a note with the byte offset, counted as an error; the kernel
 * prints the notes after the takeover and the run ends with the bad-command-line status.
 * LoadOptions that are not text at all (binary data some boot entries pass) leave a note that
 * is not an error, and the caller falls back to the file. Plain C, host-tested and fuzzed.
 */
#ifndef CK_CMDLINE_TEXT_H
#define CK_CMDLINE_TEXT_H

#include "kernel/include/boot_info.h"

/*
 * @in holds @len bytes of the file as read; @more: the file had more bytes than were read.
 * Writes at most @size - 1 characters and a NUL to @out; returns the length written.
 */
size_t cmdline_from_file(const u8 *in, size_t len, bool more, char *out, size_t size,
			 struct boot_notes *notes);

/*
 * @in holds @chars UCS-2 characters (LoadOptions, possibly NUL-terminated early). Returns
 * the length written, or -1 when the options are not text (a note says why; @out is empty).
 */
long cmdline_from_ucs2(const u16 *in, size_t chars, char *out, size_t size,
		       struct boot_notes *notes);

/* Add a note (at most BOOT_NOTES_MAX are kept; the rest are counted). */
void boot_note(struct boot_notes *notes, bool error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
