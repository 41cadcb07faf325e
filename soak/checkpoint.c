// SPDX-License-Identifier: GPL-2.0-only
/*
 * checkpoint.c - the soak's checkpoint record: build, encode, decode, describe (checkpoint.h).
 */
#include "kernel/include/unaligned.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "soak/checkpoint.h"

static const char magic[4] = { 'C', 'K', 'S', 'K' };

u32 soak_crc32(const void *p, size_t len)
{
	const u8 *b = p;
	u32 crc = ~0u;

	while (len--) {
		crc ^= *b++;
		for (int i = 0; i < 8; i++)
			crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
	}
	return ~crc;
}

static size_t name_len(const char *s)
{
	size_t n = 0;

	while (n < SOAK_CKPT_NAME && s[n])
		n++;
	return n;
}

static u32 sat32(u64 v)
{
	return v > ~0u ? ~0u : (u32)v;
}

/* How bad a bucket is, for choosing which go into the record. */
static u64 severity(const struct soak_bucket *b)
{
	u64 bad = (u64)b->count[SOAK_EV_UC_RECOVERED] + b->count[SOAK_EV_DEFERRED] +
		  b->count[SOAK_EV_MISCOMPARE] + b->count[SOAK_EV_RETIRED_PAGE];

	return (bad << 32) | b->count[SOAK_EV_CORRECTED];
}

static void take_bucket(struct soak_ckpt_bucket *to, const struct soak_bucket *b,
			const struct soak_where_map *map)
{
	char name[2 * SMBIOS_NAME_MAX + 2] = "";

	const char *label = NULL;

	to->type = (u8)b->type;
	to->node = b->node;
	to->dimm = b->type == SOAK_BUCKET_DIMM ? b->dimm : 0;
	to->base = b->type == SOAK_BUCKET_RANGE ? b->base : 0;
	to->size = b->type == SOAK_BUCKET_RANGE ? b->size : 0;
	to->umc_node = b->type == SOAK_BUCKET_UMC ? b->umc_node : 0;
	to->cs = b->type == SOAK_BUCKET_UMC ? (u8)(2 * b->umc_dimm + b->umc_rank) : 0;
	to->umc = b->type == SOAK_BUCKET_UMC ? b->umc : 0;
	if (!soak_bucket_has_node(b->type))
		to->node = 0;
	memcpy(to->count, b->count, sizeof(to->count));
	if (b->type == SOAK_BUCKET_DIMM && map && map->dimms)
		smbios_dimm_name(map->dimms, b->dimm, name, sizeof(name));
	if (b->type == SOAK_BUCKET_UMC && map && map->dimm_label && b->umc_node != SOAK_NO_NODE)
		label = map->dimm_label(b->umc_node, to->cs, b->umc);
	/* A label is printable ASCII (dimm_labels.c); what does not fit is cut. */
	for (size_t i = 0; label && label[i] && i < sizeof(name) - 1; i++)
		name[i] = label[i] >= 0x20 && label[i] < 0x7f ? label[i] : '?';
	memset(to->name, 0, sizeof(to->name));
	memcpy(to->name, name, name_len(name));
}

void soak_ckpt_from(struct soak_ckpt *c, const struct soak_totals *t,
		    const struct soak_verdict *v, const struct soak_event *first,
		    const struct soak_where_map *map, bool final)
{
	bool taken[SOAK_MAX_BUCKETS] = { false };

	memset(c, 0, sizeof(*c));
	c->version = SOAK_CKPT_VERSION;
	c->flags = (final ? SOAK_CKPT_FINAL : 0) | (v->pass ? 0 : SOAK_CKPT_FAILING) |
		   (t->not_stored ? SOAK_CKPT_NOT_STORED : 0);
	c->rule = v->pass || v->rule < 0 ? SOAK_CKPT_NONE : (u8)v->rule;
	c->cpus = (u16)MIN(t->cpus, 0xffffu);
	c->passes = t->passes;
	c->seed = t->seed;
	c->elapsed_ns = t->elapsed_ns;
	c->bytes_verified = t->bytes_verified;
	c->bytes_per_pass = t->bytes_per_pass;
	for (int k = 0; k < NR_SOAK_EV; k++)
		c->count[k] = sat32(t->count[k]);
	c->not_stored = sat32(t->not_stored);
	c->first.kind = SOAK_CKPT_NONE;
	if (first) {
		c->first.kind = first->kind;
		c->first.cpu = first->cpu;
		c->first.phys = first->flags & SOAK_EVF_PHYS ? first->phys : 0;
		c->first.t_ns = first->t_ns;
	}
	while (c->nr_buckets < SOAK_CKPT_BUCKETS) {
		int best = -1;

		for (unsigned int i = 0; i < t->nr_buckets; i++)
			if (!taken[i] && (best < 0 || severity(&t->bucket[i]) >
						      severity(&t->bucket[best])))
				best = (int)i;
		if (best < 0)
			break;
		taken[best] = true;
		take_bucket(&c->bucket[c->nr_buckets++], &t->bucket[best], map);
	}
}

