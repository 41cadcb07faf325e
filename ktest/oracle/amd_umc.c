// SPDX-License-Identifier: GPL-2.0-only
/*
 * The model of Linux's naming of a DRAM error from an SMCA UMC bank, and of rasdaemon's
 * labels database, written as plain steps from reading the sources (ktest/oracle/NOTES.md,
 * "AMD UMC DRAM errors and rasdaemon labels"). Nothing here is shared with mce/.
 */
#include "ktest/oracle/amd_umc.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void lx_umc_decode(uint64_t status, uint64_t ipid, uint64_t synd, unsigned int cpu_node,
		   bool cpu_smca, struct lx_umc_out *out)
{
	uint32_t ipid_hi = (uint32_t)(ipid >> 32);
	uint32_t hwid = ipid_hi & 0xfff;		/* amd.c: high & MCI_IPID_HWID */
	uint32_t mcatype = (ipid_hi >> 16) & 0xffff;	/* (high & MCI_IPID_MCATYPE) >> 16 */
	unsigned int xec = (unsigned int)((status >> 16) & 0x3f);	/* SMCA xec_mask 0x3f */

	*out = (struct lx_umc_out){ .node = cpu_node };
	if (!cpu_smca) {
		out->path = LX_UMC_NOT_SMCA;
		return;
	}
	if (hwid != 0x96) {
		out->path = LX_UMC_OTHER_BANK;
		return;
	}
	if (mcatype == 1) {
		out->path = LX_UMC_GPU_BANK;
		return;
	}
	if (mcatype != 0) {
		out->path = LX_UMC_OTHER_BANK;	/* no SMCA type has HWID 0x96 with another type */
		return;
	}
	if (xec != 0) {
		out->path = LX_UMC_NOT_ECC;
		return;
	}
	/* decode_umc_error(): bits 46..45 give the ECC type; Deferred overrides it. */
	out->ecc_type = (int)((status >> 45) & 3);
	if (status & (1ULL << 44))
		out->ecc_type = 3;
	if (!(status & (1ULL << 53))) {
		out->path = LX_UMC_NO_SYND;
		return;
	}
	if (out->ecc_type == 2 && ((synd >> 18) & 0x3f) == 0)
		out->syndrome_len_zero = true;
	out->channel = (unsigned int)((ipid & 0xffffffffULL) >> 20);
	out->csrow = (unsigned int)(synd & 7);
	out->dimm = out->csrow / 2;
	out->rank = out->csrow % 2;
	out->path = LX_UMC_DECODED;
}

/* ---- rasdaemon's labels ------------------------------------------------------------- */

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Trim [*b, *e) of blanks on both sides. */
static void trim(const char **b, const char **e)
{
	while (*b < *e && blank(**b))
		(*b)++;
	while (*e > *b && blank((*e)[-1]))
		(*e)--;
}

/* Whether [b, e) starts with @key (any case) then optional blanks and ':'; *rest after it. */
static bool keyword(const char *b, const char *e, const char *key, const char **rest)
{
	while (*key) {
		if (b == e || lower(*b) != *key)
			return false;
		b++, key++;
	}
	while (b < e && blank(*b))
		b++;
	if (b == e || *b != ':')
		return false;
	*rest = b + 1;
	return true;
}

/* [b, e) equal to @s ignoring case and outer blanks. */
static bool same(const char *b, const char *e, const char *s)
{
	const char *se;

	trim(&b, &e);
	se = s + 0;
	while (*se)
		se++;
	trim(&s, &se);
	if (e - b != se - s)
		return false;
	for (; b < e; b++, s++)
		if (lower(*b) != lower(*s))
			return false;
	return true;
}

/* Whether the comma/semicolon separated list [b, e) names @name. */
static bool list_has(const char *b, const char *e, const char *name)
{
	const char *p = b;

	for (const char *q = b; q <= e; q++) {
		if (q == e || *q == ',' || *q == ';') {
			if (same(p, q, name))
				return true;
			p = q + 1;
		}
	}
	return false;
}

