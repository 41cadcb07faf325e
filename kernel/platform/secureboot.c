// SPDX-License-Identifier: GPL-2.0-only
/*
 * secureboot.c - the Secure Boot state of the run from the SecureBoot and SetupMode variables
 * boot/ copied (secureboot.h says what each value means). Plain C: the host tests it.
 */
#include "kernel/platform/secureboot.h"
#include "kernel/lib/format.h"

/* The variable's byte when the firmware gave exactly one byte, 0 or 1; else -1. */
static int flag_value(const struct boot_flag_var *v)
{
	if (v->state != BOOT_VAR_READ || v->len != 1 || v->data[0] > 1)
		return -1;
	return v->data[0];
}

/* The firmware gave no such variable (or boot/ could not ask). */
static bool flag_missing(const struct boot_flag_var *v)
{
	return v->state == BOOT_VAR_ABSENT || v->state == BOOT_VAR_NOT_READ;
}

void sb_classify(const struct boot_flag_var *secure_boot, const struct boot_flag_var *setup_mode,
		 struct sb_state *out)
{
	int sb = flag_value(secure_boot), setup = flag_value(setup_mode);
	bool setup_ok = setup >= 0 || flag_missing(setup_mode);

	out->secure_boot = sb;
	out->setup_mode = setup;
	if (!setup_ok || (sb < 0 && !flag_missing(secure_boot)) || (sb == 1 && setup == 1))
		out->mode = SB_UNKNOWN;
	else if (setup == 1)
		out->mode = SB_SETUP;
	else if (sb == 1)
		out->mode = SB_ON;
	else if (sb == 0)
		out->mode = SB_OFF;
	else
		out->mode = SB_NOT_REPORTED;
}

const char *sb_mode_text(enum sb_mode mode)
{
	switch (mode) {
	case SB_OFF:		return "off";
	case SB_ON:		return "on (enforcing)";
	case SB_SETUP:		return "off (setup mode: no platform key enrolled)";
	case SB_NOT_REPORTED:	return "not reported by firmware";
	default:		return "unknown";
	}
}

const char *sb_mode_word(enum sb_mode mode)
{
	switch (mode) {
	case SB_OFF:		return "off";
	case SB_ON:		return "on";
	case SB_SETUP:		return "setup";
	case SB_NOT_REPORTED:	return "not_reported";
	default:		return "unknown";
	}
}

void sb_var_text(char *buf, size_t size, const struct boot_flag_var *v)
{
	switch (v->state) {
	case BOOT_VAR_READ:
		if (v->len == 1)
			ck_snprintf(buf, size, "%u", v->data[0]);
		else
			ck_snprintf(buf, size, "%u bytes", v->len);
		break;
	case BOOT_VAR_ABSENT:
		ck_snprintf(buf, size, "absent");
		break;
	case BOOT_VAR_TOO_BIG:
		ck_snprintf(buf, size, "%u bytes", v->len);
		break;
	case BOOT_VAR_ERROR:
		ck_snprintf(buf, size, "error %u", v->err);
		break;
	default:
		ck_snprintf(buf, size, "not read");
		break;
	}
}

void sb_json(struct json_writer *w, const char *key, const struct sb_state *s)
{
	json_obj_begin(w, key);
	json_str(w, "mode", sb_mode_word(s->mode));
	json_bool(w, "enforced", s->mode == SB_ON);
	json_u64_or_null(w, "secure_boot", s->secure_boot >= 0, (u64)s->secure_boot);
	json_u64_or_null(w, "setup_mode", s->setup_mode >= 0, (u64)s->setup_mode);
	json_obj_end(w);
}

static struct sb_state run_state;	/* written once, before any other CPU starts */

void secure_boot_init(const struct boot_info *bi)
{
	sb_classify(&bi->secure_boot, &bi->setup_mode, &run_state);
}

const struct sb_state *secure_boot(void)
{
	return &run_state;
}
