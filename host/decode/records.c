// SPDX-License-Identifier: GPL-2.0-only
/*
 * records.c - read bank records from the image's report lines and Linux's mce log lines,
 * line by line: a line that opens a record (a bank's STATUS), lines that add to it (ADDR,
 * MISC, SYND, IPID, the node), and the end (the next record, Linux's PROCESSOR line, the
 * end of the text). Each record goes out decoded as one JSON object.
 *
 * The node: the image prints the logging CPU's AMD node ("AMD node N" after IPID/SYND);
 * Linux prints SOCKET, which is the AMD node only where a socket has one node: not on
 * family 17h models 00h-0Fh (Naples, four per socket), where the node stays unknown.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/decode/records.h"
#include "mce/dimm.h"

#define ZEN1_FAMILY	0x17
#define ZEN1_LAST_MODEL	0x0f		/* family 17h models 00h-0Fh: Naples (and Zen 1 desktop) */
#define SIG_FAMILY(s)	(((s) >> 8) & 0xf)
#define SIG_EXT_FAMILY(s) (((s) >> 20) & 0xff)
#define SIG_MODEL(s)	((((s) >> 16) & 0xf) << 4 | (((s) >> 4) & 0xf))
#define BASE_FAMILY_EXT	0xf		/* the base family that says "add the extended one" */

enum rec_src { SRC_NONE, SRC_IMAGE, SRC_LINUX };

struct rec {
	enum rec_src src;
	unsigned int line, cpu, bank;
	uint64_t status, addr, misc, synd, ipid;
	bool have_cpu, have_ipid, have_node;
	unsigned int node;
	const char *node_why;
};

