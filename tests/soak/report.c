// SPDX-License-Identifier: GPL-2.0-only
/*
 * report.c - the soak's ledger as text lines and JSON records (report.h).
 */
#include "kernel/lib/string.h"
#include "mce/decode.h"
#include "tests/soak/json.h"
#include "tests/soak/report.h"

/* The summary's and the JSON counts' keys, by event kind. */
static const char *const count_keys[NR_SOAK_EV] = {
	"corrected", "deferred", "uncorrected", "miscompares", "stuck_cpus", "retired_pages",
};
static const char *const count_words[NR_SOAK_EV] = {
	"corrected", "deferred", "uncorrected", "miscompares", "stuck CPUs", "retired pages",
};

static void put_seconds(struct soak_out *o, u64 ns, unsigned int digits)
{
	u64 div = 1000000000ULL, frac = ns % div;

	for (unsigned int i = digits; i < 9; i++)
		frac /= 10;
	soak_out_printf(o, "%llu.%0*llus", (unsigned long long)(ns / div), (int)digits,
			(unsigned long long)frac);
}

static void put_dimm_name(struct soak_out *o, const struct soak_where_map *map, u16 idx)
{
	char name[2 * SMBIOS_NAME_MAX + 2];

	smbios_dimm_name(map ? map->dimms : NULL, idx, name, sizeof(name));
	soak_out_printf(o, "%s", name);
}

/* "DIMM X", "one of DIMMs X, Y (interleaved)", or why there is none. */
static void put_dimm_text(struct soak_out *o, const struct soak_where_map *map, u8 where,
			  u8 nr, const u16 *dimm)
{
	if (where == SMBIOS_ONE_DIMM) {
		soak_out_printf(o, "DIMM ");
		put_dimm_name(o, map, dimm[0]);
	} else if (where == SMBIOS_INTERLEAVED) {
		soak_out_printf(o, "one of DIMMs ");
		for (unsigned int i = 0; i < nr && i < 2; i++) {
			soak_out_printf(o, "%s", i ? ", " : "");
			put_dimm_name(o, map, dimm[i]);
		}
		soak_out_printf(o, "%s (interleaved)", nr > 2 ? ", ..." : "");
	} else {
		soak_out_printf(o, "%s", smbios_where_text((enum smbios_where)where));
	}
}

static void put_where_text(struct soak_out *o, const struct soak_event *e,
			   const struct soak_where_map *map)
{
	if (!(e->flags & SOAK_EVF_PHYS)) {
		if (e->flags & SOAK_EVF_MCA) {
			struct mce_addr_src src = { .amd = e->flags & SOAK_EVF_AMD,
						    .smca = e->flags & SOAK_EVF_SMCA,
						    .hygon = e->flags & SOAK_EVF_HYGON,
						    .bank = e->bank };

			soak_out_printf(o, ", no usable address (%s)",
					mce_decode_addr(e->status, e->addr, e->misc, &src).why);
		}
		return;
	}
	soak_out_printf(o, ", physical 0x%llx (%llu bytes), ", (unsigned long long)e->phys,
			1ULL << e->lsb);
	if (e->node == SOAK_NO_NODE)
		soak_out_printf(o, "unknown node, ");
	else
		soak_out_printf(o, "node %u, ", e->node);
	if (e->flags & SOAK_EVF_SOAKED)
		soak_out_printf(o, "soak range 0x%llx+0x%llx, ", (unsigned long long)e->range_base,
				(unsigned long long)e->range_size);
	else
		soak_out_printf(o, "outside the soak ranges, ");
	put_dimm_text(o, map, e->where, e->nr_dimms, e->dimm);
}

/* Set bits of @x (the image links no libgcc, so no __builtin_popcountll). */
static int bit_count(u64 x)
{
	int n = 0;

	for (; x; x &= x - 1)
		n++;
	return n;
}

static void put_bits(struct soak_out *o, u64 x)
{
	int n = bit_count(x), shown = 0;

	if (n > 4) {
		soak_out_printf(o, "%d bits", n);
		return;
	}
	soak_out_printf(o, "bit%s ", n == 1 ? "" : "s");
	for (int b = 0; b < 64; b++)
		if (x >> b & 1)
			soak_out_printf(o, "%s%d", shown++ ? ", " : "", b);
}

static void put_writer_text(struct soak_out *o, const struct soak_event *e)
{
	if (e->how == SOAK_HOW_COPY)
		soak_out_printf(o, "copied by %s from %s data", soak_copy_op_name(e->copy_op),
				soak_pat_name((enum soak_pat)e->pat));
	else
		soak_out_printf(o, "written by %s (%s)",
				e->how == SOAK_HOW_CLEAR ? "a clear primitive" : "soak_fill",
				soak_pat_name((enum soak_pat)e->pat));
}

