// SPDX-License-Identifier: GPL-2.0-only
/*
 * speed.c - the all-core probe's limits and the schedule's rows as rates and shares of them,
 * as lines and records (soak/speed.h).
 */
#include "kernel/include/math64.h"
#include "kernel/lib/format.h"
#include "kernel/lib/json.h"
#include "soak/speed.h"

#define HV_NOTE	"under a hypervisor: these are the emulator's or the host's figures and say " \
		"nothing about the hardware"

const char *const soak_probe_names[NR_SOAK_PROBE] = { "nt-write", "read", "copy" };

u64 soak_mbps(u64 bytes, u64 ns)
{
	return ns ? mul_div_u64(bytes, 1000, ns) : 0;
}

void soak_probe_add(struct soak_probe *p, enum soak_probe_stream s, u64 bytes, u64 ns)
{
	if (!ns)
		return;
	p->mbps[s] += soak_mbps(bytes, ns);
	p->bytes[s] += bytes;
	p->cpus[s]++;
}

void soak_speed_fold(struct soak_speed_row *r, unsigned int row, const char *name,
		     const struct soak_row_count *c, unsigned int n)
{
	*r = (struct soak_speed_row){ .row = row, .name = name, .read_x1000 = -1,
				      .copy_half_x1000 = -1, .copy_x1000 = -1 };
	for (unsigned int i = 0; i < n; i++) {
		if (!c[i].ns)
			continue;
		r->passes = r->cpus ? MIN(r->passes, c[i].passes) : c[i].passes;
		r->cpus++;
		r->ns = MAX(r->ns, c[i].ns);
		r->checked_mbps += soak_mbps(c[i].read, c[i].ns);
		r->traffic_mbps += soak_mbps(c[i].read + c[i].written + 2 * c[i].copied, c[i].ns);
	}
}

/* @v over @limit / @div in parts per thousand, -1 without a limit. */
static s64 share(u64 v, u64 limit, unsigned int div)
{
	return limit ? (s64)mul_div_u64(v, 1000ULL * div, limit) : -1;
}

void soak_speed_shares(struct soak_speed_row *r, const struct soak_probe *p)
{
	r->read_x1000 = share(r->checked_mbps, p->mbps[SOAK_PROBE_READ], 1);
	r->copy_half_x1000 = share(r->checked_mbps, p->mbps[SOAK_PROBE_COPY], 2);
	r->copy_x1000 = share(r->traffic_mbps, p->mbps[SOAK_PROBE_COPY], 1);
}

/* ---- lines ---------------------------------------------------------------------------- */

struct text {
	char *buf;
	size_t size, len;
};

#define tprintf(t, ...)	ck_appendf((t)->buf, (t)->size, &(t)->len, __VA_ARGS__)

static void text_init(struct text *t, char *buf, size_t size)
{
	*t = (struct text){ buf, size, 0 };
	if (size)
		buf[0] = '\0';
}

static void gbps(struct text *t, u64 mbps)
{
	tprintf(t, "%llu.%03llu GB/s", (unsigned long long)(mbps / 1000),
		(unsigned long long)(mbps % 1000));
}

static void pct(struct text *t, const char *what, s64 x1000)
{
	if (x1000 < 0)
		tprintf(t, "%s: no limit", what);
	else
		tprintf(t, "%s %lld.%lld%%", what, (long long)(x1000 / 10), (long long)(x1000 % 10));
}

size_t soak_probe_text(const struct soak_probe *p, char *buf, size_t size)
{
	struct text t;

	text_init(&t, buf, size);
	tprintf(&t, "soak: probe: every soaking CPU at once (%u CPUs, up to %llu KiB each), "
		"traffic:", p->nr_cpus, (unsigned long long)(p->window >> 10));
	for (int s = 0; s < NR_SOAK_PROBE; s++) {
		tprintf(&t, "%s %s ", s ? "," : "", soak_probe_names[s]);
		if (!p->cpus[s]) {
			tprintf(&t, "not measured");
			continue;
		}
		gbps(&t, p->mbps[s]);
		if (p->cpus[s] < p->nr_cpus)
			tprintf(&t, " (%u of the CPUs)", p->cpus[s]);
		if (s == SOAK_PROBE_COPY && p->copy)
			tprintf(&t, " (%s)", p->copy);
	}
	tprintf(&t, "; the probe took %llu.%03llus", (unsigned long long)(p->took_ns / 1000000000ULL),
		(unsigned long long)(p->took_ns / 1000000 % 1000));
	if (p->hypervisor)
		tprintf(&t, "; " HV_NOTE);
	return t.len;
}

