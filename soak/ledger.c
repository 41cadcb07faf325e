// SPDX-License-Identifier: GPL-2.0-only
/*
 * ledger.c - the soak's error ledger: record, attribute, count, fold, judge (ledger.h).
 */
#include "kernel/lib/string.h"
#include "mce/decode.h"
#include "mce/dimm.h"
#include "mce/mce_regs.h"
#include "soak/ledger.h"

const struct soak_rule soak_rules[] = {
	{ "uncorrected error (recovered)", SOAK_SCOPE_RUN, SOAK_EV_UC_RECOVERED, false },
	{ "deferred error (uncorrected, not consumed)", SOAK_SCOPE_RUN, SOAK_EV_DEFERRED, false },
	{ "miscompare", SOAK_SCOPE_RUN, SOAK_EV_MISCOMPARE, false },
	{ "stuck CPU", SOAK_SCOPE_RUN, SOAK_EV_STUCK_CPU, false },
	{ "corrected errors above the threshold in one DIMM or node range", SOAK_SCOPE_BUCKET,
	  SOAK_EV_CORRECTED, true },
	{ "nothing was soaked", SOAK_SCOPE_NOTHING_SOAKED, 0, false },
};
const unsigned int soak_nr_rules = ARRAY_SIZE(soak_rules);

static const char *const ev_names[NR_SOAK_EV] = {
	"corrected", "deferred", "uncorrected", "miscompare", "stuck_cpu", "retired_page",
};
static const char *const reread_names[NR_SOAK_REREAD] = {
	"not re-read", "read error (the re-read is right)",
	"stored error (the re-read stays wrong)", "unstable (the re-read is a third value)",
};

const char *soak_ev_name(enum soak_ev_kind k)
{
	return (unsigned int)k < NR_SOAK_EV ? ev_names[k] : "?";
}

const char *soak_reread_name(enum soak_reread r)
{
	return (unsigned int)r < NR_SOAK_REREAD ? reread_names[r] : "?";
}

void soak_ledger_init(struct soak_ledger *l, struct soak_event *storage, unsigned int cap,
		      const struct soak_where_map *map)
{
	memset(l, 0, sizeof(*l));
	l->ev = storage;
	l->cap = storage ? cap : 0;
	l->map = map;
}

/* Node, soak range and DIMM of @e->phys. */
static void attribute(const struct soak_where_map *map, struct soak_event *e)
{
	u16 idx[2];
	unsigned int n = 0;

	if (!map)
		return;
	for (unsigned int i = 0; map->plan && i < map->plan->nr_ranges; i++) {
		const struct soak_range *r = &map->plan->range[i];

		if (e->phys >= r->base && e->phys - r->base < r->size) {
			e->flags |= SOAK_EVF_SOAKED;
			e->range_base = r->base;
			e->range_size = r->size;
			e->node = r->node;
		}
	}
	if (e->node == SOAK_NO_NODE && map->numa) {
		/* Without an SRAT one node holds everything (numa_init says so). */
		int node = map->numa->from_srat ? numa_node_of(map->numa, e->phys) : 0;

		if (node >= 0)
			e->node = (u8)node;
	}
	if (!map->dimms)
		return;
	e->where = (u8)smbios_dimm_of(map->dimms, e->phys, idx, 2, &n);
	e->nr_dimms = (u8)MIN(n, 255u);
	for (unsigned int i = 0; i < n && i < 2; i++)
		e->dimm[i] = idx[i];
}

bool soak_bucket_has_node(unsigned int type)
{
	return type <= SOAK_BUCKET_RANGE || type == SOAK_BUCKET_UMC;
}

bool soak_same_umc_dimm(const struct soak_bucket *a, const struct soak_bucket *b)
{
	return a->type == SOAK_BUCKET_UMC && b->type == SOAK_BUCKET_UMC &&
	       a->umc_node == b->umc_node && a->umc == b->umc && a->umc_dimm == b->umc_dimm;
}