static void put_mca_text(struct soak_out *o, const struct soak_event *e)
{
	char bits[96], desc[96];

	mce_status_bits(e->status, e->flags & SOAK_EVF_AMD, bits, sizeof(bits));
	mce_mcacod_desc((u16)e->status, desc, sizeof(desc));
	soak_out_printf(o, "bank %u STATUS 0x%016llx [%s] ADDR 0x%llx MISC 0x%llx, %s", e->bank,
			(unsigned long long)e->status, bits, (unsigned long long)e->addr,
			(unsigned long long)e->misc, desc);
	if (e->flags & SOAK_EVF_OVER)
		soak_out_printf(o, ", OVER: the bank lost errors before this one");
}

size_t soak_event_text(const struct soak_event *e, const struct soak_where_map *map,
		       char *buf, size_t size)
{
	struct soak_out o;
	char sym[96] = "";

	soak_out_init(&o, buf, size);
	soak_out_printf(&o, "# soak-event: ");
	put_seconds(&o, e->t_ns, 9);
	soak_out_printf(&o, " CPU %u %s: ", e->cpu, soak_ev_name((enum soak_ev_kind)e->kind));
	switch (e->kind) {
	case SOAK_EV_MISCOMPARE:
		soak_out_printf(&o, "expected 0x%016llx actual 0x%016llx, differing ",
				(unsigned long long)e->expected, (unsigned long long)e->actual);
		put_bits(&o, e->expected ^ e->actual);
		soak_out_printf(&o, ", ");
		put_writer_text(&o, e);
		soak_out_printf(&o, ", %s", soak_reread_name((enum soak_reread)e->reread));
		break;
	case SOAK_EV_STUCK_CPU:
		if (map && map->symbol)
			map->symbol(e->rip, sym, sizeof(sym));
		soak_out_printf(&o, "no heartbeat, RIP 0x%llx%s%s", (unsigned long long)e->rip,
				sym[0] ? " " : "", sym);
		break;
	case SOAK_EV_RETIRED_PAGE:
		soak_out_printf(&o, "page retired after the %s error",
				soak_ev_name((enum soak_ev_kind)e->cause));
		break;
	default:
		if (e->flags & SOAK_EVF_MCA)
			put_mca_text(&o, e);
		else
			soak_out_printf(&o, "poison consumed, no bank to tell");
		break;
	}
	put_where_text(&o, e, map);
	return o.len;
}

static void put_json_where(struct soak_out *o, const struct soak_event *e,
			   const struct soak_where_map *map)
{
	if (!(e->flags & SOAK_EVF_PHYS)) {
		soak_out_printf(o, ",\"phys\":null");
		return;
	}
	soak_out_printf(o, ",\"phys\":");
	soak_out_json_hex(o, e->phys);
	soak_out_printf(o, ",\"granularity\":%llu,\"node\":", 1ULL << e->lsb);
	if (e->node == SOAK_NO_NODE)
		soak_out_printf(o, "null");
	else
		soak_out_printf(o, "%u", e->node);
	soak_out_printf(o, ",\"range\":");
	if (e->flags & SOAK_EVF_SOAKED) {
		soak_out_printf(o, "{\"base\":");
		soak_out_json_hex(o, e->range_base);
		soak_out_printf(o, ",\"size\":");
		soak_out_json_hex(o, e->range_size);
		soak_out_printf(o, "}");
	} else {
		soak_out_printf(o, "null");
	}
	soak_out_printf(o, ",\"dimm_map\":");
	soak_out_json_str(o, smbios_where_text((enum smbios_where)e->where));
	soak_out_printf(o, ",\"dimms\":[");
	for (unsigned int i = 0; i < e->nr_dimms && i < 2 && e->where >= SMBIOS_ONE_DIMM; i++) {
		char name[2 * SMBIOS_NAME_MAX + 2];

		smbios_dimm_name(map ? map->dimms : NULL, e->dimm[i], name, sizeof(name));
		soak_out_printf(o, "%s", i ? "," : "");
		soak_out_json_str(o, name);
	}
	soak_out_printf(o, "]");
}

