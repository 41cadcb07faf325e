// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_secureboot.c - what the firmware's SecureBoot and SetupMode variables say about a run.
 * The expectations are written by hand from the UEFI specification's definitions (both one
 * byte; SecureBoot 1: image signatures enforced, 0: not; SetupMode 1: no platform key, 0:
 * user mode; other values reserved; SecureBoot is 0 whenever SetupMode is 1), not from
 * secureboot.c: every state GetVariable can leave, each with its header words, JSON word and
 * the bytes as JSON.
 */
#include "kernel/platform/secureboot.h"
#include "tests/host/host_test.h"

enum { NR = BOOT_VAR_NOT_READ, ABS = BOOT_VAR_ABSENT, RD = BOOT_VAR_READ,
       BIG = BOOT_VAR_TOO_BIG, ERR = BOOT_VAR_ERROR };

struct var_spec {
	int state;
	unsigned int len;
	u8 byte;
};

static const struct {
	struct var_spec sb, setup;
	const char *text, *word;
	int sb_value, setup_value;
} cases[] = {
	/* User mode, enforcing: the one state in which the firmware checked this image. */
	{ { RD, 1, 1 }, { RD, 1, 0 }, "on (enforcing)", "on", 1, 0 },
	{ { RD, 1, 1 }, { ABS, 0, 0 }, "on (enforcing)", "on", 1, -1 },
	/* User mode, not enforcing (e.g. switched off in the firmware's menu). */
	{ { RD, 1, 0 }, { RD, 1, 0 }, "off", "off", 0, 0 },
	{ { RD, 1, 0 }, { NR, 0, 0 }, "off", "off", 0, -1 },
	/* Setup mode: QEMU's default OVMF, a server whose keys were cleared. */
	{ { RD, 1, 0 }, { RD, 1, 1 }, "off (setup mode: no platform key enrolled)", "setup", 0, 1 },
	{ { ABS, 0, 0 }, { RD, 1, 1 }, "off (setup mode: no platform key enrolled)", "setup",
	  -1, 1 },
	/* Firmware without the variables (pre-2.3.1 UEFI), or none asked. */
	{ { ABS, 0, 0 }, { ABS, 0, 0 }, "not reported by firmware", "not_reported", -1, -1 },
	{ { ABS, 0, 0 }, { RD, 1, 0 }, "not reported by firmware", "not_reported", -1, 0 },
	{ { NR, 0, 0 }, { NR, 0, 0 }, "not reported by firmware", "not_reported", -1, -1 },
	/* What the specification rules out, and reads that failed: never a guess. */
	{ { RD, 1, 1 }, { RD, 1, 1 }, "unknown", "unknown", 1, 1 },
	{ { RD, 1, 2 }, { RD, 1, 0 }, "unknown", "unknown", -1, 0 },
	{ { RD, 4, 1 }, { RD, 1, 0 }, "unknown", "unknown", -1, 0 },
	{ { BIG, 9, 0 }, { RD, 1, 0 }, "unknown", "unknown", -1, 0 },
	{ { ERR, 0, 0 }, { RD, 1, 0 }, "unknown", "unknown", -1, 0 },
	{ { RD, 1, 1 }, { RD, 1, 0xff }, "unknown", "unknown", 1, -1 },
	{ { RD, 1, 0 }, { ERR, 0, 0 }, "unknown", "unknown", 0, -1 },
	{ { RD, 1, 1 }, { BIG, 2, 0 }, "unknown", "unknown", 1, -1 },
};

static void fill(struct boot_flag_var *v, const struct var_spec *s)
{
	memset(v, 0x5a, sizeof(*v));	/* what GetVariable left beyond len is not read */
	v->state = (u32)s->state;
	v->len = s->len;
	v->err = s->state == ERR ? 14 : 0;
	v->data[0] = s->byte;
	if (s->len > 1)
		memset(v->data + 1, 0, s->len - 1 < 7 ? s->len - 1 : 7);
}

static void test_modes(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct boot_flag_var sb, setup;
		struct sb_state st;

		fill(&sb, &cases[i].sb);
		fill(&setup, &cases[i].setup);
		sb_classify(&sb, &setup, &st);
		CHECK(strcmp(sb_mode_text(st.mode), cases[i].text) == 0, "case %zu: '%s', want '%s'",
		      i, sb_mode_text(st.mode), cases[i].text);
		CHECK(strcmp(sb_mode_word(st.mode), cases[i].word) == 0, "case %zu: '%s', want '%s'",
		      i, sb_mode_word(st.mode), cases[i].word);
		CHECK(st.secure_boot == cases[i].sb_value && st.setup_mode == cases[i].setup_value,
		      "case %zu: values %d %d, want %d %d", i, st.secure_boot, st.setup_mode,
		      cases[i].sb_value, cases[i].setup_value);
	}
}

static void test_var_text(void)
{
	static const struct {
		struct var_spec v;
		const char *want;
	} t[] = {
		{ { RD, 1, 1 }, "1" }, { { RD, 1, 0 }, "0" }, { { RD, 1, 2 }, "2" },
		{ { RD, 4, 1 }, "4 bytes" }, { { BIG, 9, 0 }, "9 bytes" },
		{ { ABS, 0, 0 }, "absent" }, { { NR, 0, 0 }, "not read" },
		{ { ERR, 0, 0 }, "error 14" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct boot_flag_var v;
		char buf[24];

		fill(&v, &t[i].v);
		sb_var_text(buf, sizeof(buf), &v);
		CHECK(strcmp(buf, t[i].want) == 0, "case %zu: '%s', want '%s'", i, buf, t[i].want);
	}
}

static void json_of(const struct var_spec *sb, const struct var_spec *setup, char *buf,
		    size_t size)
{
	struct boot_flag_var a, b;
	struct json_writer w;
	struct sb_state st;

	fill(&a, sb);
	fill(&b, setup);
	sb_classify(&a, &b, &st);
	json_record(&w, buf, size, NULL);
	sb_json(&w, "secure_boot", &st);
	json_end(&w);
}

static void test_json(void)
{
	static const struct var_spec one = { RD, 1, 1 }, zero = { RD, 1, 0 }, absent = { ABS, 0, 0 };
	char buf[200];

	json_of(&one, &zero, buf, sizeof(buf));
	CHECK(strcmp(buf, "{\"schema\":1,\"secure_boot\":{\"mode\":\"on\",\"enforced\":true,"
		      "\"secure_boot\":1,\"setup_mode\":0}}") == 0, "%s", buf);
	json_of(&zero, &one, buf, sizeof(buf));
	CHECK(strcmp(buf, "{\"schema\":1,\"secure_boot\":{\"mode\":\"setup\",\"enforced\":false,"
		      "\"secure_boot\":0,\"setup_mode\":1}}") == 0, "%s", buf);
	json_of(&absent, &absent, buf, sizeof(buf));
	CHECK(strcmp(buf, "{\"schema\":1,\"secure_boot\":{\"mode\":\"not_reported\","
		      "\"enforced\":false,\"secure_boot\":null,\"setup_mode\":null}}") == 0, "%s",
	      buf);
}

int main(void)
{
	return RUN_TESTS(test_modes, test_var_text, test_json);
}