static bool same_key(const struct soak_bucket *a, const struct soak_bucket *b)
{
	if (a->type != b->type)
		return false;
	if (a->type == SOAK_BUCKET_DIMM)
		return a->dimm == b->dimm;
	if (a->type == SOAK_BUCKET_UMC)
		return soak_same_umc_dimm(a, b) && a->umc_rank == b->umc_rank;
	if (a->type == SOAK_BUCKET_RANGE)
		return a->node == b->node && a->base == b->base && a->size == b->size;
	return true;
}

/* The bucket with @key's key in @b[0..*nr), added when new; the last slot is "other". */
static struct soak_bucket *bucket_of(struct soak_bucket *b, unsigned int *nr,
				     const struct soak_bucket *key)
{
	struct soak_bucket *other = &b[SOAK_MAX_BUCKETS - 1];

	for (unsigned int i = 0; i < *nr; i++) {
		if (!same_key(&b[i], key))
			continue;
		/* A UMC bucket's memory node is no part of its key: the lowest known one. */
		if (b[i].type == SOAK_BUCKET_UMC && key->node < b[i].node)
			__atomic_store_n(&b[i].node, key->node, __ATOMIC_RELAXED);
		return &b[i];
	}
	/* A bucket is published (release) after its key: see soak_ledger_snapshot(). */
	if (*nr < SOAK_MAX_BUCKETS - 1) {
		b[*nr] = *key;
		memset(b[*nr].count, 0, sizeof(b[*nr].count));
		__atomic_store_n(nr, *nr + 1, __ATOMIC_RELEASE);
		return &b[*nr - 1];
	}
	if (*nr == SOAK_MAX_BUCKETS - 1) {
		memset(other, 0, sizeof(*other));
		other->type = SOAK_BUCKET_OTHER;
		__atomic_store_n(nr, *nr + 1, __ATOMIC_RELEASE);
	}
	return other;
}

static void key_of(const struct soak_event *e, struct soak_bucket *k)
{
	memset(k, 0, sizeof(*k));
	if (e->flags & SOAK_EVF_UMC) {
		struct dimm_bank b = { .status = e->status, .synd = e->synd, .ipid = e->ipid,
				       .node = e->cpu_node, .smca = true };
		struct dimm_loc d = dimm_decode(&b);

		k->type = SOAK_BUCKET_UMC;
		k->node = e->node;
		k->umc_node = e->cpu_node;
		k->umc = (u16)d.umc;
		k->umc_dimm = (u8)d.dimm;
		k->umc_rank = (u8)d.rank;
	} else if (!(e->flags & SOAK_EVF_PHYS)) {
		k->type = SOAK_BUCKET_NO_ADDRESS;
	} else if (e->where == SMBIOS_ONE_DIMM) {
		k->type = SOAK_BUCKET_DIMM;
		k->dimm = e->dimm[0];
		k->node = e->node;
	} else {
		k->type = SOAK_BUCKET_RANGE;
		k->node = e->node;
		k->where = e->where;
		k->base = e->range_base;
		k->size = e->range_size;
	}
}

/* Counters another CPU may read while this one records: single stores (atomic, relaxed). */
static void add_count(u32 *c)
{
	if (*c != ~0u)
		__atomic_store_n(c, *c + 1, __ATOMIC_RELAXED);
}

static void add_count64(u64 *c)
{
	__atomic_store_n(c, *c + 1, __ATOMIC_RELAXED);
}

/*
 * In this order: the kind's count, its bucket's count, then the entry, published (release)
 * after it is whole; an entry below the published count is never written again.
 */
static void record(struct soak_ledger *l, struct soak_event *e)
{
	struct soak_bucket key;

	if (e->flags & SOAK_EVF_PHYS)
		attribute(l->map, e);
	l->last = *e;
	key_of(e, &key);
	add_count64(&l->count[e->kind]);
	if (e->node < NUMA_MAX_NODES)
		add_count64(&l->node_count[e->node][e->kind]);
	add_count(&bucket_of(l->bucket, &l->nr_buckets, &key)->count[e->kind]);
	if (l->nr < l->cap) {
		l->ev[l->nr] = *e;
		__atomic_store_n(&l->nr, l->nr + 1, __ATOMIC_RELEASE);
	} else {
		add_count64(&l->not_stored);
	}
}

