// SPDX-License-Identifier: GPL-2.0-only
/*
 * host/soak/twin_machine.c - the machine as the hosted soak twin states it
 * (host/soak/twin_machine.h): the CPUs this process may run on, and the machine line that
 * a twin run (host/soak/twin_run.c) and the comparison (host/soak/twin_compare.c) print.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "host/soak/twin_machine.h"

unsigned int ck_soak_cpus(int *cpu, unsigned int max)
{
	cpu_set_t set;
	unsigned int n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (int i = 0; i < CPU_SETSIZE && n < max; i++)
		if (CPU_ISSET(i, &set))
			cpu[n++] = i;
	return n;
}

/* The value of "@key : value" in /proc/cpuinfo (first CPU), "" when absent. */
static void cpuinfo(const char *key, char *out, size_t size)
{
	char line[512];
	size_t n = strlen(key);
	FILE *f = fopen("/proc/cpuinfo", "r");

	out[0] = 0;
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, key, n) || !colon)
			continue;
		snprintf(out, size, "%s", colon + 2);
		out[strcspn(out, "\n")] = 0;
		break;
	}
	if (f)
		fclose(f);
}

void ck_soak_machine(char *buf, size_t size)
{
	char model[128], micro[32], date[32];
	struct utsname u;
	time_t t = time(NULL);
	int cpus[CPU_SETSIZE];

	cpuinfo("model name", model, sizeof(model));
	cpuinfo("microcode", micro, sizeof(micro));
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "?");
	snprintf(buf, size, "%s, microcode %s, %u CPUs for this process (%ld online), "
		 "Linux %s, %s", model[0] ? model : "(no model name)",
		 micro[0] ? micro : "not said", ck_soak_cpus(cpus, CPU_SETSIZE),
		 sysconf(_SC_NPROCESSORS_ONLN), u.release, date);
}
