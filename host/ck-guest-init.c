// SPDX-License-Identifier: GPL-2.0-only
/*
 * ck-guest-init.c - /init of the Linux guest that tools/ck-guest.py boots under QEMU with two
 * NUMA nodes, so that the hosted benchmark's move_pages(2) part runs where a second node
 * exists: it mounts /proc, /sys and /dev, prints the nodes the kernel sees, runs
 * /ck-bench with the arguments the kernel passed after "--", prints the file named by
 * --json line by line ("ck-guest-json: " and the line: the guest has no disk), the kernel's
 * page-migration counters from /proc/vmstat before and after the run, then
 * "ck-guest: ck-bench exit N" (a signal: 128 + its number), and powers the machine off.
 *
 * With "mce-wait SECONDS N" instead of ck-bench's arguments (tools/ck-guest.py --mce) it
 * runs no program: it sets every CPU's machine-check poll interval to one second
 * (/sys/devices/system/machinecheck/machinecheckC/check_interval), says it is ready (the
 * host then injects through QEMU's monitor), waits until the kernel log holds N
 * machine-check records (or SECONDS pass), three more seconds for any the pollers add,
 * prints the kernel log's machine-check and memory-failure lines ("ck-guest-dmesg: " and
 * the line) and "ck-guest: mce-wait exit N" (0: N records seen, 1: not), and powers off.
 * Static, with no library beyond libc.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
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

/* The kernel's log buffer, whole, into a static buffer (NUL-terminated); its length. */
static int read_klog(char **out)
{
	static char buf[1 << 20];
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, sizeof(buf) - 1);

	buf[n > 0 ? n : 0] = '\0';
	*out = buf;
	return n;
}

/* Machine-check records the kernel printed: "...: CPU c: Machine Check[ Exception]: ...". */
static int count_records(void)
{
	char *log, *p;
	int n = 0;

	read_klog(&log);
	for (p = log; (p = strstr(p, ": Machine Check")); p++)
		n++;
	return n;
}

static void set_check_interval(void)
{
	char path[96];
	int cpus = 0;

	for (;; cpus++) {
		FILE *f;

		snprintf(path, sizeof(path),
			 "/sys/devices/system/machinecheck/machinecheck%d/check_interval", cpus);
		f = fopen(path, "w");
		if (!f)
			break;
		fputs("1\n", f);
		fclose(f);
	}
	printf("ck-guest: mce-wait: check_interval 1 s on %d CPUs\n", cpus);
}

/* The log's lines about machine checks and memory failures, for the host to read. */
static void dump_mce_lines(void)
{
	char *log, *line, *save = NULL;

	read_klog(&log);
	for (line = strtok_r(log, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (strstr(line, "mce") || strstr(line, "Machine check") ||
		    strstr(line, "Memory failure") || strstr(line, "MCE"))
			printf("ck-guest-dmesg: %s\n", line);
}

static int mce_wait(char **argv)
{
	int secs = argv[2] ? atoi(argv[2]) : 60, want = argv[2] && argv[3] ? atoi(argv[3]) : 1;
	int got = 0;

	set_check_interval();
	printf("ck-guest: mce-wait: ready, waiting up to %d s for %d machine-check records\n",
	       secs, want);
	fflush(stdout);
	for (int t = 0; t < 2 * secs && (got = count_records()) < want; t++)
		usleep(500000);
	sleep(3);
	got = count_records();
	dump_mce_lines();
	printf("ck-guest: mce-wait: %d machine-check records in the kernel log\n", got);
	return got >= want ? 0 : 1;
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
	if (argv[1] && !strcmp(argv[1], "mce-wait")) {
		rc = mce_wait(argv);
		printf("ck-guest: mce-wait exit %d\n", rc);
		fflush(stdout);
		sync();
		reboot(RB_POWER_OFF);
		return rc;
	}
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
