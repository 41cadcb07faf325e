// SPDX-License-Identifier: GPL-2.0-only
/*
 * blackbox.c - the soak checkpoint variable: its wrapper, the writer's pacing, and the next
 * boot's words for what it found (blackbox.h).
 */
#include "kernel/include/errno.h"
#include "kernel/include/unaligned.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "soak/blackbox.h"
#include "soak/report.h"

static const char magic[4] = { 'C', 'K', 'B', '1' };

/* The record's counts by kind, as the JSON and the tools name them (report.c's keys). */
static const char *const count_keys[NR_SOAK_EV] = {
	"corrected", "deferred", "uncorrected", "miscompares", "stuck_cpus", "retired_pages",
};
static const char *const bucket_types[] = { "dimm", "range", "no_address", "other", "umc" };

static void put32(u8 *p, u32 v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (u8)(v >> (8 * i));
}

size_t bb_encode(const struct bb_header *h, const u8 *rec, size_t rec_len, u8 *buf,
		 size_t size)
{
	size_t len = BB_HEADER + rec_len;

	if (size < len)
		return 0;
	memset(buf, 0, BB_HEADER);
	memcpy(buf, magic, 4);
	put32(buf + 4, h->run_id);
	put32(buf + 8, h->seq);
	put32(buf + 12, h->reported_by);
	for (size_t i = 0; i < BB_STARTED && h->started[i]; i++)
		buf[16 + i] = h->started[i] >= 0x20 && h->started[i] < 0x7f ? (u8)h->started[i]
									 : '?';
	put32(buf + 40, soak_crc32(buf, 40));
	memcpy(buf + BB_HEADER, rec, rec_len);
	return len;
}

int bb_decode(const u8 *buf, size_t len, struct bb_var *v, const char **why)
{
	memset(v, 0, sizeof(*v));
	*why = NULL;
	if (len < 4 || memcmp(buf, magic, 4))
		*why = "not a copykernel soak checkpoint variable (no CKB1 magic)";
	else if (len < BB_HEADER)
		*why = "shorter than its 44-byte header";
	else if (soak_crc32(buf, 40) != get_le32(buf + 40))
		*why = "bad header CRC (a torn or corrupt write)";
	else if (!soak_take_ascii(buf + 16, BB_STARTED, v->h.started))
		*why = "its start time is not printable ASCII padded with NULs";
	else if (!get_le32(buf + 4) || !get_le32(buf + 8))
		*why = "run id or checkpoint count 0";
	if (*why)
		return -1;
	v->h.run_id = get_le32(buf + 4);
	v->h.seq = get_le32(buf + 8);
	v->h.reported_by = get_le32(buf + 12);
	v->rec = buf + BB_HEADER;
	v->rec_len = len - BB_HEADER;
	if (soak_ckpt_decode(v->rec, v->rec_len, &v->c, why))
		return -1;
	return 0;
}

void bb_prev_from(struct bb_prev *p, const struct boot_var *bv)
{
	memset(p, 0, sizeof(*p));
	switch (bv->state) {
	case BOOT_VAR_ABSENT:
		p->state = BB_PREV_NONE;
		return;
	case BOOT_VAR_READ:
		break;
	case BOOT_VAR_TOO_BIG:
		p->state = BB_PREV_UNREAD;
		p->why = "it is larger than any checkpoint (bytes)";
		p->value = bv->len;
		return;
	case BOOT_VAR_ERROR:
		p->state = BB_PREV_UNREAD;
		p->why = "the firmware's GetVariable failed (error)";
		p->value = bv->err;
		return;
	default:
		p->state = BB_PREV_UNREAD;
		p->why = "boot/ had no runtime services to read it with";
		return;
	}
	if (bv->len > sizeof(bv->data) ||
	    bb_decode(bv->data, bv->len, &p->v, &p->why)) {
		if (!p->why)
			p->why = "longer than boot/'s buffer";
		p->state = BB_PREV_DAMAGED;
		return;
	}
	p->state = p->v.c.flags & SOAK_CKPT_FINAL ? BB_PREV_FINISHED : BB_PREV_UNFINISHED;
}

