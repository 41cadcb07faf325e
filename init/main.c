// SPDX-License-Identifier: GPL-2.0-only
/*
 * main.c - what the kernel does once boot/ hands over: take the machine (console, GDT,
 * IDT, exception table, page tables, clock), say what it found, run the self-tests and
 * leave with a status that tells the outcome (kernel/include/status.h).
 *
 * Exit status precedence: panic > some test failed > bad command line > all passed; the
 * verdict word follows it (PANIC, FAIL, ERROR reason=cmdline, PASS: kernel/include/status.h).
 */
#include "bench/image.h"
#include "bench/migrate.h"
#include "bench/presets.h"
#include "init/cmdline.h"
#include "init/cmdline_errors.h"
#include "init/copy_setup.h"
#include "init/names.h"
#include "init/results.h"
#include "init/summary.h"
#include "kernel/arch/bootmem.h"
#include "kernel/arch/desc.h"
#include "kernel/arch/exit.h"
#include "kernel/arch/fpu.h"
#include "kernel/arch/memmap.h"
#include "kernel/arch/mtrr.h"
#include "kernel/arch/paging.h"
#include "kernel/arch/traps.h"
#include "kernel/console/fbcon.h"
#include "kernel/console/printk.h"
#include "kernel/console/serial.h"
#include "kernel/include/boot_info.h"
#include "kernel/include/version.h"
#include "kernel/lib/format.h"
#include "kernel/mm/page.h"
#include "kernel/platform/acpi.h"
#include "kernel/platform/cpu.h"
#include "kernel/platform/numa.h"
#include "kernel/platform/secureboot.h"
#include "kernel/platform/smbios.h"
#include "kernel/platform/smp.h"
#include "kernel/platform/tsc.h"
#include "ktest/lib/crash.h"
#include "ktest/lib/ctx.h"
#include "ktest/lib/ktap.h"
#include "ktest/lib/qemu_mce.h"
#include "mce/dimm_report.h"
#include "mce/mce.h"
#include "mce/poll.h"
#include "soak/soak.h"

__noreturn void kernel_main(struct boot_info *bi);

static void cmdline_message(void *ctx, const struct cmdline_msg *m)
{
	printk("%s\n", m->text);
	if (m->error)
		cmdline_error_add(m->brief);
}

static void take_console(const struct ck_config *cfg)
{
	if (cfg->console_port == serial_port() && cfg->console_baud == serial_baud())
		return;
	printk("console: moving to I/O port 0x%x at %u baud\n", cfg->console_port,
	       cfg->console_baud);
	if (!serial_init(cfg->console_port, cfg->console_baud)) {
		serial_init(SERIAL_DEFAULT_PORT, SERIAL_DEFAULT_BAUD);
		pr_warn("console: no UART answers at port 0x%x; staying on 0x%x at %u baud\n",
			cfg->console_port, SERIAL_DEFAULT_PORT, SERIAL_DEFAULT_BAUD);
	}
}

/* After each test case: the machine checks it left, decoded (ktest/lib/ktap.h). */
static void report_new_mces(void)
{
	mce_report_new("    # ");
}

static void paging_report(void)
{
	struct pg_stats st;

	pg_stats(&st);
	printk("paging: identity map with %s pages: %llu x 1 GiB, %llu x 2 MiB, %llu x 4 KiB "
	       "(%llu MiB mapped, %llu table pages), NX %s, WP on, PAT WB/WC/UC-/UC\n",
	       pg_gbpages() ? "1 GiB" : "2 MiB (no pdpe1gb)", (unsigned long long)st.leaves_1g,
	       (unsigned long long)st.leaves_2m, (unsigned long long)st.leaves_4k,
	       (unsigned long long)st.mapped_bytes >> 20, (unsigned long long)st.tables,
	       cpu()->nx ? "on" : "unsupported");
	if (st.mtrr_refused)
		printk("paging: %llu large pages not used because their range holds more than one "
		       "MTRR memory type (split into smaller pages)\n",
		       (unsigned long long)st.mtrr_refused);
}

static void bench_run_here(void *arg)
{
	bench_image_run(arg);
}

