// SPDX-License-Identifier: GPL-2.0-only
/*
 * report.c - the soak's ledger as text lines and JSON records (report.h); the records go
 * through the project's JSON-lines writer (kernel/lib/json.h).
 */
#include "kernel/include/page_types.h"
#include "kernel/lib/format.h"
#include "kernel/lib/json.h"
#include "kernel/lib/string.h"
#include "mce/decode.h"
#include "mce/dimm.h"
#include "soak/report.h"

/* A line of text being written into a caller's buffer (kernel/lib/format.h's ck_appendf). */
struct soak_text {
	char *buf;
	size_t size;
	size_t len;		/* what the whole line needs; size - 1 or more when cut */
};

#define tprintf(t, ...)	ck_appendf((t)->buf, (t)->size, &(t)->len, __VA_ARGS__)

static void text_init(struct soak_text *t, char *buf, size_t size)
{
	*t = (struct soak_text){ buf, size, 0 };
	if (size)
		buf[0] = '\0';
}

/* The summary's and the JSON counts' keys, by event kind. */
static const char *const count_keys[NR_SOAK_EV] = {
	"corrected", "deferred", "uncorrected", "miscompares", "stuck_cpus", "retired_pages",
};
static const char *const count_words[NR_SOAK_EV] = {
	"corrected", "deferred", "uncorrected", "miscompares", "stuck CPUs", "retired pages",
};

static void put_seconds(struct soak_text *o, u64 ns, unsigned int digits)
{
	u64 div = 1000000000ULL, frac = ns % div;

	for (unsigned int i = digits; i < 9; i++)
		frac /= 10;
	tprintf(o, "%llu.%0*llus", (unsigned long long)(ns / div), (int)digits,
		(unsigned long long)frac);
}

static void put_dimm_name(struct soak_text *o, const struct soak_where_map *map, u16 idx)
{
	char name[2 * SMBIOS_NAME_MAX + 2];

	smbios_dimm_name(map ? map->dimms : NULL, idx, name, sizeof(name));
	tprintf(o, "%s", name);
}

/* "DIMM X", "one of DIMMs X, Y (interleaved)", or why there is none. */
static void put_dimm_text(struct soak_text *o, const struct soak_where_map *map, u8 where,
			  u8 nr, const u16 *dimm)
{
	if (where == SMBIOS_ONE_DIMM) {
		tprintf(o, "DIMM ");
		put_dimm_name(o, map, dimm[0]);
	} else if (where == SMBIOS_INTERLEAVED) {
		tprintf(o, "one of DIMMs ");
		for (unsigned int i = 0; i < nr && i < 2; i++) {
			tprintf(o, "%s", i ? ", " : "");
			put_dimm_name(o, map, dimm[i]);
		}
		tprintf(o, "%s (interleaved)", nr > 2 ? ", ..." : "");
	} else {
		tprintf(o, "%s", smbios_where_text((enum smbios_where)where));
	}
}

