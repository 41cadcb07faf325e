/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmdline_text.h - turn what the firmware hands over into one command line of printable
 * ASCII: the LoadOptions of the UEFI shell, iPXE or a boot entry, or the bytes of
 * copykernel.cmdline (lines joined, lines starting with '#' dropped as comments). boot/ hands
 * the bytes over as they are; every rule about them is here.
 *
 * Encodings, the same for both sources. A byte-order mark says what follows: EF BB BF
 * (UTF-8) is dropped; FF FE and FE FF (UTF-16LE, UTF-16BE: a UEFI shell script's own
 * encoding) are decoded, two bytes a character. Without a mark, the file is bytes and
 * LoadOptions are UCS-2 (little-endian, as UEFI passes them), unless they are plainly 8-bit
 * ASCII (what efibootmgr writes without -u). CR LF ends a line as LF does.
 *
 * Nothing is lost silently: a line cut at the length limit, a file cut at the read limit, a
 * NUL with more text after it (NULs that only pad the end are no error), half a UTF-16
 * character at the end, and every character that is not printable ASCII (replaced by '?', so
 * the parser names the word that holds it) leave a note with the byte offset, counted as an
 * error; the kernel prints the notes after the takeover and the run's verdict is ERROR.
 * Unmarked LoadOptions with a control character before their first NUL are not text at all
 * (the binary data some boot entries pass): a note that is not an error, and the caller
 * falls back to the file. Plain C, host-tested and fuzzed.
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
 * @in holds the @len bytes of LoadOptions (LoadOptionsSize, possibly odd, possibly with a
 * NUL terminator and padding). Returns the length written, or -1 when the options are not
 * text (a note says why; @out is empty).
 */
long cmdline_from_options(const u8 *in, size_t len, char *out, size_t size,
			  struct boot_notes *notes);

/* Add a note (at most BOOT_NOTES_MAX are kept; the rest are counted). */
void boot_note(struct boot_notes *notes, bool error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