static bool misc_before(u64 t_ns, u16 cpu, const struct soak_ckpt_misc *m)
{
	return t_ns != m->t_ns ? t_ns < m->t_ns : cpu < m->cpu;
}

void soak_ckpt_add_miscompare(struct soak_ckpt *c, const struct soak_event *e)
{
	unsigned int at = c->nr_misc;

	if (e->kind != SOAK_EV_MISCOMPARE)
		return;
	while (at > 0 && misc_before(e->t_ns, e->cpu, &c->misc[at - 1]))
		at--;
	if (at >= SOAK_CKPT_MISC)
		return;
	if (c->nr_misc < SOAK_CKPT_MISC)
		c->nr_misc++;
	for (unsigned int i = c->nr_misc - 1; i > at; i--)
		c->misc[i] = c->misc[i - 1];
	c->misc[at] = (struct soak_ckpt_misc){ e->cpu, e->pat, e->phys, e->expected, e->actual,
					       e->t_ns };
}

/* 0: fails a soak, 1: corrected, 2: never of note. */
static int note_rank(const struct soak_event *e)
{
	if (e->kind == SOAK_EV_RETIRED_PAGE || e->kind >= NR_SOAK_EV)
		return 2;
	return e->kind == SOAK_EV_CORRECTED ? 1 : 0;
}

static bool note_before(const struct soak_event *a, const struct soak_event *b)
{
	if (note_rank(a) != note_rank(b))
		return note_rank(a) < note_rank(b);
	if (a->t_ns != b->t_ns)
		return a->t_ns < b->t_ns;
	return a->cpu < b->cpu;
}

const struct soak_event *soak_ckpt_note(const struct soak_event *best,
					const struct soak_event *ev, unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++)
		if (note_rank(&ev[i]) < 2 && (!best || note_before(&ev[i], best)))
			best = &ev[i];
	return best && note_rank(best) < 2 ? best : NULL;
}

static void put16(u8 *p, u16 v)
{
	p[0] = (u8)v;
	p[1] = (u8)(v >> 8);
}

static void put32(u8 *p, u32 v)
{
	put16(p, (u16)v);
	put16(p + 2, (u16)(v >> 16));
}

static void put64(u8 *p, u64 v)
{
	put32(p, (u32)v);
	put32(p + 4, (u32)(v >> 32));
}

static u16 get16(const u8 *p)
{
	return (u16)(p[0] | p[1] << 8);
}

/* A record's length: version 1 keeps no miscompares. */
static size_t record_len(unsigned int version, unsigned int buckets, unsigned int misc)
{
	return SOAK_CKPT_HEADER + buckets * SOAK_CKPT_BUCKET_LEN +
	       (version == 1 ? 0 : misc * SOAK_CKPT_MISC_LEN) + 4;
}