size_t bb_duration(u64 ns, char *buf, size_t size)
{
	u64 s = ns / 1000000000ULL;

	if (s >= 3600)
		return (size_t)ck_snprintf(buf, size, "%lluh%02llum%02llus",
					   (unsigned long long)(s / 3600),
					   (unsigned long long)(s / 60 % 60),
					   (unsigned long long)(s % 60));
	if (s >= 60)
		return (size_t)ck_snprintf(buf, size, "%llum%02llus", (unsigned long long)(s / 60),
					   (unsigned long long)(s % 60));
	return (size_t)ck_snprintf(buf, size, "%llu.%03llus", (unsigned long long)s,
				   (unsigned long long)(ns / 1000000 % 1000));
}

static void put_counts(char *buf, size_t size, size_t *len, const u32 *c)
{
	ck_appendf(buf, size, len, "CE %u, UE %u, deferred %u, miscompares %u",
		   c[SOAK_EV_CORRECTED], c[SOAK_EV_UC_RECOVERED], c[SOAK_EV_DEFERRED],
		   c[SOAK_EV_MISCOMPARE]);
}

/* The worst bucket (the record keeps them worst first), or that there is none. */
static void put_worst(char *buf, size_t size, size_t *len, const struct soak_ckpt *c)
{
	const struct soak_ckpt_bucket *b = &c->bucket[0];

	if (!c->nr_buckets) {
		ck_appendf(buf, size, len, "none (no error so far)");
		return;
	}
	soak_ckpt_where(buf, size, len, b);
	ck_appendf(buf, size, len, " (");
	put_counts(buf, size, len, b->count);
	ck_appendf(buf, size, len, ")");
}

static size_t put_unread(const struct bb_prev *p, char *buf, size_t size)
{
	if (p->state == BB_PREV_NONE)
		return (size_t)ck_snprintf(buf, size, "no soak checkpoint from an earlier run");
	if (p->state == BB_PREV_DAMAGED)
		return (size_t)ck_snprintf(buf, size, "the soak checkpoint variable %s is damaged "
					   "(%s): ignored", BOOT_CKPT_VAR, p->why);
	if (p->value)
		return (size_t)ck_snprintf(buf, size, "the soak checkpoint variable %s could not "
					   "be read: %s %u", BOOT_CKPT_VAR, p->why, p->value);
	return (size_t)ck_snprintf(buf, size, "the soak checkpoint variable %s could not be "
				   "read: %s", BOOT_CKPT_VAR, p->why);
}

size_t bb_prev_text(const struct bb_prev *p, char *buf, size_t size)
{
	const struct soak_ckpt *c = &p->v.c;
	char took[32];
	size_t len = 0;

	if (p->state != BB_PREV_UNFINISHED && p->state != BB_PREV_FINISHED)
		return put_unread(p, buf, size);
	if (size)
		buf[0] = '\0';
	bb_duration(c->elapsed_ns, took, sizeof(took));
	ck_appendf(buf, size, &len, "previous run %08x", p->v.h.run_id);
	if (p->v.h.reported_by)
		ck_appendf(buf, size, &len, " (already reported by run %08x)", p->v.h.reported_by);
	/* Unfinished: the time is the last checkpoint's; the soak may have run on after it. */
	if (p->state == BB_PREV_FINISHED)
		ck_appendf(buf, size, &len, " ended with its soak summary after %s; its last "
			   "checkpoint (%u written): ", took, p->v.h.seq);
	else
		ck_appendf(buf, size, &len, " ended without a summary; its last checkpoint (%u "
			   "written) was %s into the soak: ", p->v.h.seq, took);
	ck_appendf(buf, size, &len, "passes %u, bytes %llu, ", c->passes,
		   (unsigned long long)c->bytes_verified);
	put_counts(buf, size, &len, c->count);
	ck_appendf(buf, size, &len, ", stuck CPUs %u, retired pages %u, %s so far; worst: ",
		   c->count[SOAK_EV_STUCK_CPU], c->count[SOAK_EV_RETIRED_PAGE],
		   c->flags & SOAK_CKPT_FAILING ? "failing" : "passing");
	put_worst(buf, size, &len, c);
	if (c->flags & SOAK_CKPT_CMDLINE)
		ck_appendf(buf, size, &len, "; its command line had errors, so its verdict was "
			   "never PASS");
	soak_ckpt_misc_text(c, buf, size, &len);
	return len;
}

