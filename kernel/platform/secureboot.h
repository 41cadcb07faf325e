/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * secureboot.h - whether UEFI Secure Boot was on for this run, from the firmware's SecureBoot
 * and SetupMode variables as boot/ read them (struct boot_flag_var). The UEFI specification
 * defines both as one byte, 0 or 1, every other value reserved: SecureBoot 1 means the
 * firmware checks every image it starts against its signature databases, so this image
 * passed that check; SetupMode 1 means no platform key is enrolled (nothing is enforced).
 * The reading is plain C, tested on the host; the header line, the summary's JSON and the
 * benchmark's machine record print it.
 */
#ifndef CK_SECUREBOOT_H
#define CK_SECUREBOOT_H

#include "kernel/include/boot_info.h"
#include "kernel/lib/json.h"

enum sb_mode {
	SB_NOT_REPORTED,	/* SecureBoot absent or not read, SetupMode not 1 */
	SB_OFF,			/* SecureBoot 0, SetupMode not 1 */
	SB_ON,			/* SecureBoot 1, SetupMode not 1: signatures enforced */
	SB_SETUP,		/* SetupMode 1, SecureBoot not 1: no platform key */
	SB_UNKNOWN,		/* a reserved value or size, a read error, or both 1 */
};

struct sb_state {
	enum sb_mode mode;
	int secure_boot;	/* the byte, 0 or 1; -1 when not read as such */
	int setup_mode;		/* likewise */
};

/* What the pair of variables says. */
void sb_classify(const struct boot_flag_var *secure_boot, const struct boot_flag_var *setup_mode,
		 struct sb_state *out);
/*
 * "on (enforcing)", "off", "off (setup mode: no platform key enrolled)", "not reported by
 * firmware", "unknown". Setup mode is off too: nothing is enforced without a platform key
 * (QEMU's default OVMF boots so).
 */
const char *sb_mode_text(enum sb_mode mode);
/* The JSON word: "on", "off", "setup", "not_reported", "unknown". */
const char *sb_mode_word(enum sb_mode mode);
/* How one variable was found: "1", "absent", "not read", "9 bytes", "error 14", ... */
void sb_var_text(char *buf, size_t size, const struct boot_flag_var *v);

/*
 * The object @key of a JSON record: {"mode": sb_mode_word(), "enforced": whether the firmware
 * checked this image's signature (mode on), "secure_boot" and "setup_mode": the bytes, or
 * null when not read as 0 or 1}.
 */
void sb_json(struct json_writer *w, const char *key, const struct sb_state *s);

/* Kernel: keep @bi's reading for the run, then read it back. */
void secure_boot_init(const struct boot_info *bi);
const struct sb_state *secure_boot(void);

#endif
