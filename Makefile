# SPDX-License-Identifier: GPL-2.0-only
#
# copykernel build. `make` builds build/copykernel.efi; `make run` boots it under QEMU+OVMF;
# `make check` runs every test (host unit tests, fuzzing, QEMU boots); `make help` lists more.
#
# The image is linked twice: pass 1 with an empty symbol table, then tools/gen-ksyms.sh turns
# pass 1's symbols into .ksyms and pass 2 links that in. .ksyms is the last section, so no other
# symbol may move between the passes; the build checks that it did not.

CROSS_COMPILE ?=
CC      := $(CROSS_COMPILE)gcc
LD      := $(CROSS_COMPILE)ld
OBJCOPY := $(CROSS_COMPILE)objcopy
NM      := $(CROSS_COMPILE)nm
NASM    ?= nasm
HOSTCC  ?= gcc
FUZZCC  ?= clang
PYTHON  ?= $(shell test -x /usr/bin/python3 && echo /usr/bin/python3 || echo python3)

ifeq ($(V),1)
Q :=
else
Q := @
endif

B := build
EFI_INC ?= /usr/include/efi
EFI_LIB ?= /usr/lib
EFI_CRT0 := $(EFI_LIB)/crt0-efi-x86_64.o

WARN := -Wall -Wextra -Werror -Wno-unused-parameter
CFLAGS_COMMON := -std=gnu11 -O2 -g $(WARN) -I. -I$(B)/gen
KCFLAGS := $(CFLAGS_COMMON) -ffreestanding -fpic -fshort-wchar -mno-red-zone \
	-fno-stack-protector -fno-stack-check -maccumulate-outgoing-args \
	-mgeneral-regs-only -fno-tree-loop-distribute-patterns -fno-omit-frame-pointer \
	-fno-asynchronous-unwind-tables -DCK_KERNEL
BOOT_CFLAGS := $(KCFLAGS) -I$(EFI_INC) -I$(EFI_INC)/x86_64 -DGNU_EFI_USE_MS_ABI
NASMFLAGS := -f elf64 -g -F dwarf -I./ -I$(B)/gen/
LDFLAGS := -nostdlib -shared -Bsymbolic -znocombreloc -znoexecstack --no-undefined -T linker.ld