/* The probe record's limits, by stream (enum soak_probe_stream). */
static const char *const limit_keys[NR_SOAK_PROBE] = {
	[SOAK_PROBE_NT_WRITE] = "nt_write_mbps",
	[SOAK_PROBE_READ] = "read_mbps",
	[SOAK_PROBE_COPY] = "copy_mbps",
};

size_t soak_probe_json(const struct soak_probe *p, char *buf, size_t size)
{
	struct json_writer w;

	json_record(&w, buf, size, "soak_probe");
	json_u64(&w, "cpus", p->nr_cpus);
	json_u64(&w, "window_bytes", p->window);
	for (unsigned int s = 0; s < ARRAY_SIZE(limit_keys); s++)
		json_u64_or_null(&w, limit_keys[s], p->cpus[s], p->mbps[s]);
	json_u64(&w, "nt_write_cpus", p->cpus[SOAK_PROBE_NT_WRITE]);
	json_u64(&w, "read_cpus", p->cpus[SOAK_PROBE_READ]);
	json_u64(&w, "copy_cpus", p->cpus[SOAK_PROBE_COPY]);
	if (p->cpus[SOAK_PROBE_COPY] && p->copy)
		json_str(&w, "copy", p->copy);
	else
		json_null(&w, "copy");
	json_u64(&w, "took_ns", p->took_ns);
	json_bool(&w, "hypervisor", p->hypervisor);
	json_end(&w);
	return w.len;
}

size_t soak_speed_text(const struct soak_speed_row *r, const char *lead, bool hypervisor,
		       char *buf, size_t size)
{
	struct text t;

	text_init(&t, buf, size);
	tprintf(&t, "%spass row %u (%s), %u whole pass%s on each of %u CPUs, %llu.%03llus "
		"at most on one: checked ", lead, r->row, r->name, r->passes, r->passes == 1 ? "" : "es",
		r->cpus, (unsigned long long)(r->ns / 1000000000ULL),
		(unsigned long long)(r->ns / 1000000 % 1000));
	gbps(&t, r->checked_mbps);
	tprintf(&t, ", traffic ");
	gbps(&t, r->traffic_mbps);
	tprintf(&t, "; of the probe's limits: ");
	pct(&t, "checked/read", r->read_x1000);
	tprintf(&t, ", ");
	pct(&t, "checked/(copy/2)", r->copy_half_x1000);
	tprintf(&t, ", ");
	pct(&t, "traffic/copy", r->copy_x1000);
	if (hypervisor)
		tprintf(&t, "; " HV_NOTE);
	return t.len;
}

/* A share in thousandths; negative: no limit to take it of. */
static void share_json(struct json_writer *w, const char *key, s64 x1000)
{
	json_u64_or_null(w, key, x1000 >= 0, (u64)x1000);
}

size_t soak_speed_json(const struct soak_speed_row *r, bool hypervisor, char *buf, size_t size)
{
	struct json_writer w;

	json_record(&w, buf, size, "soak_speed");
	json_u64(&w, "row", r->row);
	json_str(&w, "pass", r->name);
	json_u64(&w, "cpus", r->cpus);
	json_u64(&w, "passes", r->passes);
	json_u64(&w, "ns", r->ns);
	json_u64(&w, "checked_mbps", r->checked_mbps);
	json_u64(&w, "traffic_mbps", r->traffic_mbps);
	share_json(&w, "checked_read_x1000", r->read_x1000);
	share_json(&w, "checked_copy_half_x1000", r->copy_half_x1000);
	share_json(&w, "traffic_copy_x1000", r->copy_x1000);
	json_bool(&w, "hypervisor", hypervisor);
	json_end(&w);
	return w.len;
}