/* The number after @key in @s (hex with @hex, "0x" optional), or false. */
static bool num_after(const char *s, const char *key, bool hex, uint64_t *v)
{
	const char *p = strstr(s, key);
	char *end;

	if (!p)
		return false;
	p += strlen(key);
	if (hex && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if (!(hex ? strchr("0123456789abcdefABCDEF", *p) : strchr("0123456789", *p)) || !*p)
		return false;
	*v = strtoull(p, &end, hex ? 16 : 10);
	return true;
}

static void json_str(char *buf, size_t size, const char *s)
{
	size_t n = 0;

	buf[n++] = '"';
	for (; *s && n + 8 < size; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			n += (size_t)snprintf(buf + n, size - n, "\\%c", c);
		else if (c < 0x20)
			n += (size_t)snprintf(buf + n, size - n, "\\u%04x", c);
		else
			buf[n++] = (char)c;
	}
	buf[n++] = '"';
	buf[n] = '\0';
}

static void emit(struct rec_reader *r, struct rec *c)
{
	struct dimm_bank b = { .status = c->status, .addr = c->addr, .misc = c->misc,
			       .synd = c->synd, .ipid = c->ipid, .node = c->node,
			       .smca = c->have_ipid };
	struct dimm_loc l = dimm_decode(&b);
	const char *label = NULL, *reason = dimm_why_text(l.why);
	char js[768], lab[96], why[200], whyj[420], node[16];

	if (l.why == DIMM_NOT_SMCA)
		reason = c->src == SRC_LINUX ? "no IPID in the record: not an SMCA CPU (or IPID 0)"
					     : "no IPID line: not an SMCA CPU";
	if (l.why == DIMM_KNOWN && r->labels && c->have_node)
		label = dimm_labels_find(r->labels, c->node, l.cs, l.umc);
	snprintf(node, sizeof(node), c->have_node ? "%u" : "null", c->node);
	json_str(lab, sizeof(lab), label ? label : "");
	if (l.why == DIMM_KNOWN && !c->have_node)
		snprintf(why, sizeof(why), "decoded; node unknown: %s", c->node_why);
	else if (l.why == DIMM_KNOWN && r->labels && !label)
		snprintf(why, sizeof(why), "decoded; no label for %s.%u.%u in the labels file",
			 node, l.cs, l.umc);
	else
		snprintf(why, sizeof(why), "%s", reason);
	json_str(whyj, sizeof(whyj), why);
	if (l.why == DIMM_KNOWN)
		snprintf(js, sizeof(js), "{\"line\":%u,\"source\":\"%s\",\"cpu\":%u,\"bank\":%u,"
			 "\"status\":\"0x%016" PRIx64 "\",\"node\":%s,\"umc\":%u,\"cs\":%u,"
			 "\"dimm\":%u,\"rank\":%u,\"severity\":\"%s\",\"label\":%s,\"reason\":%s}",
			 c->line, c->src == SRC_LINUX ? "linux" : "image", c->cpu, c->bank,
			 c->status, node, l.umc, l.cs, l.dimm, l.rank, dimm_sev_name(l.sev),
			 label ? lab : "null", whyj);
	else
		snprintf(js, sizeof(js), "{\"line\":%u,\"source\":\"%s\",\"cpu\":%u,\"bank\":%u,"
			 "\"status\":\"0x%016" PRIx64 "\",\"node\":%s,\"umc\":null,\"cs\":null,"
			 "\"dimm\":null,\"rank\":null,\"severity\":null,\"label\":null,"
			 "\"reason\":%s}", c->line, c->src == SRC_LINUX ? "linux" : "image",
			 c->cpu, c->bank, c->status, node, whyj);
	r->out(r->ctx, js);
	r->records++;
}

static void flush(struct rec_reader *r, struct rec *c)
{
	if (c->src != SRC_NONE)
		emit(r, c);
	*c = (struct rec){ .src = SRC_NONE };
}

static void bad(struct rec_reader *r, unsigned int line, const char *why)
{
	r->bad(r->ctx, line, why);
	r->bad_lines++;
}

/* Linux's "PROCESSOR v:sig TIME t SOCKET s APIC a ...": the node, then the record ends. */
static void linux_processor(struct rec_reader *r, struct rec *c, const char *s,
			    unsigned int line)
{
	uint64_t sig = 0, sock;
	const char *colon = strstr(s, "PROCESSOR ");

	if (!num_after(s, "SOCKET ", false, &sock)) {
		bad(r, line, "a PROCESSOR line without SOCKET");
		flush(r, c);
		return;
	}
	colon = colon ? strchr(colon, ':') : NULL;
	if (colon)
		sig = strtoull(colon + 1, NULL, 16);
	if (SIG_FAMILY(sig) == BASE_FAMILY_EXT &&
	    SIG_FAMILY(sig) + SIG_EXT_FAMILY(sig) == ZEN1_FAMILY &&
	    SIG_MODEL(sig) <= ZEN1_LAST_MODEL) {
		c->node_why = "family 17h models 00h-0Fh: SOCKET is not the AMD node";
	} else {
		c->node = (unsigned int)sock;
		c->have_node = true;
	}
	flush(r, c);
}

/* A line that adds ADDR, MISC, SYND or IPID to the record open. */
static void add_regs(struct rec *c, const char *s)
{
	uint64_t v;

	if (num_after(s, "ADDR ", true, &v))
		c->addr = v;
	if (num_after(s, "MISC ", true, &v))
		c->misc = v;
	if (num_after(s, "SYND ", true, &v))
		c->synd = v;
	if (num_after(s, "IPID ", true, &v)) {
		c->ipid = v;
		c->have_ipid = true;
	}
	if (num_after(s, "AMD node ", false, &v)) {
		c->node = (unsigned int)v;
		c->have_node = true;
	}
}

/* A record opens: the bank's STATUS after @key. */
static void open_rec(struct rec_reader *r, struct rec *c, enum rec_src src, unsigned int line,
		     uint64_t cpu, uint64_t bank, const char *s, const char *key)
{
	uint64_t st;

	flush(r, c);
	if (!num_after(s, key, true, &st)) {
		bad(r, line, "a bank line without a hexadecimal STATUS");
		return;
	}
	*c = (struct rec){ .src = src, .line = line, .cpu = (unsigned int)cpu,
			   .bank = (unsigned int)bank, .status = st,
			   .node_why = src == SRC_LINUX ? "no SOCKET line" :
				       "no \"AMD node\" in the IPID line" };
}

static void one_line(struct rec_reader *r, struct rec *c, const char *s, unsigned int line)
{
	uint64_t cpu, bank;
	const char *p;

	if ((p = strstr(s, ": Machine Check"))) {
		if (!num_after(s, "CPU ", false, &cpu) || !num_after(p, "Bank ", false, &bank) ||
		    !strstr(p, "Bank ") || !strchr(strstr(p, "Bank "), ':')) {
			flush(r, c);
			bad(r, line, "a Machine Check line without CPU n and Bank b: <status>");
			return;
		}
		open_rec(r, c, SRC_LINUX, line, cpu, bank, strchr(strstr(p, "Bank "), ':'), ": ");
		return;
	}
	if ((p = strstr(s, "mce-poll: CPU ")) && strstr(s, "STATUS 0x")) {
		if (!num_after(p, "CPU ", false, &cpu) || !num_after(p, ") bank ", false, &bank)) {
			flush(r, c);
			bad(r, line, "an mce-poll line without CPU n and bank b");
			return;
		}
		open_rec(r, c, SRC_IMAGE, line, cpu, bank, p, "STATUS ");
		return;
	}
	if (strstr(s, "mce #") && strstr(s, " at RIP ")) {
		flush(r, c);
		r->mc_cpu = 0;
		return;
	}
	if ((p = strstr(s, "  on CPU ")) && num_after(p, "on CPU ", false, &cpu)) {
		r->mc_cpu = (unsigned int)cpu;
		return;
	}
	if ((p = strstr(s, "  bank ")) && strstr(s, ": STATUS ")) {
		if (!num_after(p, "bank ", false, &bank)) {
			flush(r, c);
			bad(r, line, "a bank line without its number");
			return;
		}
		open_rec(r, c, SRC_IMAGE, line, r->mc_cpu, bank, p, "STATUS ");
		return;
	}
	if (c->src == SRC_LINUX && strstr(s, "PROCESSOR ")) {
		linux_processor(r, c, s, line);
		return;
	}
	if (c->src != SRC_NONE && (strstr(s, "ADDR ") || strstr(s, "IPID ") ||
				   strstr(s, "SYND ") || strstr(s, "MISC ")))
		add_regs(c, s);
}

void rec_read(struct rec_reader *r, const char *text, size_t len)
{
	struct rec c = { .src = SRC_NONE };
	unsigned int line = 0;
	size_t i = 0;

	r->mc_cpu = 0;
	while (i < len) {
		char buf[1024];
		size_t n = 0;

		line++;
		for (; i < len && text[i] != '\n'; i++)
			if (n + 1 < sizeof(buf))
				buf[n++] = text[i] ? text[i] : ' ';
		i++;
		buf[n] = '\0';
		one_line(r, &c, buf, line);
	}
	flush(r, &c);
}