static void json_run(struct json_writer *w, const char *key, u32 run)
{
	char id[12];

	if (!run) {
		json_null(w, key);
		return;
	}
	ck_snprintf(id, sizeof(id), "%08x", run);
	json_str(w, key, id);
}

static void json_counts(struct json_writer *w, const char *key, const u32 *count)
{
	json_obj_begin(w, key);
	for (int k = 0; k < NR_SOAK_EV; k++)
		json_u64(w, count_keys[k], count[k]);
	json_obj_end(w);
}

static void json_buckets(struct json_writer *w, const struct soak_ckpt *c)
{
	json_arr_begin(w, "worst");
	for (unsigned int i = 0; i < c->nr_buckets; i++) {
		const struct soak_ckpt_bucket *b = &c->bucket[i];

		json_obj_begin(w, NULL);
		json_str(w, "type", bucket_types[b->type]);
		json_u64(w, "node", b->node);
		json_str(w, "dimm", b->type == SOAK_BUCKET_DIMM ? b->name : NULL);
		json_hex(w, "base", b->base);
		json_hex(w, "size", b->size);
		if (b->type == SOAK_BUCKET_UMC)
			soak_umc_json(w, b->umc_node, b->umc, b->cs, b->name[0] ? b->name : NULL);
		else
			json_null(w, "umc");
		json_counts(w, "counts", b->count);
		json_obj_end(w);
	}
	json_arr_end(w);
}

static void json_record_of(struct json_writer *w, const struct bb_var *v)
{
	const struct soak_ckpt *c = &v->c;

	json_run(w, "run_id", v->h.run_id);
	json_run(w, "reported_by", v->h.reported_by);
	json_str(w, "started", v->h.started[0] ? v->h.started : NULL);
	json_u64(w, "checkpoints", v->h.seq);
	json_bool(w, "final", c->flags & SOAK_CKPT_FINAL);
	json_bool(w, "failing", c->flags & SOAK_CKPT_FAILING);
	json_bool(w, "cmdline_errors", c->flags & SOAK_CKPT_CMDLINE);
	if (c->rule == SOAK_CKPT_NONE)
		json_null(w, "rule");
	else
		json_u64(w, "rule", c->rule);
	json_u64(w, "elapsed_ns", c->elapsed_ns);
	json_u64(w, "passes", c->passes);
	json_u64(w, "cpus", c->cpus);
	json_u64(w, "bytes_verified", c->bytes_verified);
	json_u64(w, "bytes_per_pass", c->bytes_per_pass);
	json_hex(w, "seed", c->seed);
	json_counts(w, "counts", c->count);
	json_u64(w, "not_stored", c->not_stored);
	if (c->first.kind == SOAK_CKPT_NONE) {
		json_null(w, "first");
	} else {
		json_obj_begin(w, "first");
		json_str(w, "event", soak_ev_name((enum soak_ev_kind)c->first.kind));
		json_u64(w, "cpu", c->first.cpu);
		json_hex(w, "phys", c->first.phys);
		json_u64(w, "t_ns", c->first.t_ns);
		json_obj_end(w);
	}
	json_buckets(w, c);
	json_arr_begin(w, "miscompares");
	for (unsigned int i = 0; i < c->nr_misc; i++) {
		const struct soak_ckpt_misc *m = &c->misc[i];

		json_obj_begin(w, NULL);
		json_hex(w, "phys", m->phys);
		json_hex(w, "expected", m->expected);
		json_hex(w, "actual", m->actual);
		json_u64(w, "cpu", m->cpu);
		json_u64(w, "t_ns", m->t_ns);
		json_str(w, "pattern", soak_pat_name((enum soak_pat)m->pat));
		json_obj_end(w);
	}
	json_arr_end(w);
}