size_t soak_ckpt_encode(const struct soak_ckpt *c, u8 *buf, size_t size)
{
	u8 version = c->version ? c->version : SOAK_CKPT_VERSION;
	size_t len = record_len(version, c->nr_buckets, c->nr_misc);

	if (c->nr_buckets > SOAK_CKPT_BUCKETS || c->nr_misc > SOAK_CKPT_MISC ||
	    version > SOAK_CKPT_VERSION || (version == 1 && c->nr_misc) || size < len)
		return 0;
	for (unsigned int i = 0; i < c->nr_buckets; i++)
		if (version < 3 && c->bucket[i].type == SOAK_BUCKET_UMC)
			return 0;	/* a UMC bucket needs a version 3 record */
	memset(buf, 0, len);
	memcpy(buf, magic, 4);
	buf[4] = version;
	buf[5] = c->flags;
	put16(buf + 6, (u16)len);
	put64(buf + 8, c->seed);
	put64(buf + 16, c->elapsed_ns);
	put64(buf + 24, c->bytes_verified);
	put64(buf + 32, c->bytes_per_pass);
	put32(buf + 40, c->passes);
	put16(buf + 44, c->cpus);
	buf[46] = c->nr_buckets;
	buf[47] = c->rule;
	for (int k = 0; k < NR_SOAK_EV; k++)
		put32(buf + 48 + 4 * k, c->count[k]);
	put32(buf + 72, c->not_stored);
	buf[80] = c->first.kind;
	buf[81] = c->nr_misc;
	put16(buf + 82, c->first.cpu);
	put64(buf + 88, c->first.phys);
	put64(buf + 96, c->first.t_ns);
	for (unsigned int i = 0; i < c->nr_buckets; i++) {
		const struct soak_ckpt_bucket *b = &c->bucket[i];
		u8 *p = buf + SOAK_CKPT_HEADER + i * SOAK_CKPT_BUCKET_LEN;

		p[0] = b->type;
		p[1] = b->node;
		put16(p + 2, b->dimm);
		p[4] = b->umc_node;
		p[5] = b->cs;
		put16(p + 6, b->umc);
		put64(p + 8, b->base);
		put64(p + 16, b->size);
		for (int k = 0; k < NR_SOAK_EV; k++)
			put32(p + 24 + 4 * k, b->count[k]);
		memcpy(p + 48, b->name, name_len(b->name));
	}
	for (unsigned int i = 0; i < c->nr_misc; i++) {
		const struct soak_ckpt_misc *m = &c->misc[i];
		u8 *p = buf + SOAK_CKPT_HEADER + c->nr_buckets * SOAK_CKPT_BUCKET_LEN +
			i * SOAK_CKPT_MISC_LEN;

		put64(p, m->phys);
		put64(p + 8, m->expected);
		put64(p + 16, m->actual);
		put64(p + 24, m->t_ns);
		put16(p + 32, m->cpu);
		p[34] = m->pat;
	}
	put32(buf + len - 4, soak_crc32(buf, len - 4));
	return len;
}

/* Bytes [from, to) of @p all zero. */
static bool zero(const u8 *p, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (p[i])
			return false;
	return true;
}

bool soak_take_ascii(const u8 *p, size_t size, char *out)
{
	size_t n = 0;

	while (n < size && p[n]) {
		if (p[n] < 0x20 || p[n] >= 0x7f)
			return false;
		out[n] = (char)p[n];
		n++;
	}
	out[n] = '\0';
	return zero(p, n, size);
}

/* A bucket of a version @version record; UMC buckets (type 4) came with version 3. */
static bool decode_bucket(const u8 *p, unsigned int version, struct soak_ckpt_bucket *b)
{
	b->type = p[0];
	b->node = p[1];
	b->dimm = get16(p + 2);
	b->umc_node = p[4];
	b->cs = p[5];
	b->umc = get16(p + 6);
	b->base = get_le64(p + 8);
	b->size = get_le64(p + 16);
	for (int k = 0; k < NR_SOAK_EV; k++)
		b->count[k] = get_le32(p + 24 + 4 * k);
	if (b->type == SOAK_BUCKET_UMC)
		return version >= 3 && b->cs < 8 && !b->dimm &&
		       soak_take_ascii(p + 48, SOAK_CKPT_NAME, b->name);
	return b->type <= SOAK_BUCKET_OTHER && zero(p, 4, 8) &&
	       soak_take_ascii(p + 48, SOAK_CKPT_NAME, b->name);
}

static bool decode_misc(const u8 *p, struct soak_ckpt_misc *m)
{
	m->phys = get_le64(p);
	m->expected = get_le64(p + 8);
	m->actual = get_le64(p + 16);
	m->t_ns = get_le64(p + 24);
	m->cpu = get16(p + 32);
	m->pat = p[34];
	return m->pat < NR_SOAK_PAT && zero(p, 35, SOAK_CKPT_MISC_LEN);
}