/* bench_cpu=: the benchmarks run on that CPU (1 + its number; 0: this one), if it is online. */
static void bench_on_cpu(struct bench_image_opts *bo, unsigned int bench_cpu)
{
	unsigned int c = bench_cpu ? bench_cpu - 1 : 0;
	struct percpu *pc = smp_cpu(c);

	if (!cpu_online(c)) {
		pr_warn("bench: bench_cpu=%u is not an online CPU (%u online): running on CPU 0\n",
			c, smp_nr_online());
		c = 0;
		pc = smp_cpu(0);
	}
	printk("bench: single-thread cases run on CPU %u (APIC id %u, node %d)%s\n", c,
	       pc->apic_id, smp_cpu_node(c), c ? " (bench_cpu=)" : "");
	/* An hour bounds the whole run; the CPU's own panic path reports a fault. */
	if (on_cpu(c, bench_run_here, bo, 3600U * 1000) == -ETIMEDOUT)
		pr_err("bench: CPU %u did not finish within an hour\n", c);
}

/* The firmware map made safe to use and its findings printed; a map without RAM stops the run. */
static bool memmap_setup(struct boot_info *bi)
{
	static struct memmap_findings found;
	int ret = memmap_sanitize(bi, &found);

	memmap_print_findings(&found);
	if (ret) {
		pr_err("memory map: %u entries, none of them usable RAM: cannot run\n",
		       bi->nr_mem);
		return false;
	}
	return true;
}

/* Secure Boot as the firmware's SecureBoot and SetupMode variables say (secureboot.h). */
static void secure_boot_report(const struct boot_info *bi)
{
	char sb[24], setup[24];

	secure_boot_init(bi);
	sb_var_text(sb, sizeof(sb), &bi->secure_boot);
	sb_var_text(setup, sizeof(setup), &bi->setup_mode);
	printk("Secure Boot: %s; UEFI variables SecureBoot %s, SetupMode %s\n",
	       sb_mode_text(secure_boot()->mode), sb, setup);
}

/* The machine: console, descriptor tables, the way out, the exception table. */
static bool take_machine(struct boot_info *bi)
{
	serial_init(SERIAL_DEFAULT_PORT, SERIAL_DEFAULT_BAUD);
	gdt_init();
	idt_init();
	exit_init(EXIT_AUTO, bi->fw_reset);
	results_init(bi);
	printk("\ncopykernel %s: the machine is ours (ExitBootServices after %u attempt%s)\n",
	       CK_VERSION, bi->ebs_attempts, bi->ebs_attempts == 1 ? "" : "s");
	if (!extable_init())
		return false;
	mce_early_init();
	printk("firmware: %s rev 0x%x; image at 0x%llx, %llu KiB\n", bi->fw_vendor,
	       bi->fw_revision, (unsigned long long)bi->image_base,
	       (unsigned long long)bi->image_size >> 10);
	secure_boot_report(bi);
	results_report_previous();	/* before anything else can go wrong */
	return true;
}

/* boot/'s notes on the text: printed, and each error counted with its words. */
static void boot_notes(const struct boot_notes *notes)
{
	u32 kept = 0;

	for (u32 i = 0; i < notes->n; i++) {
		printk("cmdline: %s%s\n", notes->error[i] ? "" : "note: ", notes->text[i]);
		if (notes->error[i]) {
			cmdline_error_add(notes->text[i]);
			kept++;
		}
	}
	if (notes->dropped)
		printk("cmdline: ... and %u more such notes\n", notes->dropped);
	for (; kept < notes->errors; kept++)
		cmdline_error_add(NULL);	/* one of the notes not kept */
}

/* boot/'s notes on the text, then the parse; the errors of both go to cmdline_errors.h. */
static void read_cmdline(struct boot_info *bi, struct ck_config *cfg)
{
	char desc[256];

	cmdline_defaults(cfg, ck_cmdline_names());
	printk("cmdline: from %s: '%s'\n", bi->cmdline_source, bi->cmdline);
	boot_notes(&bi->cmdline_notes);
	cmdline_parse(bi->cmdline, cfg, cmdline_message, NULL);
	cmdline_describe(cfg, desc, sizeof(desc));
	printk("cmdline: in effect: %s%s\n", desc,
	       cmdline_errors() ? " (after errors above: the run's verdict is ERROR, "
				  "reason=cmdline, with the bad-command-line status, unless a "
				  "test fails)" : "");
	take_console(cfg);
	if (cfg->inject == INJECT_QEMU && cfg->mce_case == MCE_CASE_EARLY)
		mce_inject_early();
	exit_init(cfg->exit, bi->fw_reset);
	if (cfg->exit == EXIT_AUTO)
		printk("exit: auto: %s\n", qemu_detected() ?
		       "QEMU detected (fw_cfg), leaving through isa-debug-exit" :
		       "not QEMU, halting at the end");
}