unsigned int soak_ledger_stored(const struct soak_ledger *l)
{
	return __atomic_load_n(&l->nr, __ATOMIC_ACQUIRE);
}

void soak_ledger_snapshot(struct soak_ledger *to, const struct soak_ledger *from)
{
	unsigned int nr = __atomic_load_n(&from->nr_buckets, __ATOMIC_ACQUIRE);

	memset(to, 0, sizeof(*to));
	to->map = from->map;
	for (int k = 0; k < NR_SOAK_EV; k++)
		to->count[k] = __atomic_load_n(&from->count[k], __ATOMIC_RELAXED);
	for (int n = 0; n < NUMA_MAX_NODES; n++)
		for (int k = 0; k < NR_SOAK_EV; k++)
			to->node_count[n][k] = __atomic_load_n(&from->node_count[n][k],
							       __ATOMIC_RELAXED);
	to->not_stored = __atomic_load_n(&from->not_stored, __ATOMIC_RELAXED);
	/* The published entries, shared read-only: their writer never touches them again. */
	to->ev = from->ev;
	to->nr = soak_ledger_stored(from);
	to->nr_buckets = MIN(nr, (unsigned int)SOAK_MAX_BUCKETS);
	for (unsigned int i = 0; i < to->nr_buckets; i++) {
		const struct soak_bucket *b = &from->bucket[i];
		struct soak_bucket *c = &to->bucket[i];

		c->type = b->type;	/* the key: written before the bucket was published */
		c->node = __atomic_load_n(&b->node, __ATOMIC_RELAXED);	/* UMC: may fall */
		c->where = b->where;
		c->dimm = b->dimm;
		c->umc_node = b->umc_node;
		c->umc = b->umc;
		c->umc_dimm = b->umc_dimm;
		c->umc_rank = b->umc_rank;
		c->base = b->base;
		c->size = b->size;
		for (int k = 0; k < NR_SOAK_EV; k++)
			c->count[k] = __atomic_load_n(&b->count[k], __ATOMIC_RELAXED);
	}
}

static void event_init(struct soak_event *e, u64 t_ns, u16 cpu, enum soak_ev_kind kind)
{
	memset(e, 0, sizeof(*e));
	e->t_ns = t_ns;
	e->cpu = cpu;
	e->kind = (u8)kind;
	e->copy_op = -1;
	e->node = SOAK_NO_NODE;
	e->cpu_node = SOAK_NO_NODE;
	e->where = SMBIOS_NO_MAP;
}

void soak_ledger_mca(struct soak_ledger *l, u64 t_ns, u16 cpu, enum soak_ev_kind kind,
		     const struct soak_mca *m)
{
	struct mce_addr_src src = { .amd = m->amd, .smca = m->smca, .hygon = m->hygon,
				    .ser_p = m->ser_p, .bank = m->bank };
	struct mce_addr a = mce_decode_addr(m->status, m->addr, m->misc, &src);
	struct soak_event e;

	event_init(&e, t_ns, cpu, kind);
	e.flags = SOAK_EVF_MCA | (m->amd ? SOAK_EVF_AMD : 0) | (m->smca ? SOAK_EVF_SMCA : 0) |
		  (m->hygon ? SOAK_EVF_HYGON : 0);
	if (m->status & MCI_STATUS_OVER)
		e.flags |= SOAK_EVF_OVER;
	e.bank = m->bank;
	e.status = m->status;
	e.addr = m->addr;
	e.misc = m->misc;
	e.cpu_node = m->cpu_node >= 0 && m->cpu_node < SOAK_NO_NODE ? (u8)m->cpu_node
								     : SOAK_NO_NODE;
	if (m->smca) {
		struct dimm_bank b = { .status = m->status, .synd = m->synd, .ipid = m->ipid,
				       .node = e.cpu_node, .smca = true };

		e.ipid = m->ipid;
		e.synd = m->synd;
		/* UMC numbers repeat on every node: without the node, no rank's bucket. */
		if (dimm_decode(&b).why == DIMM_KNOWN && e.cpu_node != SOAK_NO_NODE)
			e.flags |= SOAK_EVF_UMC;
	}
	if (a.valid) {
		e.flags |= SOAK_EVF_PHYS;
		e.phys = a.phys;
		e.lsb = (u8)a.lsb;
	}
	record(l, &e);
}

