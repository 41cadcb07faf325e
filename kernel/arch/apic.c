// SPDX-License-Identifier: GPL-2.0-only
/*
 * apic.c - local APIC access for the running CPU (see apic.h). The boot CPU decides the
 * mode; APs follow it. Nothing here waits without a bound.
 */
#include "kernel/arch/apic.h"
#include "kernel/arch/paging.h"
#include "kernel/include/x86.h"

static enum apic_mode mode;
static u64 base;

static volatile u32 *mmio(u32 reg)
{
	return (volatile u32 *)(uintptr_t)(base + reg);
}

bool apic_x2apic_capable(void)
{
	return cpu_has(X86_FEATURE_X2APIC);
}

bool apic_init(u64 madt_addr, const char **note)
{
	u64 msr = rdmsr(MSR_IA32_APIC_BASE);

	*note = NULL;
	base = apic_base_addr(msr, cpu_phys_bits());
	if (!(msr & APIC_BASE_EN)) {
		mode = APIC_MODE_OFF;
		return false;
	}
	mode = (msr & APIC_BASE_EXTD) ? APIC_MODE_X2APIC : APIC_MODE_XAPIC;
	if (madt_addr && madt_addr != base)
		*note = "the MADT's local APIC address differs from IA32_APIC_BASE; using the MSR";
	if (mode == APIC_MODE_XAPIC)
		pg_map(base, base + SZ_4K, PG_MMIO);
	return true;
}

enum apic_mode apic_mode(void)
{
	return mode;
}

const char *apic_mode_name(enum apic_mode m)
{
	return m == APIC_MODE_X2APIC ? "x2APIC" : m == APIC_MODE_XAPIC ? "xAPIC" : "disabled";
}

bool apic_enable_x2apic(void)
{
	u64 msr = rdmsr(MSR_IA32_APIC_BASE);

	if (!apic_x2apic_capable())
		return false;
	if (!(msr & APIC_BASE_EXTD))
		wrmsr(MSR_IA32_APIC_BASE, msr | APIC_BASE_EN | APIC_BASE_EXTD);
	mode = APIC_MODE_X2APIC;
	return true;
}

void apic_ap_mode(void)
{
	u64 msr = rdmsr(MSR_IA32_APIC_BASE);

	/* xAPIC to x2APIC is allowed directly; the reverse needs a disable first. */
	if (mode == APIC_MODE_X2APIC && !(msr & APIC_BASE_EXTD))
		wrmsr(MSR_IA32_APIC_BASE, msr | APIC_BASE_EN | APIC_BASE_EXTD);
}

u32 apic_read(u32 reg)
{
	if (mode == APIC_MODE_X2APIC)
		return (u32)rdmsr(MSR_X2APIC_REG(reg));
	return *mmio(reg);
}

void apic_write(u32 reg, u32 val)
{
	if (mode == APIC_MODE_X2APIC)
		wrmsr(MSR_X2APIC_REG(reg), val);
	else
		*mmio(reg) = val;
}

u32 apic_id(void)
{
	u32 id = apic_read(APIC_ID);

	return mode == APIC_MODE_X2APIC ? id : id >> APIC_XAPIC_ID_SHIFT;
}

void apic_eoi(void)
{
	apic_write(APIC_EOI, 0);
}

void apic_icr_write(u32 dest, u32 low)
{
	if (mode == APIC_MODE_X2APIC) {
		/*
		 * One 64-bit write. WRMSR to x2APIC registers is not serialising (SDM vol. 3,
		 * "x2APIC"): without mfence; lfence the IPI can overtake the stores it announces.
		 */
		__asm__ volatile("mfence; lfence" ::: "memory");
		wrmsr(MSR_X2APIC_ICR, ((u64)dest << 32) | low);
		return;
	}
	*mmio(APIC_ICR_HIGH) = dest << APIC_ICR_DEST_SHIFT;
	*mmio(APIC_ICR) = low;
}

bool apic_icr_busy(void)
{
	return mode == APIC_MODE_XAPIC && (*mmio(APIC_ICR) & ICR_BUSY);
}

u32 apic_esr(void)
{
	apic_write(APIC_ESR, 0);
	return apic_read(APIC_ESR);
}

unsigned int apic_max_lvt(void)
{
	return (apic_read(APIC_VERSION) >> APIC_VERSION_MAXLVT_SHIFT) & 0xff;
}

void apic_cpu_setup(bool bsp)
{
	if (!bsp) {
		apic_write(APIC_LVT_TIMER, APIC_LVT_MASKED);
		apic_write(APIC_LVT_LINT0, APIC_LVT_MASKED);
		apic_write(APIC_LVT_LINT1, APIC_LVT_MASKED | APIC_LVT_DM_NMI);	/* as Linux */
		apic_write(APIC_LVT_ERROR, APIC_LVT_MASKED);
		/* The CMCI entry exists from max LVT 6 on; mce/ points it at its vector. */
		if (apic_max_lvt() >= APIC_MAXLVT_CMCI)
			apic_write(APIC_LVT_CMCI, APIC_LVT_MASKED);
	}
	apic_write(APIC_SVR, APIC_SVR_ENABLE | VECTOR_SPURIOUS);
	apic_esr();
}

static void icr_wait(void)
{
	for (unsigned int i = 0; i < APIC_ICR_IDLE_SPINS && apic_icr_busy(); i++)
		cpu_relax();
}

void apic_send_ipi(u32 dest, u8 vector)
{
	icr_wait();
	apic_icr_write(dest, ICR_DM_FIXED | vector);
}

void apic_send_nmi(u32 dest)
{
	icr_wait();
	apic_icr_write(dest, ICR_DM_NMI);
	icr_wait();
}
