// SPDX-License-Identifier: GPL-2.0-only
/*
 * fault_shim.c - resume at exception-table fixups from a SIGSEGV handler (see fault_shim.h).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include "kernel/include/extable.h"
#include "kernel/include/ptrace.h"
#include "tests/host/fault_shim.h"

extern struct exception_table_entry __start_ck_extable[], __stop_ck_extable[];

struct shim_fault shim_last;

/* struct pt_regs register index (generated from kernel/include/ptrace.h) -> ucontext's. */
static const int greg_of[PT_REGS_NR_GPRS] = {
	[PT_REG_R15] = REG_R15, [PT_REG_R14] = REG_R14, [PT_REG_R13] = REG_R13,
	[PT_REG_R12] = REG_R12, [PT_REG_R11] = REG_R11, [PT_REG_R10] = REG_R10,
	[PT_REG_R9] = REG_R9, [PT_REG_R8] = REG_R8, [PT_REG_RBP] = REG_RBP,
	[PT_REG_RDI] = REG_RDI, [PT_REG_RSI] = REG_RSI, [PT_REG_RDX] = REG_RDX,
	[PT_REG_RCX] = REG_RCX, [PT_REG_RBX] = REG_RBX, [PT_REG_RAX] = REG_RAX,
};

static void handler(int sig, siginfo_t *si, void *uc_void)
{
	ucontext_t *uc = uc_void;
	greg_t *g = uc->uc_mcontext.gregs;
	const struct exception_table_entry *e;

	e = ex_search(__start_ck_extable, __stop_ck_extable, (uintptr_t)g[REG_RIP]);
	if (!e) {
		signal(sig, SIG_DFL);	/* not ours: let it kill the process as it would */
		return;
	}
	shim_last.count++;
	shim_last.rip = (uintptr_t)g[REG_RIP];
	shim_last.fixup = ex_fixup_addr(e);
	shim_last.addr = (uintptr_t)si->si_addr;
	if (ex_type_sets_trapnr(ex_type(e)) && ex_reg(e) < PT_REGS_NR_GPRS)
		g[greg_of[ex_reg(e)]] = 14;
	g[REG_RIP] = (greg_t)ex_fixup_addr(e);
}

void fault_shim_install(void)
{
	struct sigaction sa;

	ex_sort(__start_ck_extable, __stop_ck_extable);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
}

long fault_shim_entries(void)
{
	return (long)(__stop_ck_extable - __start_ck_extable);
}

int fault_shim_valid(void)
{
	return ex_validate(__start_ck_extable, __stop_ck_extable) == -1;
}