/* The firmware's memory map, ACPI, the boot allocator and the page tables. */
/* copykernel.labels (boot/ read it beside the image), matched by the SMBIOS baseboard. */
static void take_labels(const struct boot_info *bi)
{
	const struct smbios_dimms *d = smbios_dimms_get();
	bool board = d && d->have_board;

	mce_dimm_labels_init(bi->labels, bi->labels_len, bi->labels_truncated,
			     board ? d->board_vendor : NULL, board ? d->board_product : NULL);
}

static bool own_memory(struct boot_info *bi)
{
	if (bi->memmap_desc_size < BOOT_MEMMAP_DESC_MIN) {
		pr_err("memory map: the firmware's descriptor size is %u bytes, smaller than a "
		       "UEFI memory descriptor (%u): no map to run on\n", bi->memmap_desc_size,
		       BOOT_MEMMAP_DESC_MIN);
		return false;
	}
	if (!memmap_setup(bi))
		return false;
	memmap_report(bi);
	acpi_init(bi);
	smbios_fw_init(bi);	/* before boot-services memory is reused */
	take_labels(bi);
	bootmem_init(bi);
	if (!bootmem_free_bytes()) {
		pr_err("memory map: no free RAM above 1 MiB outside the image: cannot run\n");
		return false;
	}
	if (!paging_init(bi)) {
		pr_err("paging: could not build the page tables (out of memory?)\n");
		return false;
	}
	bootmem_add_boot_services(bi);
	acpi_map_tables();
	numa_init(bi);
	return true;
}

/* This CPU's features, the screen, the clock, then the other CPUs. */
static void bring_up_cpus(struct boot_info *bi, const struct ck_config *cfg)
{
	cpu_init();
	fpu_init();
	mce_init();
	paging_report();
	mtrr_report();
	if (bi->fb.format != FB_NONE)
		printk("framebuffer: %ux%u, stride %u, at 0x%llx\n", bi->fb.width, bi->fb.height,
		       bi->fb.stride, (unsigned long long)bi->fb.base);
	else
		printk("framebuffer: none (no GOP): running headless, serial only\n");
	if (cfg->fb_off)
		printk("fbcon: off (fb=off): serial only\n");
	else
		fbcon_init(&bi->fb);
	cpu_report();
	tsc_init();
	exit_set_delay(cfg->exit_delay, tsc_info()->hz);
	smp_init(bi, cfg->smp, cfg->smp_timeout ? cfg->smp_timeout : SMP_DEFAULT_TIMEOUT_MS);
	smp_report();
	mce_cpus_init();
}

/*
 * The command line's failing test after the suites (ktest/lib/ktap.h), when it had errors:
 * each one's brief, and how many more there were than are kept.
 */
static const struct ktap_run_test *cmdline_test(void)
{
	static const char *diag[CMDLINE_ERRORS_KEPT + 1];
	static char more[64], why[96];
	static struct ktap_run_test t;
	unsigned int n = cmdline_errors(), k;
	const char *const *briefs;

	if (!n)
		return NULL;
	k = cmdline_errors_kept(&briefs);
	for (unsigned int i = 0; i < k; i++)
		diag[i] = briefs[i];
	if (n > k) {
		ck_snprintf(more, sizeof(more), "and %u more (the 'cmdline:' lines above)", n - k);
		diag[k++] = more;
	}
	ck_snprintf(why, sizeof(why), "%u command-line error%s: not the run that was asked for",
		    n, n == 1 ? "" : "s");
	t = (struct ktap_run_test){ .name = "command_line", .why = why, .diag = diag,
				    .nr_diag = k };
	return &t;
}

/* The suites tests= selected; returns the run's status (panic aside: that never returns). */
static enum ck_status run_tests(struct boot_info *bi, const struct ck_config *cfg,
				struct ktap_totals *tot)
{
	const struct ck_suite *const *suites;
	unsigned int nr_suites;
	struct ck_ctx ctx;

	ctx = (struct ck_ctx){ .bi = bi, .inject = cfg->inject, .mce_case = cfg->mce_case,
			       .blackbox_write = cfg->blackbox_test, .sweep = cfg->sweep,
			       .cores = cfg->cores };
	copy_caps(&ctx.caps);
	copy_linux_choice(&ctx.linux_choice);
	nr_suites = ck_suites_get(&suites);
	ktap_set_after_case(report_new_mces);
	ktap_run(suites, nr_suites, cfg->tests, &ctx, cmdline_test(), tot);
	results_set_tests(tot);
	if (tot->fail)
		return CK_STATUS_FAIL;
	return cmdline_errors() ? CK_STATUS_CMDLINE : CK_STATUS_PASS;
}