int soak_ckpt_decode(const u8 *buf, size_t len, struct soak_ckpt *c, const char **why)
{
	memset(c, 0, sizeof(*c));
	*why = NULL;
	if (len < 8 || memcmp(buf, magic, 4))
		*why = "not a soak checkpoint (no CKSK magic)";
	else if (buf[4] < 1 || buf[4] > SOAK_CKPT_VERSION)
		*why = "a soak checkpoint of another version (this build reads versions 1 to 3)";
	else if (get16(buf + 6) != len || len < SOAK_CKPT_HEADER + 4 ||
		 buf[46] > SOAK_CKPT_BUCKETS || buf[81] > SOAK_CKPT_MISC ||
		 (buf[4] == 1 && buf[81]) || len != record_len(buf[4], buf[46], buf[81]))
		*why = "soak checkpoint: its length does not match its size, bucket or miscompare "
		       "count";
	else if (soak_crc32(buf, len - 4) != get_le32(buf + len - 4))
		*why = "soak checkpoint: bad CRC (a torn or corrupt write)";
	if (*why)
		return -1;
	c->version = buf[4];
	c->flags = buf[5];
	c->seed = get_le64(buf + 8);
	c->elapsed_ns = get_le64(buf + 16);
	c->bytes_verified = get_le64(buf + 24);
	c->bytes_per_pass = get_le64(buf + 32);
	c->passes = get_le32(buf + 40);
	c->cpus = get16(buf + 44);
	c->nr_buckets = buf[46];
	c->rule = buf[47];
	for (int k = 0; k < NR_SOAK_EV; k++)
		c->count[k] = get_le32(buf + 48 + 4 * k);
	c->not_stored = get_le32(buf + 72);
	c->first.kind = buf[80];
	c->nr_misc = buf[81];
	c->first.cpu = get16(buf + 82);
	c->first.phys = get_le64(buf + 88);
	c->first.t_ns = get_le64(buf + 96);
	if ((c->flags & ~(u32)SOAK_CKPT_FLAGS) ||
	    (c->rule != SOAK_CKPT_NONE && c->rule >= soak_nr_rules) ||
	    !zero(buf, 76, 80) || !zero(buf, 84, 88) ||
	    (c->first.kind != SOAK_CKPT_NONE && c->first.kind >= NR_SOAK_EV) ||
	    (c->first.kind == SOAK_CKPT_NONE && !zero(buf, 82, 104)))
		*why = "soak checkpoint: a field out of range";
	for (unsigned int i = 0; !*why && i < c->nr_buckets; i++)
		if (!decode_bucket(buf + SOAK_CKPT_HEADER + i * SOAK_CKPT_BUCKET_LEN, buf[4],
				   &c->bucket[i]))
			*why = "soak checkpoint: a bucket field out of range";
	for (unsigned int i = 0; !*why && i < c->nr_misc; i++)
		if (!decode_misc(buf + SOAK_CKPT_HEADER + c->nr_buckets * SOAK_CKPT_BUCKET_LEN +
				 i * SOAK_CKPT_MISC_LEN, &c->misc[i]))
			*why = "soak checkpoint: a miscompare field out of range";
	return *why ? -1 : 0;
}

void soak_ckpt_misc_text(const struct soak_ckpt *c, char *buf, size_t size, size_t *len)
{
	for (unsigned int i = 0; i < c->nr_misc; i++) {
		const struct soak_ckpt_misc *m = &c->misc[i];

		ck_appendf(buf, size, len, "%s0x%llx on CPU %u after %llu.%03llus (expected 0x%llx "
			   "actual 0x%llx, %s)", i ? ", " : "; first miscompares: ",
			   (unsigned long long)m->phys, m->cpu,
			   (unsigned long long)(m->t_ns / 1000000000),
			   (unsigned long long)(m->t_ns / 1000000 % 1000),
			   (unsigned long long)m->expected, (unsigned long long)m->actual,
			   soak_pat_name((enum soak_pat)m->pat));
	}
}