BOOT_SRC   := $(wildcard boot/*.c)
# The layers, lowest first (docs/design/architecture.md; tools/layers.py checks every include edge).
KERNEL_DIRS := kernel/lib kernel/console kernel/arch kernel/platform kernel/mm copy mce \
	bench soak cores ktest/lib init ktest
# Generator files (ASM_GEN below) are compiled to assembly only, never linked.
KERNEL_SRC := $(filter-out %/asm-offsets.c,$(foreach d,$(KERNEL_DIRS),$(wildcard $(d)/*.c)))
# The oracles the image runs: the folio-copy model the sweep suite judges its points by, and
# the machine-check model the mce suite takes which banks the handler clears from.
KERNEL_SRC += ktest/oracle/linux_folio_mc.c ktest/oracle/linux_mce.c
ASM_SRC    := $(wildcard kernel/arch/*.asm) $(wildcard copy/*.asm) $(wildcard init/*.asm) \
	$(wildcard bench/*.asm) $(wildcard cores/*.asm)
# shim's SBAT record (boot/sbat.asm): the .sbat section shim 15.3 and later require.
ASM_SRC    += boot/sbat.asm

BOOT_OBJ   := $(patsubst %.c,$(B)/%.o,$(BOOT_SRC))
KERNEL_OBJ := $(patsubst %.c,$(B)/%.o,$(KERNEL_SRC))
ASM_OBJ    := $(patsubst %.asm,$(B)/%.asm.o,$(ASM_SRC))
OBJS       := $(BOOT_OBJ) $(KERNEL_OBJ) $(ASM_OBJ)
LIBS       := -L$(EFI_LIB) -lefi -lgnuefi

# The PE32+ image: these sections and no COFF symbol table (--strip-all). The PE/COFF spec
# deprecates COFF symbols in images (PointerToSymbolTable "should be zero"); objcopy would
# append them after the last section, where Authenticode tools (sbsign, sbverify) find bytes no
# section claims and warn of "gaps between PE/COFF sections". The image symbolises RIPs from
# .ksyms, and a debugger reads copykernel.so.
PE_SECTIONS := -j .text -j .sdata -j .data -j .dynamic -j .dynsym -j .rel -j .rela -j .rel.* \
	-j .rela.* -j .reloc -j .sbat -j .ksyms
PE_FLAGS := --strip-all --target efi-app-x86_64 --subsystem=10

.PHONY: all sign run check bench bench-perf soak-speed clean help deps host-tests fuzz qemu-tests img \
	lava-check lab-check models soak-bench cores-bench cmdline-doc coverage-doc guest memtest-compare
all: $(B)/copykernel.efi $(B)/ck-decode

deps:
	$(Q)tools/ensure-deps.sh build

# C headers generated from C structures (the register frame's indices): built before any C.
GEN_H := $(B)/gen/kernel/include/ptrace-regs.h
.SECONDARY: $(GEN_H)
$(B)/gen/%.h: %.c tools/gen-asm-inc.sh
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  GEN     $@")
	$(Q)$(CC) $(KCFLAGS) -MMD -MP -MT $@ -MF $@.d -S $< -o $@.s
	$(Q)tools/gen-asm-inc.sh $@.s $< c > $@.tmp && mv $@.tmp $@

$(B)/boot/%.o: boot/%.c | $(GEN_H)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(BOOT_CFLAGS) -MMD -MP -c $< -o $@

$(B)/%.o: %.c | $(GEN_H)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(KCFLAGS) -MMD -MP -c $< -o $@

# Constants and offsets NASM takes from C (kernel/include/asm-defs.h): one generator each.
ASM_GEN := $(B)/gen/kernel/include/asm-consts.inc $(B)/gen/kernel/arch/asm-offsets.inc \
	$(B)/gen/copy/asm-offsets.inc
.SECONDARY: $(ASM_GEN)
$(B)/gen/%.inc: %.c tools/gen-asm-inc.sh | $(GEN_H)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  GEN     $@")
	$(Q)$(CC) $(KCFLAGS) -MMD -MP -MT $@ -MF $@.d -S $< -o $@.s
	$(Q)tools/gen-asm-inc.sh $@.s $< > $@.tmp && mv $@.tmp $@

$(B)/%.asm.o: %.asm $(ASM_GEN)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  NASM    $<")
	$(Q)$(NASM) $(NASMFLAGS) -MD $(B)/$*.asm.d -MP $< -o $@

$(B)/ksyms-empty.asm.o: tools/gen-ksyms.sh
	@mkdir -p $(B)
	$(Q)tools/gen-ksyms.sh /dev/null > $(B)/ksyms-empty.asm
	$(Q)$(NASM) -f elf64 $(B)/ksyms-empty.asm -o $@

$(B)/copykernel.pass1.so: $(OBJS) $(B)/ksyms-empty.asm.o linker.ld
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(LD) $(LDFLAGS) $(EFI_CRT0) $(OBJS) $(B)/ksyms-empty.asm.o -o $@ $(LIBS)

$(B)/ksyms.asm.o: $(B)/copykernel.pass1.so tools/gen-ksyms.sh
	@$(if $(Q),echo "  KSYMS   $@")
	$(Q)$(NM) -n --defined-only $< | tools/gen-ksyms.sh - > $(B)/ksyms.asm
	$(Q)$(NASM) -f elf64 $(B)/ksyms.asm -o $@

$(B)/copykernel.so: $(OBJS) $(B)/ksyms.asm.o linker.ld
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(LD) $(LDFLAGS) $(EFI_CRT0) $(OBJS) $(B)/ksyms.asm.o -o $@ $(LIBS)
	$(Q)$(NM) -n --defined-only $(B)/copykernel.pass1.so | \
		grep -v -e ' _end$$' -e ' __ksym_name_' > $(B)/syms1.txt
	$(Q)$(NM) -n --defined-only $@ | grep -v -e ' _end$$' -e ' __ksym_name_' > $(B)/syms2.txt
	$(Q)cmp -s $(B)/syms1.txt $(B)/syms2.txt || \
		{ echo "ksyms: symbols moved between link passes" >&2; exit 1; }
	$(Q)if readelf -d $@ | grep -q TEXTREL; then \
		echo "copykernel.so has text relocations" >&2; exit 1; fi

$(B)/copykernel.efi: $(B)/copykernel.so Makefile
	@$(if $(Q),echo "  OBJCOPY $@")
	$(Q)$(OBJCOPY) $(PE_SECTIONS) $(PE_FLAGS) $< $@

# make sign: $(B)/copykernel.signed.efi for UEFI Secure Boot (tools/sign.sh, sbsign). KEY and
# CERT default to Debian's snakeoil test key (passphrase "snakeoil", kept in $(B) without it),
# the one OVMF_VARS_4M.snakeoil.fd enrols; a lab passes its own (docs/user/secure-boot.md).
SNAKEOIL := /usr/share/ovmf/PkKek-1-snakeoil
KEY ?= $(B)/snakeoil.key
CERT ?= $(SNAKEOIL).pem
sign:
	$(Q)tools/ensure-deps.sh sign
	$(Q)$(MAKE) --no-print-directory all $(filter $(B)/snakeoil.key,$(KEY))
	$(Q)tools/sign.sh $(KEY) $(CERT) $(B)/copykernel.efi $(B)/copykernel.signed.efi
$(B)/copykernel.signed.efi: $(B)/copykernel.efi tools/sign.sh $(filter $(B)/snakeoil.key,$(KEY))
	$(Q)tools/sign.sh $(KEY) $(CERT) $< $@ >/dev/null
$(B)/snakeoil.key:
	@mkdir -p $(B)
	$(Q)tools/sign.sh --plain-key $(SNAKEOIL).key snakeoil $@

# A GPT disk with an EFI system partition: dd it to a USB stick (docs/user/hardware.md).
img:
	$(Q)tools/ensure-deps.sh img
	$(Q)$(MAKE) --no-print-directory $(B)/copykernel.img
$(B)/copykernel.img: $(B)/copykernel.efi boot/copykernel.cmdline tools/mkimg.py
	@$(if $(Q),echo "  MKIMG   $@")
	$(Q)$(PYTHON) tools/mkimg.py --efi $< --cmdline boot/copykernel.cmdline --out $@ >/dev/null

# ---- host side -------------------------------------------------------------------------
HOST_CFLAGS := $(CFLAGS_COMMON) -DCK_HOST -fsanitize=address,undefined -fno-omit-frame-pointer
HOST_PURE := kernel/lib/format.c kernel/lib/cmdline_text.c kernel/lib/efi_memmap.c init/cmdline.c kernel/lib/extable.c \
	kernel/lib/ksyms.c kernel/platform/cpufeat.c copy/dispatch.c copy/ops.c copy/pages.c \
	kernel/mm/page.c kernel/arch/mtrr.c kernel/arch/apic_start.c mce/grade.c mce/decode.c \
	mce/einj.c mce/smp_logic.c bench/stats.c kernel/lib/sort.c \
	kernel/platform/numa.c kernel/platform/acpi.c kernel/arch/memmap.c kernel/platform/madt.c \
	bench/harness.c bench/presets.c bench/parallel.c
HOST_PURE += bench/noise.c
HOST_PURE += init/cmdline_opts.c
HOST_PURE += kernel/arch/cpuid.c kernel/arch/bootmem.c
HOST_PURE += soak/pattern.c soak/plan.c kernel/platform/smbios.c \
	soak/ledger.c soak/report.c soak/limit.c \
	soak/checkpoint.c
HOST_PURE += soak/blackbox.c
HOST_PURE += kernel/platform/smbios_load.c kernel/platform/secureboot.c
HOST_PURE += soak/march.c soak/watch.c soak/handover.c soak/knob.c
HOST_PURE += soak/cover.c soak/speed.c
HOST_PURE += kernel/lib/json.c bench/probe.c bench/table.c bench/cases.c bench/prims.c \
	bench/parallel_out.c bench/data.c
# The hosted soak twin's pure parts (host/soak/ck-soak.c's accounting, parsers and pair work).
HOST_PURE += host/soak/twin_peer.c host/soak/twin_work.c host/soak/twin_limit.c
# The host injector's faults (host/inject/ck-inject.c keeps them alive in a guest's RAM file).
HOST_PURE += host/inject/fault.c
HOST_PURE += mce/poll_core.c mce/cmci.c mce/amd_thresh.c mce/scan_core.c
HOST_PURE += bench/copy_pages.c bench/copy_pages_answer.c bench/clear_order.c bench/seed003.c
HOST_PURE += bench/migrate_calc.c
# The DIMM of a DRAM error from an SMCA UMC bank, rasdaemon's labels, and ck-decode's reader.
HOST_PURE += mce/dimm.c mce/dimm_labels.c host/decode/records.c
# The cores suite's vote and kernels (each with its known answer by another method).
HOST_PURE += cores/vote.c cores/opts.c cores/record.c cores/list.c cores/k_copy.c cores/k_int.c \
	cores/k_vec.c cores/k_x87.c cores/x87_ref.c cores/mca.c cores/topo.c cores/k_bits.c \
	cores/k_crypto.c cores/crypto_ref.c cores/k_fma.c cores/k_clear.c
# The hosted cores twin's threads, verdicts and rates (host/cores/ck-cores.c's engine).
HOST_PURE += host/cores/twin.c host/cores/verdict.c host/cores/rate.c
# The host tests link the very objects the image links for copy/ and bench/ (same NASM output).
HOST_ASM := $(patsubst %.asm,$(B)/%.asm.o,$(wildcard copy/*.asm) $(wildcard bench/*.asm) \
	$(wildcard cores/*.asm))
# The sweeps and vectors of ktest/lib that host and image share (not the KTAP framework).
HOST_SUPPORT := tests/host/fault_shim.c ktest/lib/copy_sweep.c ktest/lib/mce_vectors.c \
	ktest/lib/poison_sweep.c ktest/lib/poison_judge.c mce/msr.c \
	ktest/oracle/linux_mce.c
ORACLE_MODELS := ktest/oracle/linux_folio_mc.c ktest/oracle/linux_zero_order.c \
	ktest/oracle/amd_umc.c
HOST_SUPPORT += $(ORACLE_MODELS)
# The simulated memory with its faults and the soak's passes over it (the coverage oracle).
HOST_SUPPORT += tests/host/sim_mem.c tests/host/sim_soak.c
HOST_TESTS := $(patsubst tests/host/%.c,$(B)/host/%,$(wildcard tests/host/test_*.c))
# The oracles' own self-tests (hand-derived expectations, nothing of ours) run as host tests.
HOST_TESTS += $(B)/host/test_oracle_models $(B)/host/test_oracle_mce $(B)/host/test_oracle_umc

# The pure sources are compiled once (with the sanitizers) and linked into every host test.
HOST_LIB_OBJ := $(patsubst %.c,$(B)/host/obj/%.o,$(HOST_PURE) $(HOST_SUPPORT))
HOST_HDRS := $(wildcard kernel/*/*.h init/*.h copy/*.h mce/*.h bench/*.h soak/*.h cores/*.h ktest/*.h \
	ktest/lib/*.h tests/host/*.h ktest/oracle/*.h host/*/*.h)

