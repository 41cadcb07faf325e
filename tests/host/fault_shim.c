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
#include "tests/host/fault_shim.h"

extern struct exception_table_entry __start_ck_extable[], __stop_ck_extable[];

struct shim_fault shim_last;

/* struct pt_regs register index (kernel/arch/traps.h order) -> ucontext register. */
static const int greg_of[15] = {
	REG_R15, REG_R14, REG_R13, REG_R12, REG_R11, REG_R10, REG_R9, REG_R8,
	REG_RBP, REG_RDI, REG_RSI, REG_RDX, REG_RCX, REG_RBX, REG_RAX,
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
	if (ex_type_sets_trapnr(ex_type(e)) && ex_reg(e) < 15)
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