void soak_ckpt_where(char *buf, size_t size, size_t *len, const struct soak_ckpt_bucket *b)
{
	if (b->type == SOAK_BUCKET_DIMM)
		ck_appendf(buf, size, len, "DIMM %s", b->name[0] ? b->name : "?");
	else if (b->type == SOAK_BUCKET_UMC && b->umc_node == SOAK_NO_NODE)
		ck_appendf(buf, size, len, "unknown node UMC %u DIMM %u rank %u (%s%s)", b->umc,
			   b->cs / 2, b->cs % 2, b->name[0] ? "label " : "no label", b->name);
	else if (b->type == SOAK_BUCKET_UMC)
		ck_appendf(buf, size, len, "node %u UMC %u DIMM %u rank %u (%s%s)", b->umc_node,
			   b->umc, b->cs / 2, b->cs % 2, b->name[0] ? "label " : "no label",
			   b->name);
	else if (b->type == SOAK_BUCKET_RANGE && b->size)
		ck_appendf(buf, size, len, "node %u range 0x%llx-0x%llx", b->node,
			   (unsigned long long)b->base,
			   (unsigned long long)(b->base + b->size - 1));
	else if (b->type == SOAK_BUCKET_RANGE)
		ck_appendf(buf, size, len, "node %u outside the soak ranges", b->node);
	else
		ck_appendf(buf, size, len, "%s",
			   b->type == SOAK_BUCKET_NO_ADDRESS ? "no address" : "other places");
}

size_t soak_ckpt_text(const struct soak_ckpt *c, char *buf, size_t size)
{
	static const char *const words[NR_SOAK_EV] = { "corrected", "deferred", "uncorrected",
		"miscompares", "stuck CPUs", "retired pages" };
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	/* Unfinished: the time is the last checkpoint's, not when the soak stopped. */
	ck_appendf(buf, size, &len, "previous soak %s %llu.%03llus%s: %u passes on %u CPUs, %llu "
		   "bytes verified", c->flags & SOAK_CKPT_FINAL ? "ended with its summary after" :
		   "ended without a summary; its last checkpoint",
		   (unsigned long long)(c->elapsed_ns / 1000000000),
		   (unsigned long long)(c->elapsed_ns / 1000000 % 1000),
		   c->flags & SOAK_CKPT_FINAL ? "" : " into it", c->passes, c->cpus,
		   (unsigned long long)c->bytes_verified);
	for (int k = 0; k < NR_SOAK_EV; k++)
		ck_appendf(buf, size, &len, ", %s %u", words[k], c->count[k]);
	if (c->flags & SOAK_CKPT_NOT_STORED)
		ck_appendf(buf, size, &len, " (%u ledger entries not stored)", c->not_stored);
	if (c->flags & SOAK_CKPT_CMDLINE)
		ck_appendf(buf, size, &len, "; its run's command line had errors");
	if (c->rule != SOAK_CKPT_NONE && c->rule < soak_nr_rules)
		ck_appendf(buf, size, &len, "; failing: %s", soak_rules[c->rule].name);
	if (c->first.kind < NR_SOAK_EV)
		ck_appendf(buf, size, &len, "; first: %s on CPU %u at 0x%llx after %llus",
			   soak_ev_name((enum soak_ev_kind)c->first.kind), c->first.cpu,
			   (unsigned long long)c->first.phys,
			   (unsigned long long)(c->first.t_ns / 1000000000));
	for (unsigned int i = 0; i < c->nr_buckets; i++) {
		ck_appendf(buf, size, &len, "%s", i ? ", " : "; worst: ");
		soak_ckpt_where(buf, size, &len, &c->bucket[i]);
		ck_appendf(buf, size, &len, " (%u corrected, %u uncorrected)",
			   c->bucket[i].count[SOAK_EV_CORRECTED],
			   c->bucket[i].count[SOAK_EV_UC_RECOVERED] +
			   c->bucket[i].count[SOAK_EV_DEFERRED]);
	}
	soak_ckpt_misc_text(c, buf, size, &len);
	return len;
}

u32 soak_kinds(const struct soak_totals *t)
{
	u32 m = 0;

	for (int k = 0; k < NR_SOAK_EV; k++)
		if (t->count[k])
			m |= 1u << k;
	return m;
}

bool soak_ckpt_due(u64 now_ns, u64 last_ns, u32 kinds, u32 written, u64 interval_ns)
{
	if (!interval_ns)
		interval_ns = SOAK_CKPT_INTERVAL_NS;
	if (last_ns == ~0ULL || (kinds & ~written))
		return true;
	return now_ns >= last_ns && now_ns - last_ns >= interval_ns;
}