struct lx_scan {
	bool have_vendor, vendor_ok, have_board, board_ok;
	int layers;			/* numbers per location in this board's section, 0: none yet */
	bool found;
};

/*
 * One location "a.b[.c[.d]]": the count of numbers, or -1 when it is not one. @v gets the
 * first three (mc, row, channel).
 */
static int location(const char *b, const char *e, unsigned long v[4])
{
	int n = 0;

	while (b < e) {
		unsigned long x = 0;
		const char *s = b;

		while (b < e && *b >= '0' && *b <= '9') {
			x = x * 10 + (unsigned long)(*b - '0');
			if (x > 65535)
				return -1;
			b++;
		}
		if (b == s || n == 4)
			return -1;
		v[n++] = x;
		if (b < e) {
			if (*b != '.')
				return -1;
			b++;
			if (b == e)
				return -1;
		}
	}
	return n >= 2 ? n : -1;
}

/* One "label: loc, loc" entry; false when it breaks a rule. */
static bool entry(const char *b, const char *e, struct lx_scan *st, unsigned int mc,
		  unsigned int row, unsigned int ch, char *label, size_t size)
{
	const char *colon = b, *lb = b, *le;
	unsigned int count = 0;

	while (colon < e && *colon != ':')
		colon++;
	if (colon == e)
		return false;
	le = colon;
	trim(&lb, &le);
	if (lb == le)
		return false;
	for (const char *p = colon + 1, *q = colon + 1; q <= e; q++) {
		unsigned long v[4];
		int n;

		if (q < e && *q != ',' && !blank(*q))
			continue;
		if (q == p) {
			p = q + 1;
			continue;
		}
		n = location(p, q, v);
		if (n < 0 || (st->layers && st->layers != n))
			return false;
		st->layers = n;
		count++;
		if (st->vendor_ok && st->board_ok && n == 3 && v[0] == mc && v[1] == row &&
		    v[2] == ch) {
			size_t k = 0;

			for (const char *c = lb; c < le && k + 1 < size; c++)
				label[k++] = *c;
			label[k] = '\0';
			st->found = true;
		}
		p = q + 1;
	}
	return count != 0;
}

int lx_labels_lookup(const char *text, size_t len, const char *vendor, const char *model,
		     unsigned int mc, unsigned int row, unsigned int channel, char *label,
		     size_t label_size, unsigned int *bad_line)
{
	struct lx_scan st = { 0 };
	const char *p = text, *end = text + len;
	unsigned int line = 0;

	while (p < end) {
		const char *nl = p, *b = p, *e, *rest;

		while (nl < end && *nl != '\n')
			nl++;
		e = nl;
		line++;
		p = nl < end ? nl + 1 : nl;
		trim(&b, &e);
		if (b == e || *b == '#')
			continue;
		if (keyword(b, e, "vendor", &rest)) {
			const char *vb = rest, *ve = e;

			trim(&vb, &ve);
			if (vb == ve)
				goto bad;
			st.have_vendor = true;
			st.vendor_ok = same(vb, ve, vendor);
			st.have_board = st.board_ok = false;
			st.layers = 0;
			continue;
		}
		if (keyword(b, e, "model", &rest) || keyword(b, e, "board", &rest)) {
			if (!st.have_vendor)
				goto bad;
			st.have_board = true;
			st.board_ok = list_has(rest, e, model);
			st.layers = 0;
			continue;
		}
		if (keyword(b, e, "product", &rest)) {
			if (!st.have_vendor)
				goto bad;
			st.have_board = true;
			st.board_ok = false;	/* matched against the system's product: not asked */
			st.layers = 0;
			continue;
		}
		if (!st.have_board)
			goto bad;
		for (const char *s = b, *q = b; q <= e; q++) {
			if (q < e && *q != ';')
				continue;
			{
				const char *sb = s, *se = q;

				trim(&sb, &se);
				if (sb < se && !entry(sb, se, &st, mc, row, channel, label,
						      label_size))
					goto bad;
			}
			s = q + 1;
		}
	}
	return st.found ? 1 : 0;
bad:
	*bad_line = line;
	return -1;
}