static void put_where_text(struct soak_text *o, const struct soak_event *e,
			   const struct soak_where_map *map)
{
	if (!(e->flags & SOAK_EVF_PHYS)) {
		if (e->flags & SOAK_EVF_MCA) {
			struct mce_addr_src src = { .amd = e->flags & SOAK_EVF_AMD,
						    .smca = e->flags & SOAK_EVF_SMCA,
						    .hygon = e->flags & SOAK_EVF_HYGON,
						    .bank = e->bank };

			tprintf(o, ", no usable address (%s)",
				mce_decode_addr(e->status, e->addr, e->misc, &src).why);
		}
		return;
	}
	tprintf(o, ", physical 0x%llx (%llu bytes), ", (unsigned long long)e->phys,
		1ULL << e->lsb);
	if (e->node == SOAK_NO_NODE)
		tprintf(o, "unknown node, ");
	else
		tprintf(o, "node %u, ", e->node);
	if (e->flags & SOAK_EVF_SOAKED)
		tprintf(o, "soak range 0x%llx+0x%llx, ", (unsigned long long)e->range_base,
			(unsigned long long)e->range_size);
	else
		tprintf(o, "outside the soak ranges, ");
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

static void put_bits(struct soak_text *o, u64 x)
{
	int n = bit_count(x), shown = 0;

	if (n > 4) {
		tprintf(o, "%d bits", n);
		return;
	}
	tprintf(o, "bit%s ", n == 1 ? "" : "s");
	for (int b = 0; b < 64; b++)
		if (x >> b & 1)
			tprintf(o, "%s%d", shown++ ? ", " : "", b);
}

static void put_writer_text(struct soak_text *o, const struct soak_event *e)
{
	if (e->how == SOAK_HOW_COPY)
		tprintf(o, "copied by %s from %s data", soak_copy_op_name(e->copy_op),
			soak_pat_name((enum soak_pat)e->pat));
	else
		tprintf(o, "written by %s (%s)",
			e->how == SOAK_HOW_CLEAR ? "a clear primitive" : "soak_march_mc",
			soak_pat_name((enum soak_pat)e->pat));
}

bool soak_data_address(const struct soak_event *e, const struct soak_where_map *map, u64 *addr)
{
	u64 inv = e->pat & 1 ? ~0ULL : 0, v = e->actual ^ inv;

	if (e->kind != SOAK_EV_MISCOMPARE || (e->pat & ~1u) != SOAK_PAT_ADDRESS || (v & 7) ||
	    v == (e->expected ^ inv) || !map || !map->plan)
		return false;
	for (unsigned int i = 0; i < map->plan->nr_ranges; i++) {
		const struct soak_range *r = &map->plan->range[i];

		if (v >= r->base && v - r->base < r->size) {
			*addr = v;
			return true;
		}
	}
	return false;
}

/* The label of AMD node @node's UMC @umc chip select @cs, or NULL. */
static const char *umc_label(const struct soak_where_map *map, u8 node, u16 umc, unsigned int cs)
{
	if (!map || !map->dimm_label || node == SOAK_NO_NODE)
		return NULL;
	return map->dimm_label(node, cs, umc);
}

static struct dimm_loc event_dimm(const struct soak_event *e)
{
	struct dimm_bank b = { .status = e->status, .synd = e->synd, .ipid = e->ipid,
			       .node = e->cpu_node, .smca = true };

	return dimm_decode(&b);
}

/* An SMCA bank's own DIMM: ", DIMM: node 0 UMC 3 chip select 2: DIMM 1 rank 0, ..." */
static void put_bank_dimm(struct soak_text *o, const struct soak_event *e,
			  const struct soak_where_map *map)
{
	struct dimm_loc l = event_dimm(e);
	const char *label = l.why == DIMM_KNOWN ? umc_label(map, e->cpu_node, (u16)l.umc, l.cs)
						: NULL;
	char words[192];

	dimm_describe(&l, e->cpu_node == SOAK_NO_NODE ? -1 : e->cpu_node,
		      label ? label : "(none)", words, sizeof(words));
	tprintf(o, ", DIMM: %s", words);
}

static void put_mca_text(struct soak_text *o, const struct soak_event *e,
			 const struct soak_where_map *map)
{
	char bits[96], desc[96];

	mce_status_bits(e->status, e->flags & SOAK_EVF_AMD, bits, sizeof(bits));
	mce_mcacod_desc((u16)e->status, desc, sizeof(desc));
	tprintf(o, "bank %u STATUS 0x%016llx [%s] ADDR 0x%llx MISC 0x%llx, %s", e->bank,
		(unsigned long long)e->status, bits, (unsigned long long)e->addr,
		(unsigned long long)e->misc, desc);
	if (e->flags & SOAK_EVF_OVER)
		tprintf(o, ", OVER: the bank lost errors before this one");
	if (e->flags & SOAK_EVF_SMCA)
		put_bank_dimm(o, e, map);
}

size_t soak_event_text(const struct soak_event *e, const struct soak_where_map *map,
		       char *buf, size_t size)
{
	struct soak_text o;
	char sym[96] = "";
	u64 other;

	text_init(&o, buf, size);
	tprintf(&o, "# soak-event: ");
	put_seconds(&o, e->t_ns, 9);
	tprintf(&o, " CPU %u %s: ", e->cpu, soak_ev_name((enum soak_ev_kind)e->kind));
	switch (e->kind) {
	case SOAK_EV_MISCOMPARE:
		tprintf(&o, "expected 0x%016llx actual 0x%016llx, differing ",
			(unsigned long long)e->expected, (unsigned long long)e->actual);
		put_bits(&o, e->expected ^ e->actual);
		tprintf(&o, ", ");
		put_writer_text(&o, e);
		if (soak_data_address(e, map, &other))
			tprintf(&o, ", the data read is the address 0x%llx (expected 0x%llx)",
				(unsigned long long)other,
				(unsigned long long)(e->expected ^ (e->pat & 1 ? ~0ULL : 0)));
		tprintf(&o, ", %s", soak_reread_name((enum soak_reread)e->reread));
		break;
	case SOAK_EV_STUCK_CPU:
		if (map && map->symbol)
			map->symbol(e->rip, sym, sizeof(sym));
		tprintf(&o, "no heartbeat, RIP 0x%llx%s%s", (unsigned long long)e->rip,
			sym[0] ? " " : "", sym);
		break;
	case SOAK_EV_RETIRED_PAGE:
		tprintf(&o, "page retired after the %s error",
			soak_ev_name((enum soak_ev_kind)e->cause));
		break;
	default:
		if (e->flags & SOAK_EVF_MCA)
			put_mca_text(&o, e, map);
		else
			tprintf(&o, "poison consumed, no bank to tell");
		break;
	}
	put_where_text(&o, e, map);
	return o.len;
}

static void put_json_where(struct json_writer *w, const struct soak_event *e,
			   const struct soak_where_map *map)
{
	if (!(e->flags & SOAK_EVF_PHYS)) {
		json_null(w, "phys");
		return;
	}
	json_hex(w, "phys", e->phys);
	json_u64(w, "granularity", 1ULL << e->lsb);
	if (e->node == SOAK_NO_NODE)
		json_null(w, "node");
	else
		json_u64(w, "node", e->node);
	if (e->flags & SOAK_EVF_SOAKED) {
		json_obj_begin(w, "range");
		json_hex(w, "base", e->range_base);
		json_hex(w, "size", e->range_size);
		json_obj_end(w);
	} else {
		json_null(w, "range");
	}
	json_str(w, "dimm_map", smbios_where_text((enum smbios_where)e->where));
	json_arr_begin(w, "dimms");
	for (unsigned int i = 0; i < e->nr_dimms && i < 2 && e->where >= SMBIOS_ONE_DIMM; i++) {
		char name[2 * SMBIOS_NAME_MAX + 2];

		smbios_dimm_name(map ? map->dimms : NULL, e->dimm[i], name, sizeof(name));
		json_str(w, NULL, name);
	}
	json_arr_end(w);
}

static void put_json_miscompare(struct json_writer *w, const struct soak_event *e,
				const struct soak_where_map *map)
{
	u64 other;

	json_hex(w, "expected", e->expected);
	json_hex(w, "actual", e->actual);
	json_hex(w, "bits", e->expected ^ e->actual);
	if (soak_data_address(e, map, &other))
		json_hex(w, "data_address", other);
	else
		json_null(w, "data_address");
	json_str(w, "written_by", soak_how_name((enum soak_how)e->how));
	json_str(w, "pattern", soak_pat_name((enum soak_pat)e->pat));
	if (e->how == SOAK_HOW_COPY)
		json_str(w, "copy", soak_copy_op_name(e->copy_op));
	else
		json_null(w, "copy");
	json_str(w, "reread", soak_reread_name((enum soak_reread)e->reread));
}

/* An SMCA bank's IPID, SYND and the DIMM they name ("bank_dimm"), or why none. */
static void put_json_bank_dimm(struct json_writer *w, const struct soak_event *e,
			       const struct soak_where_map *map)
{
	struct dimm_loc l = event_dimm(e);
	const char *label;

	json_hex(w, "ipid", e->ipid);
	json_hex(w, "synd", e->synd);
	if (l.why != DIMM_KNOWN) {
		json_null(w, "bank_dimm");
		json_str(w, "bank_dimm_why", dimm_why_text(l.why));
		return;
	}
	label = umc_label(map, e->cpu_node, (u16)l.umc, l.cs);
	json_obj_begin(w, "bank_dimm");
	if (e->cpu_node == SOAK_NO_NODE)
		json_null(w, "node");
	else
		json_u64(w, "node", e->cpu_node);
	json_u64(w, "umc", l.umc);
	json_u64(w, "cs", l.cs);
	json_u64(w, "dimm", l.dimm);
	json_u64(w, "rank", l.rank);
	json_str(w, "label", label);
	json_obj_end(w);
	json_str(w, "bank_dimm_why", dimm_why_text(l.why));
}

static void put_json_kind(struct json_writer *w, const struct soak_event *e,
			  const struct soak_where_map *map)
{
	char sym[96] = "";

	if (e->flags & SOAK_EVF_MCA) {
		json_u64(w, "bank", e->bank);
		json_hex(w, "status", e->status);
		json_hex(w, "addr", e->addr);
		json_hex(w, "misc", e->misc);
		json_bool(w, "over", e->flags & SOAK_EVF_OVER);
	}
	if (e->flags & SOAK_EVF_SMCA)
		put_json_bank_dimm(w, e, map);
	if (e->kind == SOAK_EV_MISCOMPARE)
		put_json_miscompare(w, e, map);
	if (e->kind == SOAK_EV_STUCK_CPU) {
		if (map && map->symbol)
			map->symbol(e->rip, sym, sizeof(sym));
		json_hex(w, "rip", e->rip);
		json_str(w, "symbol", sym);
	}
	if (e->kind == SOAK_EV_RETIRED_PAGE)
		json_str(w, "cause", soak_ev_name((enum soak_ev_kind)e->cause));
}

size_t soak_event_json(const struct soak_event *e, const struct soak_where_map *map,
		       char *buf, size_t size)
{
	struct json_writer w;

	json_record(&w, buf, size, "soak_event");
	json_u64(&w, "t_ns", e->t_ns);
	json_u64(&w, "cpu", e->cpu);
	json_str(&w, "event", soak_ev_name((enum soak_ev_kind)e->kind));
	put_json_kind(&w, e, map);
	put_json_where(&w, e, map);
	json_end(&w);
	return w.len;
}

/*
 * "node 0 UMC 3 DIMM 1 rank 0 (chip select 2, label B1)"; @whole: the DIMM, its ranks
 * together ("node 0 UMC 3 DIMM 1 (its ranks together, label B1)").
 */
static void put_umc_label(struct soak_text *o, const struct soak_bucket *b,
			  const struct soak_where_map *map, bool whole)
{
	unsigned int cs = 2u * b->umc_dimm + b->umc_rank;
	const char *label = umc_label(map, b->umc_node, b->umc, cs);

	if (b->umc_node == SOAK_NO_NODE)
		tprintf(o, "unknown node");
	else
		tprintf(o, "node %u", b->umc_node);
	tprintf(o, " UMC %u DIMM %u", b->umc, b->umc_dimm);
	if (whole)
		tprintf(o, " (its ranks together");
	else
		tprintf(o, " rank %u (chip select %u", b->umc_rank, cs);
	if (label)
		tprintf(o, ", label %s)", label);
	else
		tprintf(o, ", no label)");
}

static void put_bucket_label(struct soak_text *o, const struct soak_bucket *b,
			     const struct soak_where_map *map)
{
	switch (b->type) {
	case SOAK_BUCKET_UMC:
		put_umc_label(o, b, map, false);
		break;
	case SOAK_BUCKET_DIMM:
		tprintf(o, "DIMM ");
		put_dimm_name(o, map, b->dimm);
		if (b->node != SOAK_NO_NODE)
			tprintf(o, " (node %u)", b->node);
		break;
	case SOAK_BUCKET_RANGE:
		if (b->node == SOAK_NO_NODE)
			tprintf(o, "unknown node");
		else
			tprintf(o, "node %u", b->node);
		if (b->size)
			tprintf(o, " range 0x%llx-0x%llx", (unsigned long long)b->base,
				(unsigned long long)(b->base + b->size - 1));
		else
			tprintf(o, " outside the soak ranges");
		tprintf(o, " (%s)", smbios_where_text((enum smbios_where)b->where));
		break;
	case SOAK_BUCKET_NO_ADDRESS:
		tprintf(o, "no address");
		break;
	default:
		tprintf(o, "other places (past %u buckets)", SOAK_MAX_BUCKETS - 1);
		break;
	}
}

size_t soak_bucket_text(const struct soak_totals *t, unsigned int i,
			const struct soak_where_map *map, char *buf, size_t size)
{
	struct soak_text o;

	text_init(&o, buf, size);
	if (i >= t->nr_buckets)
		return o.len;
	tprintf(&o, "# soak-ledger: ");
	put_bucket_label(&o, &t->bucket[i], map);
	for (int k = 0; k < NR_SOAK_EV; k++)
		tprintf(&o, "%s %s %u", k ? "," : ":", count_words[k],
			t->bucket[i].count[k]);
	return o.len;
}

/* " in node 1 UMC 3 DIMM 0 rank 1 (label P1_C)": the rank of a verdict's first event. */
static void put_first_umc(struct soak_text *o, const struct soak_first *f,
			  const struct soak_where_map *map)
{
	const char *label = umc_label(map, f->umc_node, f->umc, f->cs);

	if (f->umc_node == SOAK_NO_NODE)
		tprintf(o, " in unknown node");
	else
		tprintf(o, " in node %u", f->umc_node);
	tprintf(o, " UMC %u DIMM %u rank %u (%s%s)", f->umc, f->cs / 2, f->cs % 2,
		label ? "label " : "no label", label ? label : "");
}

static void put_verdict(struct soak_text *o, const struct soak_totals *t,
			const struct soak_verdict *v, const struct soak_where_map *map)
{
	const struct soak_rule *r;

	if (v->pass) {
		tprintf(o, "PASS");
		return;
	}
	if (v->rule < 0 || (unsigned int)v->rule >= soak_nr_rules) {
		tprintf(o, "%s", v->run_reason ? v->run_reason : "failed (no rule named)");
		return;
	}
	r = &soak_rules[v->rule];
	if (r->scope == SOAK_SCOPE_BUCKET && v->bucket >= 0) {
		tprintf(o, "%s: %llu > %llu in ", r->name, (unsigned long long)v->count,
			(unsigned long long)v->limit);
		if (t->bucket[v->bucket].type == SOAK_BUCKET_UMC)
			put_umc_label(o, &t->bucket[v->bucket], map, true);
		else
			put_bucket_label(o, &t->bucket[v->bucket], map);
	} else if (r->scope == SOAK_SCOPE_RUN) {
		const struct soak_first *f = r->kind >= NR_SOAK_EV ? NULL :
					     v->of_node && v->node < NUMA_MAX_NODES ?
					     &t->node_first[v->node][r->kind] : &t->first[r->kind];

		tprintf(o, "%s (%llu)", r->name, (unsigned long long)v->count);
		if (f && f->known && f->phys_known)
			tprintf(o, ", the first at 0x%llx on CPU %u", (unsigned long long)f->phys,
				f->cpu);
		else if (f && f->known)
			tprintf(o, ", the first on CPU %u", f->cpu);
		if (f && f->known && f->umc_known)
			put_first_umc(o, f, map);
	} else {
		tprintf(o, "%s", r->name);
	}
}

size_t soak_verdict_text(const struct soak_totals *t, const struct soak_verdict *v,
			 const struct soak_where_map *map, char *buf, size_t size)
{
	struct soak_text o;

	text_init(&o, buf, size);
	put_verdict(&o, t, v, map);
	return o.len;
}

size_t soak_summary_text(const struct soak_totals *t, const struct soak_verdict *v,
			 const struct soak_where_map *map, char *buf, size_t size)
{
	struct soak_text o;
	char reason[256];

	text_init(&o, buf, size);
	tprintf(&o, "# copykernel-soak: result=%s duration=", v->pass ? "PASS" : "FAIL");
	put_seconds(&o, t->elapsed_ns, 3);
	tprintf(&o, " passes=%u bytes=%llu", t->passes,
		(unsigned long long)t->bytes_verified);
	for (int k = 0; k < NR_SOAK_EV; k++)
		tprintf(&o, " %s=%llu", count_keys[k], (unsigned long long)t->count[k]);
	tprintf(&o, " not_stored=%llu", (unsigned long long)t->not_stored);
	if (!v->pass) {
		soak_verdict_text(t, v, map, reason, sizeof(reason));
		tprintf(&o, " reason=\"%s\"", reason);
	}
	return o.len;
}

void soak_umc_json(struct json_writer *w, unsigned int node, unsigned int umc, unsigned int cs,
		   const char *label)
{
	json_obj_begin(w, "umc");
	if (node == SOAK_NO_NODE)
		json_null(w, "node");
	else
		json_u64(w, "node", node);
	json_u64(w, "umc", umc);
	json_u64(w, "dimm", cs / 2);
	json_u64(w, "rank", cs % 2);
	json_u64(w, "cs", cs);
	json_str(w, "label", label);
	json_obj_end(w);
}

/* A UMC bucket's key and label ("umc"), null for any other bucket. */
static void put_json_umc(struct json_writer *w, const struct soak_bucket *b,
			 const struct soak_where_map *map)
{
	unsigned int cs = 2u * b->umc_dimm + b->umc_rank;

	if (b->type != SOAK_BUCKET_UMC) {
		json_null(w, "umc");
		return;
	}
	soak_umc_json(w, b->umc_node, b->umc, cs, umc_label(map, b->umc_node, b->umc, cs));
}

static void put_json_bucket(struct json_writer *w, const struct soak_bucket *b,
			    const struct soak_where_map *map)
{
	static const char *const types[] = { "dimm", "range", "no_address", "other", "umc" };
	char text[256], name[2 * SMBIOS_NAME_MAX + 2];
	struct soak_text lo;

	text_init(&lo, text, sizeof(text));
	put_bucket_label(&lo, b, map);
	json_obj_begin(w, NULL);
	json_str(w, "type", types[b->type]);
	json_str(w, "where", text);
	if (b->type == SOAK_BUCKET_DIMM) {
		smbios_dimm_name(map ? map->dimms : NULL, b->dimm, name, sizeof(name));
		json_str(w, "dimm", name);
	} else {
		json_null(w, "dimm");
	}
	if (b->node != SOAK_NO_NODE && soak_bucket_has_node(b->type))
		json_u64(w, "node", b->node);
	else
		json_null(w, "node");
	for (int k = 0; k < NR_SOAK_EV; k++)
		json_u64(w, count_keys[k], b->count[k]);
	put_json_umc(w, b, map);
	json_obj_end(w);
}

size_t soak_summary_json(const struct soak_totals *t, const struct soak_verdict *v,
			 const struct soak_where_map *map, char *buf, size_t size)
{
	struct json_writer w;
	char text[256];

	json_record(&w, buf, size, "soak_summary");
	json_str(&w, "result", v->pass ? "PASS" : "FAIL");
	soak_verdict_text(t, v, map, text, sizeof(text));
	if (v->pass)
		json_null(&w, "reason");
	else
		json_str(&w, "reason", text);
	json_u64(&w, "duration_ns", t->elapsed_ns);
	json_u64(&w, "passes", t->passes);
	json_u64(&w, "cpus", t->cpus);
	json_u64(&w, "bytes_verified", t->bytes_verified);
	json_u64(&w, "bytes_per_pass", t->bytes_per_pass);
	json_u64(&w, "free_bytes", t->free_bytes);
	json_u64(&w, "ce_threshold", t->ce_threshold ? t->ce_threshold : SOAK_CE_THRESHOLD);
	json_hex(&w, "seed", t->seed);
	json_obj_begin(&w, "counts");
	for (int k = 0; k < NR_SOAK_EV; k++)
		json_u64(&w, count_keys[k], t->count[k]);
	json_obj_end(&w);
	json_u64(&w, "not_stored", t->not_stored);
	json_arr_begin(&w, "ledger");
	for (unsigned int i = 0; i < t->nr_buckets; i++)
		put_json_bucket(&w, &t->bucket[i], map);
	json_arr_end(&w);
	json_end(&w);
	return w.len;
}

size_t soak_ktap_text(const struct soak_totals *t, const struct soak_verdict *v,
		      const struct soak_where_map *map, unsigned int nr_nodes, u32 run_nodes,
		      const char *run_why, char *buf, size_t size)
{
	struct soak_text o;
	char why[256];
	bool any = false;

	text_init(&o, buf, size);
	tprintf(&o, "KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: soak\n    1..%u\n",
		nr_nodes);
	for (unsigned int n = 0; n < nr_nodes; n++) {
		struct soak_verdict nv;
		bool ok;

		soak_judge_node(t, n, &nv);
		ok = nv.pass && !(n < 32 && (run_nodes >> n & 1));
		if (!nv.pass) {
			soak_verdict_text(t, &nv, map, why, sizeof(why));
			tprintf(&o, "    # node%u: %s\n", n, why);
		} else if (!ok) {
			tprintf(&o, "    # node%u: %s\n", n, run_why ? run_why : "a run rule failed");
		}
		any |= !ok;
		tprintf(&o, "    %sok %u node%u\n    # ck-lava <soak.node%u %s>\n", ok ? "" : "not ",
			n + 1, n, n, ok ? "pass" : "fail");
	}
	if (!v->pass && !any) {
		soak_verdict_text(t, v, map, why, sizeof(why));
		tprintf(&o, "    # the soak fails on no one node: %s\n", why);
	}
	tprintf(&o, "%sok 1 soak\n", v->pass ? "" : "not ");
	return o.len;
}

size_t soak_cpu_text(const struct soak_cpu_figures *f, char *buf, size_t size)
{
	struct soak_text o;
	u64 kib = f->pages * (PAGE_SIZE / 1024);

	text_init(&o, buf, size);
	tprintf(&o, "soak: CPU %u (node %u): ", f->cpu, f->node);
	if (f->stuck) {
		tprintf(&o, "stuck (the watchdog's), %u whole pass%s before", f->passes,
			f->passes == 1 ? "" : "es");
		return o.len;
	}
	tprintf(&o, "%u whole pass%s over %llu pages (%llu.%llu MiB)", f->passes,
		f->passes == 1 ? "" : "es", (unsigned long long)f->pages,
		(unsigned long long)(kib / 1024), (unsigned long long)(kib % 1024 * 10 / 1024));
	if (f->passes) {
		tprintf(&o, ", the first in ");
		put_seconds(&o, f->first_ns, 3);
		tprintf(&o, " (fastest ");
		put_seconds(&o, f->min_ns, 3);
		tprintf(&o, ", slowest ");
		put_seconds(&o, f->max_ns, 3);
		tprintf(&o, ")");
	}
	tprintf(&o, "; done ");
	put_seconds(&o, f->done_ns, 3);
	tprintf(&o, " into the soak");
	return o.len;
}

size_t soak_cpu_json(const struct soak_cpu_figures *f, char *buf, size_t size)
{
	struct json_writer w;

	json_record(&w, buf, size, "soak_cpu");
	json_u64(&w, "cpu", f->cpu);
	json_u64(&w, "node", f->node);
	json_bool(&w, "stuck", f->stuck);
	json_u64(&w, "passes", f->passes);
	json_u64(&w, "pages", f->pages);
	json_u64_or_null(&w, "first_pass_ns", f->passes, f->first_ns);
	json_u64_or_null(&w, "min_pass_ns", f->passes, f->min_ns);
	json_u64_or_null(&w, "max_pass_ns", f->passes, f->max_ns);
	json_u64_or_null(&w, "done_ns", !f->stuck, f->done_ns);
	json_end(&w);
	return w.len;
}