/*
 * The summary line, after the suites, the final poll and the soak: its result is FAIL when a
 * suite or the soak failed, else ERROR (reason=cmdline) when the command line had errors.
 * Stored first, so the line can say whether it survives the reboot.
 */
static void run_summary(enum ck_status status, const struct ktap_totals *tot)
{
	const char *reason = ck_status_reason(status);
	char stored[32];

	results_store(status);
	results_state_word(stored, sizeof(stored));
	printk("# copykernel-summary: result=%s%s%s suites=%u pass=%u fail=%u skip=%u "
	       "cmdline_errors=%u results=%s\n", ck_status_result(status),
	       reason ? " reason=" : "", reason ? reason : "", tot->suites, tot->pass, tot->fail,
	       tot->skip, cmdline_errors(), stored);
}

/* soak=: after the suites, all free memory on every CPU; a failing soak fails the run. */
static enum ck_status run_soak(const struct ck_config *cfg, enum ck_status status)
{
	struct soak_opts o = { .limit = cfg->soak, .fault = cfg->soak_fault,
			       .chunk_mib = cfg->soak_chunk, .progress_s = cfg->soak_progress,
			       .watchdog_s = cfg->soak_watchdog, .poll_ms = cfg->soak_poll,
			       .fade_s = cfg->soak_fade,
			       .cmdline_errors = cmdline_errors() != 0 };

	struct dispatch_caps caps;

	if (cfg->soak.kind == SOAK_LIMIT_OFF)
		return status;
	copy_caps(&caps);
	o.nt_copy = !copy_mc_cannot_run(COPY_MC_AVX2_NT, &caps);
	/* Its checkpoints go to the black box (CopykernelSoak, init/results.h). */
	soak_set_checkpoint_sink(results_checkpoint_write);
	/* The firmware's DIMM map (kernel/platform/smbios_fw.c), or none: nodes and ranges. */
	return soak_run(&o, smbios_dimms_get()) ? status : CK_STATUS_FAIL;
}

/* The presets; returns the cases they promised and could not measure (bench: FAILED lines). */
static unsigned int run_benchmarks(const struct ck_config *cfg)
{
	struct bench_image_opts bo = { .sel = cfg->bench, .runs = cfg->bench_runs,
				       .tiny = cfg->bench_tiny, .cold_flush = cfg->bench_cold == 1,
				       .migrate_size = cfg->bench_migrate_size };

	copy_caps(&bo.caps);
	if (bo.sel == BENCH_MIGRATE) {
		bench_image_migrate(&bo);
		return bench_failures();
	}
	if (bo.sel != BENCH_PARALLEL)
		bench_on_cpu(&bo, cfg->bench_cpu);
	if (bo.sel == BENCH_PARALLEL || bo.sel == BENCH_ALL)
		bench_image_parallel(&bo);
	return bench_failures();
}

/*
 * Everything before the tests, stage by stage. A stage that finds the machine unusable says
 * why and returns false.
 */
static bool prepare(struct boot_info *bi, struct ck_config *cfg)
{
	if (!take_machine(bi))
		return false;
	read_cmdline(bi, cfg);
	if (!own_memory(bi))
		return false;
	bring_up_cpus(bi, cfg);
	copy_setup(cfg);	/* an override the CPU cannot run is a command-line error too */
	pages_setup(bi);
	printk("memory: %llu MiB free for tests\n", (unsigned long long)bootmem_free_bytes() >> 20);
	return true;
}

/* The run. It leaves through machine_exit() with its status, or here with the panic status. */
__noreturn void kernel_main(struct boot_info *bi)
{
	struct ktap_totals tot;
	struct ck_config cfg;
	enum ck_status status;

	if (!prepare(bi, &cfg))
		panic();	/* the stage that stopped has said why */
	if (cfg.crash) {
		const struct ck_crash *const *crashes;

		ck_crashes_get(&crashes);
		crash_now(crashes[cfg.crash - 1]);
	}
	status = run_tests(bi, &cfg, &tot);
	mce_poll_final("# ", cfg.mce_poll_wait);
	status = run_soak(&cfg, status);
	run_summary(status, &tot);
	if (cfg.bench && run_benchmarks(&cfg)) {
		printk("bench: %u case%s could not be measured (the 'bench: FAILED' lines say why): "
		       "the run fails\n", bench_failures(),
		       bench_failures() == 1 ? "" : "s");
		status = CK_STATUS_FAIL;
	}
	summary_show(status, &tot);
	machine_exit(status);
}