.SECONDARY: $(HOST_LIB_OBJ)
$(B)/host/obj/%.o: %.c $(HOST_HDRS) | $(GEN_H)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $@")
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -c $< -o $@

ORACLE_MODEL_OBJ := $(patsubst %.c,$(B)/host/obj/%.o,$(ORACLE_MODELS))
$(B)/host/test_oracle_models: ktest/oracle/selftest_linux_folio_mc.c $(ORACLE_MODEL_OBJ) \
		$(HOST_HDRS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTLD  $@")
	$(Q)$(HOSTCC) $(HOST_CFLAGS) $< $(ORACLE_MODEL_OBJ) -o $@

$(B)/host/test_oracle_mce: ktest/oracle/selftest_linux_mce.c \
		$(B)/host/obj/ktest/oracle/linux_mce.o $(HOST_HDRS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTLD  $@")
	$(Q)$(HOSTCC) $(HOST_CFLAGS) $< $(B)/host/obj/ktest/oracle/linux_mce.o -o $@

$(B)/host/test_oracle_umc: ktest/oracle/selftest_amd_umc.c \
		$(B)/host/obj/ktest/oracle/amd_umc.o $(HOST_HDRS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTLD  $@")
	$(Q)$(HOSTCC) $(HOST_CFLAGS) $< $(B)/host/obj/ktest/oracle/amd_umc.o -o $@

$(B)/host/%: tests/host/%.c $(HOST_LIB_OBJ) $(HOST_ASM) $(HOST_HDRS) | $(GEN_H)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTLD  $@")
	$(Q)$(HOSTCC) $(HOST_CFLAGS) $< $(HOST_LIB_OBJ) $(HOST_ASM) -Wl,-z,noexecstack -lm -o $@

FUZZ_PURE := kernel/lib/format.c kernel/lib/cmdline_text.c init/cmdline.c \
	kernel/platform/cpufeat.c copy/dispatch.c mce/einj.c kernel/platform/acpi.c \
	kernel/platform/numa.c kernel/arch/memmap.c kernel/platform/madt.c kernel/lib/extable.c \
	kernel/lib/ksyms.c
FUZZ_PURE += init/cmdline_opts.c
FUZZ_PURE += kernel/arch/cpuid.c kernel/arch/bootmem.c
FUZZ_PURE += kernel/platform/smbios.c soak/checkpoint.c soak/ledger.c \
	mce/decode.c soak/pattern.c soak/limit.c soak/knob.c
FUZZ_PURE += kernel/lib/json.c
FUZZ_PURE += soak/blackbox.c soak/report.c
FUZZ_PURE += mce/dimm_labels.c mce/dimm.c
FUZZ_PURE += cores/opts.c

$(B)/fuzz/%: tests/fuzz/%.c $(FUZZ_PURE) | $(GEN_H)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZCC  $@")
	$(Q)$(FUZZCC) -std=gnu11 -g -O1 -I. -I$(B)/gen -DCK_HOST -fsanitize=fuzzer,address,undefined \
		$< $(FUZZ_PURE) -o $@

FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,$(B)/fuzz/%,$(wildcard tests/fuzz/*.c))
FUZZ_SECONDS ?= 10

host-tests: $(HOST_TESTS)

# The command-line reference, written from the image's option table (host/ck-cmdline-doc.c).
$(B)/ck-cmdline-doc: host/ck-cmdline-doc.c $(HOST_LIB_OBJ) $(HOST_ASM) $(HOST_HDRS) | $(GEN_H)
	@$(if $(Q),echo "  HOSTLD  $@")
	$(Q)$(HOSTCC) $(HOST_CFLAGS) $< $(HOST_LIB_OBJ) $(HOST_ASM) -Wl,-z,noexecstack -o $@
cmdline-doc: $(B)/ck-cmdline-doc
	$(Q)$(B)/ck-cmdline-doc -o docs/reference/cmdline.md
# The soak's fault-coverage table in docs/user/soak.md, from the simulated memory's run
# (tests/host/test_soak_coverage.c; make check holds the page to it).
coverage-doc: $(B)/host/test_soak_coverage
	$(Q)$(B)/host/test_soak_coverage --doc docs/user/soak.md
fuzz: $(FUZZ_TARGETS)
qemu-tests: $(B)/copykernel.efi

# The hosted benchmark: the same copy/ objects and bench/ harness in a Linux process.
BENCH_SRC := host/bench/ck-bench.c bench/stats.c kernel/lib/sort.c bench/harness.c bench/presets.c \
	copy/dispatch.c copy/ops.c copy/pages.c kernel/mm/page.c kernel/lib/format.c \
	kernel/platform/cpufeat.c kernel/arch/cpuid.c \
	bench/parallel.c host/bench/par.c
BENCH_SRC += bench/noise.c host/bench/perf_twin.c kernel/lib/json.c bench/probe.c bench/table.c \
	bench/cases.c bench/prims.c bench/parallel_out.c bench/data.c host/bench/opts.c \
	host/lib/machine.c
BENCH_SRC += bench/copy_pages.c bench/copy_pages_answer.c bench/clear_order.c bench/seed003.c
BENCH_SRC += bench/migrate_calc.c bench/migrate_copy.c host/bench/mig.c host/bench/movep.c host/bench/rep.c
$(B)/ck-bench: $(BENCH_SRC) $(HOST_ASM) $(wildcard bench/*.h copy/*.h host/*/*.h kernel/lib/*.h) | $(GEN_H)
	@$(if $(Q),echo "  HOSTCC  $@")
	$(Q)$(HOSTCC) $(CFLAGS_COMMON) -O2 -DCK_HOST -pthread $(BENCH_SRC) $(HOST_ASM) \
		-Wl,-z,noexecstack -o $@

# The Linux guest of tools/ck-guest.py (two NUMA nodes under QEMU): ck-bench and /init, static
# (the linker's warnings about dlopen of libnuma in a static program go to ck-bench.ld).
$(B)/guest/ck-bench: $(BENCH_SRC) $(HOST_ASM) \
		$(wildcard bench/*.h copy/*.h host/*/*.h kernel/lib/*.h) | $(GEN_H)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $@")
	$(Q)$(HOSTCC) $(CFLAGS_COMMON) -O2 -DCK_HOST -pthread -static $(BENCH_SRC) $(HOST_ASM) \
		-Wl,-z,noexecstack -o $@ 2>$@.ld || { cat $@.ld; exit 1; }
$(B)/guest/init: host/ck-guest-init.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $@")
	$(Q)$(HOSTCC) -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -static $< -o $@
guest: $(B)/guest/ck-bench $(B)/guest/init

BENCH_ARGS ?= --preset rfc --preset patterns --preset perf --preset primitives --preset big \
	--preset parallel --preset copy_pages --preset seed003 --preset migrate
bench: $(B)/ck-bench
	$(Q)$(B)/ck-bench $(BENCH_ARGS) --json $(B)/bench.jsonl
	@echo "JSON lines in $(B)/bench.jsonl (tools/ck-report.py turns them into tables)"

# The perf twin alone: the project's routines timed perf's way against `perf bench mem`.
bench-perf: $(B)/ck-bench
	$(Q)$(B)/ck-bench --preset perf --json $(B)/bench-perf.jsonl

# The soak's fill/verify/compare against memcmp/memset, hosted (SOAK_SPEED_ARGS='--mib 64').
SOAK_SPEED_SRC := host/soak/ck-soak-speed.c bench/stats.c kernel/lib/sort.c
$(B)/ck-soak-speed: $(SOAK_SPEED_SRC) $(HOST_ASM) copy/verify.h copy/march.h bench/stats.h
	@$(if $(Q),echo "  HOSTCC  $@")
	$(Q)$(HOSTCC) $(CFLAGS_COMMON) -O2 -DCK_HOST $(SOAK_SPEED_SRC) $(HOST_ASM) \
		-Wl,-z,noexecstack -o $@
SOAK_SPEED_ARGS ?=
soak-speed: $(B)/ck-soak-speed
	$(Q)$(B)/ck-soak-speed $(SOAK_SPEED_ARGS)

# The hosted twin of the cores suite: every kernel of cores/list.c (all of cores/, with copy/'s
# and cores/'s NASM objects) on every CPU at once on pinned threads, its verdicts and its rates.
CORES_TWIN_SRC := host/cores/ck-cores.c host/cores/twin.c host/cores/verdict.c host/cores/rate.c \
	$(wildcard cores/*.c) bench/stats.c kernel/lib/sort.c kernel/lib/json.c kernel/lib/format.c
$(B)/ck-cores: $(CORES_TWIN_SRC) $(HOST_ASM) $(wildcard host/cores/*.h cores/*.h bench/stats.h) \
		| $(GEN_H)
	@$(if $(Q),echo "  HOSTCC  $@")
	$(Q)$(HOSTCC) $(CFLAGS_COMMON) -O2 -DCK_HOST -pthread $(CORES_TWIN_SRC) $(HOST_ASM) \
		-Wl,-z,noexecstack -o $@
# Each cores kernel's rate alone and on every CPU at once (CORES_BENCH_ARGS='--runs 21').
CORES_BENCH_ARGS ?=
cores-bench: $(B)/ck-cores
	$(Q)$(B)/ck-cores --json $(B)/cores-bench.jsonl $(CORES_BENCH_ARGS)
	@echo "JSON lines in $(B)/cores-bench.jsonl"

# The hosted soak twin (host/soak/ck-soak.c) and its comparison with stressapptest, interleaved
# (stressapptest from ensure-deps; --hugepages reserves 2 MiB pages for both sides while it
# runs, as root; SOAK_BENCH_ARGS='--hugepages --rounds 15 --seconds 10' for a longer run).
# Every round first measures the all-core limits (host/soak/twin_allcore.c) the shares use.
SOAK_SRC := host/soak/ck-soak.c host/soak/twin_run.c host/soak/twin_report.c host/soak/twin_compare.c \
	host/soak/twin_machine.c host/soak/twin_work.c host/soak/twin_peer.c host/lib/machine.c \
	host/soak/twin_limit.c host/soak/twin_allcore.c bench/migrate_calc.c \
	soak/pattern.c soak/march.c soak/plan.c soak/ledger.c soak/report.c mce/decode.c mce/dimm.c \
	kernel/platform/smbios.c kernel/platform/numa.c kernel/platform/acpi.c bench/stats.c \
	kernel/lib/sort.c kernel/lib/json.c copy/dispatch.c copy/ops.c copy/pages.c kernel/mm/page.c \
	kernel/platform/cpufeat.c kernel/arch/cpuid.c kernel/lib/format.c
$(B)/ck-soak: $(SOAK_SRC) $(HOST_ASM) $(wildcard host/*/*.h soak/*.h copy/*.h) | $(GEN_H)
	@$(if $(Q),echo "  HOSTCC  $@")
	$(Q)$(HOSTCC) $(CFLAGS_COMMON) -O2 -DCK_HOST -pthread $(SOAK_SRC) $(HOST_ASM) \
		-Wl,-z,noexecstack -o $@
# The offline decoder of DRAM errors copied from a log (the image's lines, Linux's mce lines).
DECODE_SRC := host/decode/ck-decode.c host/decode/records.c mce/dimm.c mce/dimm_labels.c \
	kernel/lib/format.c
$(B)/ck-decode: $(DECODE_SRC) host/decode/records.h mce/dimm.h mce/dimm_labels.h mce/mce_regs.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $@")
	$(Q)$(HOSTCC) $(CFLAGS_COMMON) -O2 -DCK_HOST $(DECODE_SRC) -o $@
# The host injector: DRAM faults kept alive in a QEMU guest's RAM file (tools/ck-run.py --inject).
INJECT_SRC := host/inject/ck-inject.c host/inject/fault.c
$(B)/ck-inject: $(INJECT_SRC) host/inject/fault.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $@")
	$(Q)$(HOSTCC) $(CFLAGS_COMMON) -O2 -DCK_HOST $(INJECT_SRC) -o $@

SOAK_BENCH_ARGS ?= --hugepages
soak-bench: $(B)/ck-soak
	$(Q)tools/ensure-deps.sh soak-bench
	$(Q)$(B)/ck-soak --compare --log-dir $(B)/soak-bench --json $(B)/soak-bench.jsonl \
		$(SOAK_BENCH_ARGS)
	@echo "JSON lines in $(B)/soak-bench.jsonl, every run's output in $(B)/soak-bench/"

ARGS ?=
CMDLINE ?= $(ARGS)
NPROC := $(shell nproc 2>/dev/null || echo 2)

# `make run` boots SMP vCPUs (SMP=1 for one); ARGS is another name for CMDLINE (CMDLINE wins).
SMP ?= 2
run:
	$(Q)tools/ensure-deps.sh run
	$(Q)$(MAKE) --no-print-directory all
	$(Q)$(PYTHON) tools/ck-run.py --image $(B)/copykernel.efi --smp $(SMP) $(RUNFLAGS) -- \
		$(CMDLINE)

check:
	$(Q)tools/ensure-deps.sh check
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) all host-tests fuzz $(B)/copykernel.img $(B)/ck-bench \
		$(B)/ck-soak $(B)/ck-soak-speed $(B)/ck-cores $(B)/ck-cmdline-doc $(B)/guest/ck-bench $(B)/guest/init \
		$(B)/ck-inject $(B)/copykernel.signed.efi
	$(Q)$(PYTHON) tools/check.py --build $(B) --fuzz-seconds $(FUZZ_SECONDS)

# The soak and memtest86+ (Debian's, from OVMF's shell) on the same QEMU machine with the same
# DRAM faults kept alive by the host injector: found or not, time to first report, address and
# bit, per fault (tools/memtest-compare.py; MEMTEST_ARGS='--mem 512M --faults stuck0,none').
MEMTEST_ARGS ?=
memtest-compare:
	$(Q)tools/ensure-deps.sh memtest
	$(Q)$(MAKE) --no-print-directory all $(B)/ck-inject
	$(Q)$(PYTHON) tools/memtest-compare.py --build $(B) $(MEMTEST_ARGS)

# A default run on every CPU model QEMU lists (MODELS=all: every versioned name too, or a
# comma-separated list), two at a time, one table row per model (tests/qemu/model_tests.py).
MODELS ?=
models:
	$(Q)tools/ensure-deps.sh run
	$(Q)$(MAKE) --no-print-directory all
	$(Q)$(PYTHON) tests/qemu/model_tests.py --image $(B)/copykernel.efi --keep $(B)/models \
		$(if $(MODELS),--models $(MODELS))

# lava-run (LAVA's dispatcher, offline) boots the image under QEMU twice, from a disk image
# and with -kernel/-append, and every KTAP case must come back as a LAVA result (tools/ck-lava.py).
lava-check:
	$(Q)tools/ensure-deps.sh lava
	$(Q)$(MAKE) --no-print-directory all
	$(Q)$(PYTHON) tools/ck-lava.py check --build $(B)

# A LAVA server of its own on loopback (PostgreSQL, lava-server, one lava-worker, two QEMU
# devices): the fleet's jobs through its scheduler, their results read back through its REST
# API and held to the same jobs' serial logs, a worker stopped under a job; as root, it
# installs what is missing and leaves no process behind (tools/ck-lab.py, docs/user/lab.md).
lab-check:
	$(Q)timeout 1800 tools/ensure-deps.sh lab
	$(Q)$(MAKE) --no-print-directory all
	$(Q)$(PYTHON) tools/ck-lab.py check --build $(B)

clean:
	rm -rf $(B)

help:
	@echo "make            build $(B)/copykernel.efi"
	@echo "make sign       $(B)/copykernel.signed.efi for Secure Boot (KEY=, CERT=; default snakeoil)"
	@echo "make run        boot it under QEMU+OVMF (ARGS='bench=rfc', SMP=4, RUNFLAGS='--mem 2G')"
	@echo "make guest      static ck-bench and /init for tools/ck-guest.py (two NUMA nodes, QEMU)"
	@echo "make bench      hosted benchmarks (BENCH_ARGS='--preset rfc --preset perf')"
	@echo "make bench-perf the perf twin alone: our routines perf's way against perf bench mem"
	@echo "make soak-speed the soak's verify/compare/fill against memcmp/memset, hosted"
	@echo "make cores-bench the cores kernels hosted: verdicts, rates alone and on every CPU"
	@echo "make memtest-compare  the soak and memtest86+ on the same injected DRAM faults (QEMU)"
	@echo "make soak-bench the hosted soak twin against stressapptest, interleaved (a ratio)"
	@echo "make check      host unit tests, fuzzing, QEMU boot tests; ends 'N passed, N failed'"
	@echo "make models     a default run on every QEMU CPU model, one table row each (MODELS=all)"
	@echo "make cmdline-doc  write docs/reference/cmdline.md from the option table"
	@echo "make coverage-doc write the soak's fault-coverage table into docs/user/soak.md"
	@echo "make img        build $(B)/copykernel.img, a GPT disk image for a USB stick"
	@echo "make lava-check run the image under LAVA's lava-run (offline) and compare with KTAP"
	@echo "make lab-check  a LAVA server on loopback: a fleet of jobs through its scheduler (root)"
	@echo "make clean      remove $(B)/"
	@echo "V=1             show commands; CROSS_COMPILE=x86_64-linux-gnu- for a cross build"

-include $(shell find $(B) -name '*.d' 2>/dev/null)