void soak_ledger_poison(struct soak_ledger *l, u64 t_ns, u16 cpu, u64 phys, unsigned int lsb)
{
	struct soak_event e;

	event_init(&e, t_ns, cpu, SOAK_EV_UC_RECOVERED);
	e.flags = SOAK_EVF_PHYS;
	e.lsb = (u8)MIN(lsb, 63u);
	e.phys = phys & ~((1ULL << e.lsb) - 1);
	record(l, &e);
}

enum soak_reread soak_reread_class(u64 expected, u64 actual, u64 reread)
{
	if (reread == expected)
		return SOAK_REREAD_READ_ERROR;
	return reread == actual ? SOAK_REREAD_STORED : SOAK_REREAD_UNSTABLE;
}

void soak_ledger_miscompare(struct soak_ledger *l, u64 t_ns, u16 cpu, u64 phys, u64 expected,
			    u64 actual, const struct soak_writer *w, bool reread, u64 reread_value)
{
	struct soak_event e;

	event_init(&e, t_ns, cpu, SOAK_EV_MISCOMPARE);
	e.flags = SOAK_EVF_PHYS;
	e.lsb = 3;			/* one 64-bit word */
	e.phys = phys & ~7ULL;
	e.expected = expected;
	e.actual = actual;
	e.how = (u8)w->how;
	e.pat = (u8)w->pat;
	e.copy_op = (s8)w->copy_op;
	e.reread = reread ? (u8)soak_reread_class(expected, actual, reread_value)
			  : SOAK_REREAD_NONE;
	e.reread_value = reread ? reread_value : 0;
	record(l, &e);
}

void soak_ledger_stuck(struct soak_ledger *l, u64 t_ns, u16 cpu, u8 node, u64 rip)
{
	struct soak_event e;

	event_init(&e, t_ns, cpu, SOAK_EV_STUCK_CPU);
	e.rip = rip;
	e.node = node;
	record(l, &e);
}

void soak_ledger_retire(struct soak_ledger *l, u64 t_ns, u16 cpu, u64 phys,
			enum soak_ev_kind cause)
{
	struct soak_event e;

	event_init(&e, t_ns, cpu, SOAK_EV_RETIRED_PAGE);
	e.flags = SOAK_EVF_PHYS;
	e.lsb = 12;
	e.phys = phys & ~0xfffULL;
	e.cause = (u8)cause;
	record(l, &e);
}

void soak_totals_init(struct soak_totals *t)
{
	memset(t, 0, sizeof(*t));
}

/* @e into @f when it is the earliest so far. */
static void take_first(struct soak_first *f, const struct soak_event *e)
{
	struct soak_bucket k;

	if (f->known && e->t_ns >= f->t_ns)
		return;
	key_of(e, &k);
	*f = (struct soak_first){ .known = true, .cpu = e->cpu, .t_ns = e->t_ns,
				  .phys_known = e->flags & SOAK_EVF_PHYS,
				  .umc_known = k.type == SOAK_BUCKET_UMC };
	if (f->phys_known)
		f->phys = e->phys;
	if (f->umc_known) {
		f->umc_node = k.umc_node;
		f->cs = (u8)(2 * k.umc_dimm + k.umc_rank);
		f->umc = k.umc;
	}
}