static void put_json_kind(struct soak_out *o, const struct soak_event *e,
			  const struct soak_where_map *map)
{
	char sym[96] = "";

	if (e->flags & SOAK_EVF_MCA) {
		soak_out_printf(o, ",\"bank\":%u,\"status\":", e->bank);
		soak_out_json_hex(o, e->status);
		soak_out_printf(o, ",\"addr\":");
		soak_out_json_hex(o, e->addr);
		soak_out_printf(o, ",\"misc\":");
		soak_out_json_hex(o, e->misc);
		soak_out_printf(o, ",\"over\":%s", e->flags & SOAK_EVF_OVER ? "true" : "false");
	}
	if (e->kind == SOAK_EV_MISCOMPARE) {
		soak_out_printf(o, ",\"expected\":");
		soak_out_json_hex(o, e->expected);
		soak_out_printf(o, ",\"actual\":");
		soak_out_json_hex(o, e->actual);
		soak_out_printf(o, ",\"bits\":");
		soak_out_json_hex(o, e->expected ^ e->actual);
		soak_out_printf(o, ",\"written_by\":\"%s\",\"pattern\":\"%s\",\"copy\":",
				soak_how_name((enum soak_how)e->how),
				soak_pat_name((enum soak_pat)e->pat));
		if (e->how == SOAK_HOW_COPY)
			soak_out_printf(o, "\"%s\"", soak_copy_op_name(e->copy_op));
		else
			soak_out_printf(o, "null");
		soak_out_printf(o, ",\"reread\":");
		soak_out_json_str(o, soak_reread_name((enum soak_reread)e->reread));
	}
	if (e->kind == SOAK_EV_STUCK_CPU) {
		if (map && map->symbol)
			map->symbol(e->rip, sym, sizeof(sym));
		soak_out_printf(o, ",\"rip\":");
		soak_out_json_hex(o, e->rip);
		soak_out_printf(o, ",\"symbol\":");
		soak_out_json_str(o, sym);
	}
	if (e->kind == SOAK_EV_RETIRED_PAGE)
		soak_out_printf(o, ",\"cause\":\"%s\"", soak_ev_name((enum soak_ev_kind)e->cause));
}

size_t soak_event_json(const struct soak_event *e, const struct soak_where_map *map,
		       char *buf, size_t size)
{
	struct soak_out o;

	soak_out_init(&o, buf, size);
	soak_out_printf(&o, "{\"schema\":1,\"kind\":\"soak_event\",\"t_ns\":%llu,\"cpu\":%u,"
			"\"event\":\"%s\"", (unsigned long long)e->t_ns, e->cpu,
			soak_ev_name((enum soak_ev_kind)e->kind));
	put_json_kind(&o, e, map);
	put_json_where(&o, e, map);
	soak_out_printf(&o, "}");
	return o.len;
}

static void put_bucket_label(struct soak_out *o, const struct soak_bucket *b,
			     const struct soak_where_map *map)
{
	switch (b->type) {
	case SOAK_BUCKET_DIMM:
		soak_out_printf(o, "DIMM ");
		put_dimm_name(o, map, b->dimm);
		if (b->node != SOAK_NO_NODE)
			soak_out_printf(o, " (node %u)", b->node);
		break;
	case SOAK_BUCKET_RANGE:
		if (b->node == SOAK_NO_NODE)
			soak_out_printf(o, "unknown node");
		else
			soak_out_printf(o, "node %u", b->node);
		if (b->size)
			soak_out_printf(o, " range 0x%llx-0x%llx", (unsigned long long)b->base,
					(unsigned long long)(b->base + b->size - 1));
		else
			soak_out_printf(o, " outside the soak ranges");
		soak_out_printf(o, " (%s)", smbios_where_text((enum smbios_where)b->where));
		break;
	case SOAK_BUCKET_NO_ADDRESS:
		soak_out_printf(o, "no address");
		break;
	default:
		soak_out_printf(o, "other places (past %u buckets)", SOAK_MAX_BUCKETS - 1);
		break;
	}
}

size_t soak_bucket_text(const struct soak_totals *t, unsigned int i,
			const struct soak_where_map *map, char *buf, size_t size)
{
	struct soak_out o;

	soak_out_init(&o, buf, size);
	if (i >= t->nr_buckets)
		return o.len;
	soak_out_printf(&o, "# soak-ledger: ");
	put_bucket_label(&o, &t->bucket[i], map);
	for (int k = 0; k < NR_SOAK_EV; k++)
		soak_out_printf(&o, "%s %s %u", k ? "," : ":", count_words[k],
				t->bucket[i].count[k]);
	return o.len;
}

static void put_verdict(struct soak_out *o, const struct soak_totals *t,
			const struct soak_verdict *v, const struct soak_where_map *map)
{
	const struct soak_rule *r;

	if (v->pass || v->rule < 0 || (unsigned int)v->rule >= soak_nr_rules) {
		soak_out_printf(o, "PASS");
		return;
	}
	r = &soak_rules[v->rule];
	if (r->scope == SOAK_SCOPE_BUCKET && v->bucket >= 0) {
		soak_out_printf(o, "%s: %llu > %llu in ", r->name, (unsigned long long)v->count,
				(unsigned long long)v->limit);
		put_bucket_label(o, &t->bucket[v->bucket], map);
	} else if (r->scope == SOAK_SCOPE_RUN) {
		soak_out_printf(o, "%s (%llu)", r->name, (unsigned long long)v->count);
	} else {
		soak_out_printf(o, "%s", r->name);
	}
}

