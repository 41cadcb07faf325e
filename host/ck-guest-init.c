// SPDX-License-Identifier: GPL-2.0-only
/*
 * ck-guest-init.c - /init of the Linux guest that tools/ck-guest.py boots under QEMU with two
 * NUMA nodes, so that the hosted benchmark's move_pages(2) part runs where a second node
 * exists: it mounts /proc, /sys and /dev, prints the nodes the kernel sees, runs
 * /ck-bench with the arguments the kernel passed after "--", prints the file named by
 * --json line by line ("ck-guest-json: " and the line: the guest has no disk), the kernel's
 * page-migration counters from /proc/vmstat before and after the run, then
 * "ck-guest: ck-bench exit N" (a signal: 128 + its number), and powers the machine off.
 * Static, with no library beyond libc.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <unistd.h>

static void show(const char *path)
{
	char line[256] = "";
	FILE *f = fopen(path, "r");

	if (f && !fgets(line, sizeof(line), f))
		line[0] = '\0';
	if (f)
		fclose(f);
	line[strcspn(line, "\n")] = '\0';
	printf("ck-guest: %s: %s\n", path, f ? line : "(none)");
}

static int run_bench(char **argv)
{
	int status = 0;
	pid_t pid = fork();

	if (pid == 0) {
		execv("/ck-bench", argv);
		perror("ck-guest: exec /ck-bench");
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		perror("ck-guest: ck-bench");
		return 126;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* /proc/vmstat's page-migration counters, the kernel's own count of what moved, @when. */
static void show_migrations(const char *when)
{
	char line[128];
	FILE *f = fopen("/proc/vmstat", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "pgmigrate_", 10) || !strncmp(line, "thp_migration_", 14))
			printf("ck-guest: vmstat %s %s", when, line);
	if (f)
		fclose(f);
}

/* The records ck-bench wrote to the file after --json, if any, on the console. */
static void dump_json(char **argv)
{
	char line[4096];
	FILE *f = NULL;

	for (int i = 1; argv[i] && argv[i + 1]; i++)
		if (!strcmp(argv[i], "--json"))
			f = fopen(argv[i + 1], "r");
	while (f && fgets(line, sizeof(line), f))
		printf("ck-guest-json: %s%s", line, strchr(line, '\n') ? "" : "\n");
	if (f)
		fclose(f);
}

int main(int argc, char **argv)
{
	int rc;

	(void)argc;
	if (mount("proc", "/proc", "proc", 0, NULL) || mount("sysfs", "/sys", "sysfs", 0, NULL) ||
	    mount("devtmpfs", "/dev", "devtmpfs", 0, NULL))
		perror("ck-guest: mount");
	show("/sys/devices/system/node/has_memory");
	show("/sys/devices/system/node/node0/hugepages/hugepages-1048576kB/free_hugepages");
	show("/sys/devices/system/node/node1/hugepages/hugepages-1048576kB/free_hugepages");
	show("/sys/kernel/mm/transparent_hugepage/enabled");
	fflush(stdout);
	argv[0] = "/ck-bench";
	show_migrations("before");
	rc = run_bench(argv);
	show_migrations("after");
	dump_json(argv);
	printf("ck-guest: ck-bench exit %d\n", rc);
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	return rc;
}