void soak_totals_add(struct soak_totals *t, const struct soak_ledger *l)
{
	for (unsigned int i = 0; i < l->nr; i++) {
		const struct soak_event *e = &l->ev[i];

		if (e->kind >= NR_SOAK_EV || !(e->flags & (SOAK_EVF_PHYS | SOAK_EVF_UMC)))
			continue;
		take_first(&t->first[e->kind], e);
		if (e->node < NUMA_MAX_NODES)
			take_first(&t->node_first[e->node][e->kind], e);
	}
	for (int k = 0; k < NR_SOAK_EV; k++)
		t->count[k] += l->count[k];
	for (int n = 0; n < NUMA_MAX_NODES; n++)
		for (int k = 0; k < NR_SOAK_EV; k++)
			t->node_count[n][k] += l->node_count[n][k];
	t->not_stored += l->not_stored;
	for (unsigned int i = 0; i < l->nr_buckets; i++) {
		const struct soak_bucket *b = &l->bucket[i];
		struct soak_bucket *to = bucket_of(t->bucket, &t->nr_buckets, b);

		for (int k = 0; k < NR_SOAK_EV; k++) {
			u64 sum = (u64)to->count[k] + b->count[k];

			to->count[k] = sum > ~0u ? ~0u : (u32)sum;
		}
	}
}

/* Whether bucket @b counts for @node (-1: the whole soak). */
static bool bucket_of_node(const struct soak_bucket *b, int node)
{
	return node < 0 || (soak_bucket_has_node(b->type) && b->node == node);
}

/*
 * Bucket @i's count of @kind as the threshold sees it: a UMC bucket's DIMM counts all its
 * ranks (of @node's buckets; -1 every one), as the per-DIMM threshold means; 0 for a rank
 * of a DIMM an earlier bucket already stood for.
 */
static u64 bucket_count(const struct soak_totals *t, unsigned int i, int node, unsigned int kind)
{
	const struct soak_bucket *b = &t->bucket[i];
	u64 n = b->count[kind];

	if (b->type != SOAK_BUCKET_UMC)
		return n;
	for (unsigned int j = 0; j < t->nr_buckets; j++) {
		if (j == i || !soak_same_umc_dimm(b, &t->bucket[j]) ||
		    !bucket_of_node(&t->bucket[j], node))
			continue;
		if (j < i)
			return 0;
		n += t->bucket[j].count[kind];
	}
	return n;
}

/* soak_rules[] in order over the whole soak (@node -1) or over node @node's own. */
static void judge(const struct soak_totals *t, int node, struct soak_verdict *v)
{
	u64 threshold = t->ce_threshold ? t->ce_threshold : SOAK_CE_THRESHOLD;

	*v = (struct soak_verdict){ .pass = true, .rule = -1, .bucket = -1 };
	for (unsigned int r = 0; r < soak_nr_rules; r++) {
		const struct soak_rule *rule = &soak_rules[r];
		u64 limit = rule->threshold ? threshold : 0;
		u64 n = node < 0 ? t->count[rule->kind] : t->node_count[node][rule->kind];

		if (rule->scope == SOAK_SCOPE_RUN && n > limit) {
			*v = (struct soak_verdict){ .rule = (int)r, .bucket = -1, .count = n,
						    .limit = limit };
			return;
		}
		if (rule->scope == SOAK_SCOPE_NOTHING_SOAKED && node < 0 && !t->bytes_verified) {
			*v = (struct soak_verdict){ .rule = (int)r, .bucket = -1 };
			return;
		}
		if (rule->scope != SOAK_SCOPE_BUCKET)
			continue;
		for (unsigned int i = 0; i < t->nr_buckets; i++) {
			u64 c = bucket_count(t, i, node, rule->kind);

			if (bucket_of_node(&t->bucket[i], node) && c > limit) {
				*v = (struct soak_verdict){ .rule = (int)r, .bucket = (int)i,
							    .count = c, .limit = limit };
				return;
			}
		}
	}
}

void soak_judge(const struct soak_totals *t, struct soak_verdict *v)
{
	judge(t, -1, v);
}

void soak_judge_node(const struct soak_totals *t, unsigned int node, struct soak_verdict *v)
{
	if (node >= NUMA_MAX_NODES) {
		*v = (struct soak_verdict){ .pass = true, .rule = -1, .bucket = -1 };
		return;
	}
	judge(t, (int)node, v);
	v->of_node = true;
	v->node = (u8)node;
}