size_t soak_verdict_text(const struct soak_totals *t, const struct soak_verdict *v,
			 const struct soak_where_map *map, char *buf, size_t size)
{
	struct soak_out o;

	soak_out_init(&o, buf, size);
	put_verdict(&o, t, v, map);
	return o.len;
}

size_t soak_summary_text(const struct soak_totals *t, const struct soak_verdict *v,
			 const struct soak_where_map *map, char *buf, size_t size)
{
	struct soak_out o;
	char reason[256];

	soak_out_init(&o, buf, size);
	soak_out_printf(&o, "# copykernel-soak: result=%s duration=", v->pass ? "PASS" : "FAIL");
	put_seconds(&o, t->elapsed_ns, 3);
	soak_out_printf(&o, " passes=%u bytes=%llu", t->passes,
			(unsigned long long)t->bytes_verified);
	for (int k = 0; k < NR_SOAK_EV; k++)
		soak_out_printf(&o, " %s=%llu", count_keys[k], (unsigned long long)t->count[k]);
	soak_out_printf(&o, " not_stored=%llu", (unsigned long long)t->not_stored);
	if (!v->pass) {
		soak_verdict_text(t, v, map, reason, sizeof(reason));
		soak_out_printf(&o, " reason=\"%s\"", reason);
	}
	return o.len;
}

size_t soak_summary_json(const struct soak_totals *t, const struct soak_verdict *v,
			 const struct soak_where_map *map, char *buf, size_t size)
{
	struct soak_out o;
	char text[256];

	soak_out_init(&o, buf, size);
	soak_out_printf(&o, "{\"schema\":1,\"kind\":\"soak_summary\",\"result\":\"%s\","
			"\"reason\":", v->pass ? "PASS" : "FAIL");
	soak_verdict_text(t, v, map, text, sizeof(text));
	if (v->pass)
		soak_out_printf(&o, "null");
	else
		soak_out_json_str(&o, text);
	soak_out_printf(&o, ",\"duration_ns\":%llu,\"passes\":%u,\"cpus\":%u,\"bytes_verified\":"
			"%llu,\"bytes_per_pass\":%llu,\"free_bytes\":%llu,\"ce_threshold\":%u,"
			"\"seed\":", (unsigned long long)t->elapsed_ns, t->passes, t->cpus,
			(unsigned long long)t->bytes_verified,
			(unsigned long long)t->bytes_per_pass, (unsigned long long)t->free_bytes,
			t->ce_threshold ? t->ce_threshold : SOAK_CE_THRESHOLD);
	soak_out_json_hex(&o, t->seed);
	soak_out_printf(&o, ",\"counts\":{");
	for (int k = 0; k < NR_SOAK_EV; k++)
		soak_out_printf(&o, "%s\"%s\":%llu", k ? "," : "", count_keys[k],
				(unsigned long long)t->count[k]);
	soak_out_printf(&o, "},\"not_stored\":%llu,\"ledger\":[",
			(unsigned long long)t->not_stored);
	for (unsigned int i = 0; i < t->nr_buckets; i++) {
		struct soak_out lo;

		soak_out_init(&lo, text, sizeof(text));
		put_bucket_label(&lo, &t->bucket[i], map);
		static const char *const types[] = { "dimm", "range", "no_address", "other" };
		const struct soak_bucket *b = &t->bucket[i];
		char name[2 * SMBIOS_NAME_MAX + 2];

		soak_out_printf(&o, "%s{\"type\":\"%s\",\"where\":", i ? "," : "",
				types[b->type]);
		soak_out_json_str(&o, text);
		soak_out_printf(&o, ",\"dimm\":");
		if (b->type == SOAK_BUCKET_DIMM) {
			smbios_dimm_name(map ? map->dimms : NULL, b->dimm, name, sizeof(name));
			soak_out_json_str(&o, name);
		} else {
			soak_out_printf(&o, "null");
		}
		if (b->node != SOAK_NO_NODE && b->type <= SOAK_BUCKET_RANGE)
			soak_out_printf(&o, ",\"node\":%u", b->node);
		else
			soak_out_printf(&o, ",\"node\":null");
		for (int k = 0; k < NR_SOAK_EV; k++)
			soak_out_printf(&o, ",\"%s\":%u", count_keys[k], t->bucket[i].count[k]);
		soak_out_printf(&o, "}");
	}
	soak_out_printf(&o, "]}");
	return o.len;
}
