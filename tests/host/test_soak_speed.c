// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_soak_speed.c - the image's all-core probe and per-row rates (soak/speed.c): folded,
 * compared and written. Every expected figure below is worked out by hand from the inputs
 * (MB/s = bytes / ns x 1000; a copy's traffic twice its bytes; a share = rate / limit), not
 * from the code's own arithmetic, and the lines and records are read back as a reader would
 * (the JSON through a hand-written scan of its members).
 */
#include "soak/speed.h"
#include "tests/host/host_test.h"

#define NS	1000000000ULL

static char buf[1024];

/* "key":VALUE of a record, as text up to the next comma or brace; "" when absent. */
static const char *member(const char *rec, const char *key)
{
	static char v[64];
	char pat[64];
	const char *p;
	size_t n = 0;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(rec, pat);
	v[0] = '\0';
	if (!p)
		return v;
	for (p += strlen(pat); *p && *p != ',' && *p != '}' && n < sizeof(v) - 1; p++)
		v[n++] = *p;
	v[n] = '\0';
	return v;
}

static void test_mbps(void)
{
	CHECK(soak_mbps(3000000000ULL, 1500000000ULL) == 2000, "3 GB in 1.5 s is 2000 MB/s: %llu",
	      (unsigned long long)soak_mbps(3000000000ULL, 1500000000ULL));
	CHECK(soak_mbps(1, 0) == 0, "no time, no rate");
	/* a 1 TiB server's row: 2^50 bytes in 2^40 ns does not overflow (1024 x 1000 MB/s) */
	CHECK(soak_mbps(1ULL << 50, 1ULL << 40) == 1024000, "2^50 B in 2^40 ns: %llu",
	      (unsigned long long)soak_mbps(1ULL << 50, 1ULL << 40));
}

/* Two CPUs of three ran the read; the probe's aggregate is the sum of their own rates. */
static struct soak_probe probe(bool hv)
{
	struct soak_probe p = { .nr_cpus = 3, .window = 8 << 20, .copy = "copy_mc_avx2_nt",
				.took_ns = 1234567890, .hypervisor = hv };

	soak_probe_add(&p, SOAK_PROBE_READ, 6 * NS, 2 * NS);		/* 3000 MB/s */
	soak_probe_add(&p, SOAK_PROBE_READ, 3 * NS, 1 * NS);		/* 3000 MB/s */
	soak_probe_add(&p, SOAK_PROBE_READ, 5 * NS, 0);			/* did not run */
	for (int i = 0; i < 3; i++) {
		soak_probe_add(&p, SOAK_PROBE_COPY, 4 * NS, 2 * NS);	/* 2000 MB/s each */
		soak_probe_add(&p, SOAK_PROBE_NT_WRITE, 1 * NS, 4 * NS);	/* 250 MB/s each */
	}
	return p;
}

static void test_probe(void)
{
	struct soak_probe p = probe(true);

	CHECK(p.mbps[SOAK_PROBE_READ] == 6000 && p.cpus[SOAK_PROBE_READ] == 2, "read: 6000 MB/s "
	      "from 2 CPUs: %llu from %u", (unsigned long long)p.mbps[SOAK_PROBE_READ],
	      p.cpus[SOAK_PROBE_READ]);
	CHECK(p.mbps[SOAK_PROBE_COPY] == 6000 && p.mbps[SOAK_PROBE_NT_WRITE] == 750,
	      "copy 6000, nt-write 750: %llu, %llu", (unsigned long long)p.mbps[SOAK_PROBE_COPY],
	      (unsigned long long)p.mbps[SOAK_PROBE_NT_WRITE]);
	soak_probe_text(&p, buf, sizeof(buf));
	CHECK(strstr(buf, "nt-write 0.750 GB/s, read 6.000 GB/s (2 of the CPUs), copy 6.000 GB/s "
		      "(copy_mc_avx2_nt)"), "the line: %s", buf);
	CHECK(strstr(buf, "say nothing about the hardware") && strstr(buf, "; the probe took "
	      "1.234s;"), "under a hypervisor it says so, and how long the probe took: %s", buf);
	soak_probe_json(&p, buf, sizeof(buf));
	CHECK(!strcmp(member(buf, "read_mbps"), "6000") && !strcmp(member(buf, "read_cpus"), "2")
	      && !strcmp(member(buf, "cpus"), "3") && !strcmp(member(buf, "hypervisor"), "true")
	      && !strcmp(member(buf, "took_ns"), "1234567890"),
	      "the record: %s", buf);
	p = probe(false);
	p.cpus[SOAK_PROBE_COPY] = 0;
	soak_probe_text(&p, buf, sizeof(buf));
	CHECK(!strstr(buf, "hypervisor") && strstr(buf, "copy not measured"), "on hardware, no "
	      "copy: %s", buf);
	soak_probe_json(&p, buf, sizeof(buf));
	CHECK(!strcmp(member(buf, "copy_mbps"), "null") && !strcmp(member(buf, "copy"), "null"),
	      "no copy: null: %s", buf);
}

static void test_row(void)
{
	/*
	 * CPU 0: 3 GB read, 1 GB written, 0.5 GB copied in 1.5 s: checked 2000 MB/s, traffic
	 * (3 + 1 + 1) GB / 1.5 s = 3333 MB/s; CPU 1: 1 GB read, 2 GB written in 1 s: 1000 and
	 * 3000; CPU 2 never reached the row (stuck or timed out): left out.
	 */
	const struct soak_row_count c[] = {
		{ 1500000000ULL, 3 * NS, 1 * NS, NS / 2, 2 },
		{ 1 * NS, 1 * NS, 2 * NS, 0, 1 },
		{ 0, 0, 0, 0, 0 },
	};
	struct soak_probe p = probe(false);
	struct soak_speed_row r;

	soak_speed_fold(&r, 1, "random", c, 3);
	CHECK(r.cpus == 2 && r.passes == 1 && r.ns == 1500000000ULL, "2 CPUs, 1 pass each, 1.5 s "
	      "at most: %u, %u, %llu", r.cpus, r.passes, (unsigned long long)r.ns);
	CHECK(r.checked_mbps == 3000 && r.traffic_mbps == 6333, "checked 3000, traffic 6333: %llu, "
	      "%llu", (unsigned long long)r.checked_mbps, (unsigned long long)r.traffic_mbps);
	CHECK(r.read_x1000 == -1 && r.copy_x1000 == -1, "no shares before the probe's");
	soak_speed_shares(&r, &p);
	/* 3000 / 6000, 3000 / (6000 / 2), 6333 / 6000 */
	CHECK(r.read_x1000 == 500 && r.copy_half_x1000 == 1000 && r.copy_x1000 == 1055,
	      "0.5, 1.0, 1.055: %lld %lld %lld", (long long)r.read_x1000,
	      (long long)r.copy_half_x1000, (long long)r.copy_x1000);
	soak_speed_text(&r, "soak: speed: ", false, buf, sizeof(buf));
	CHECK(!strncmp(buf, "soak: speed: pass row 1 (random), 1 whole pass", 46) &&
	      strstr(buf, "pass row 1 (random), 1 whole pass on each of 2 CPUs, 1.500s at most on "
		      "one: checked 3.000 GB/s, traffic 6.333 GB/s; of the probe's limits: "
		      "checked/read 50.0%, checked/(copy/2) 100.0%, traffic/copy 105.5%") &&
	      !strstr(buf, "hypervisor"), "the line: %s", buf);
	soak_speed_json(&r, true, buf, sizeof(buf));
	CHECK(!strcmp(member(buf, "checked_mbps"), "3000") &&
	      !strcmp(member(buf, "traffic_copy_x1000"), "1055") &&
	      !strcmp(member(buf, "pass"), "\"random\"") &&
	      !strcmp(member(buf, "hypervisor"), "true"), "the record: %s", buf);
	p.mbps[SOAK_PROBE_READ] = 0;
	soak_speed_shares(&r, &p);
	soak_speed_text(&r, "soak: speed so far: ", true, buf, sizeof(buf));
	CHECK(!strncmp(buf, "soak: speed so far: pass row 1 (random)", 39) &&
	      strstr(buf, "checked/read: no limit") && strstr(buf, "say nothing about the "
	      "hardware"), "a limit not measured, under a hypervisor: %s", buf);
	soak_speed_json(&r, true, buf, sizeof(buf));
	CHECK(!strcmp(member(buf, "checked_read_x1000"), "null"), "null share: %s", buf);
	soak_speed_fold(&r, 4, "fade", c + 2, 1);
	CHECK(!r.cpus, "a row no CPU spent time in has no CPUs (it is not printed)");
}

int main(void)
{
	return RUN_TESTS(test_mbps, test_probe, test_row);
}