void bb_prev_json(struct json_writer *w, const char *key, const struct bb_prev *p)
{
	static const char *const states[] = { "none", "unreadable", "damaged", "unfinished",
					      "finished" };
	char text[1024];

	json_obj_begin(w, key);
	json_str(w, "state", states[p->state]);
	if (p->state == BB_PREV_UNFINISHED || p->state == BB_PREV_FINISHED)
		json_record_of(w, &p->v);
	else
		json_str(w, "why", p->why);
	bb_prev_text(p, text, sizeof(text));
	json_str(w, "text", text);
	json_obj_end(w);
}

void bb_writer_init(struct bb_writer *w, bb_set_var_fn set_var, u64 (*now_ns)(void),
		    u32 run_id, const char *started)
{
	memset(w, 0, sizeof(*w));
	w->set_var = set_var;
	w->now_ns = now_ns;
	w->h.run_id = run_id;
	for (size_t i = 0; started && started[i] && i < BB_STARTED; i++)
		w->h.started[i] = started[i];
	w->last_ns = ~0ULL;
}

/* The kinds of event @c has counted, a bit each (1 << SOAK_EV_*). */
static u32 kinds_of(const struct soak_ckpt *c)
{
	u32 m = 0;

	for (int k = 0; k < NR_SOAK_EV; k++)
		if (c->count[k])
			m |= 1u << k;
	return m;
}

/* The pacing of blackbox.h: whether @c may be written at @now. */
static bool due(const struct bb_writer *w, u64 now, const struct soak_ckpt *c)
{
	if (w->last_ns == ~0ULL || (c->flags & SOAK_CKPT_FINAL))
		return true;
	if (kinds_of(c) & ~w->kinds)
		return true;
	return now >= w->last_ns && now - w->last_ns >= BB_INTERVAL_NS;
}

int bb_write(struct bb_writer *w, const void *rec, size_t len)
{
	static u8 buf[BB_MAX];
	struct bb_header h = w->h;
	struct soak_ckpt c;
	const char *why;
	u64 t0, t1;
	int err;

	if (!rec || len > SOAK_CKPT_MAX || soak_ckpt_decode(rec, len, &c, &why)) {
		w->refused_bad++;
		return -EINVAL;
	}
	t0 = w->now_ns();
	if (!due(w, t0, &c)) {
		w->refused_rate++;
		return -EAGAIN;
	}
	h.seq++;
	len = bb_encode(&h, rec, len, buf, sizeof(buf));
	err = w->set_var ? w->set_var(BOOT_CKPT_VAR, buf, len) : -EIO;
	t1 = w->now_ns();
	w->slowest_ns = MAX(w->slowest_ns, t1 >= t0 ? t1 - t0 : 0);
	if (err) {
		w->failed++;
		w->last_err = err;
		return -EIO;
	}
	w->h.seq = h.seq;
	w->last_ns = t0;
	w->kinds = kinds_of(&c);
	w->final |= c.flags & SOAK_CKPT_FINAL;
	w->last_elapsed_ns = c.elapsed_ns;
	return 0;
}

void bb_writer_json(struct json_writer *j, const char *key, const struct bb_writer *w)
{
	json_obj_begin(j, key);
	json_u64(j, "written", w->h.seq);
	json_bool(j, "final", w->final);
	json_u64(j, "refused_rate", w->refused_rate);
	json_u64(j, "refused_bad", w->refused_bad);
	json_u64(j, "failed", w->failed);
	json_s64(j, "last_error", w->last_err);
	json_u64(j, "slowest_us", w->slowest_ns / 1000);
	json_obj_end(j);
}
