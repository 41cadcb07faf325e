# SPDX-License-Identifier: GPL-2.0-only
"""cklib.plots - ck-report.py's figures (matplotlib's file backend, Debian's
python3-matplotlib): bandwidth against size with the ratios per API and mode, and the fleet's
key figures per CPU model.
"""
import os
import re
import sys
from collections import defaultdict

from cklib.common import BadInput, os_problem
from cklib.fleet import KEY_FIGURES
from cklib.records import gbps, size_name

def plot_setup(outdir):
    """Make @outdir and load matplotlib's file backend: pyplot, or None (said) without it."""
    try:
        os.makedirs(outdir, exist_ok=True)
    except OSError as e:
        raise BadInput(outdir, "cannot make the plot directory: %s" %
                       ("a file of that name exists" if isinstance(e, FileExistsError)
                        else os_problem(e)))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("ck-report: plots need matplotlib (Debian: python3-matplotlib, run with "
              "/usr/bin/python3)", file=sys.stderr)
        return None
    return plt


def plot(recs, outdir):
    plt = plot_setup(outdir)
    if plt is None:
        return 0
    machine = next((r for r in recs if r.get("kind") == "machine"), {})
    label = "%s; cold: %s; %s rounds%s" % (
        machine.get("machine", "machine unknown"), machine.get("cold_method", "?"),
        machine.get("rounds", machine.get("runs", "?")),
        "; EMULATED (under a hypervisor)" if machine.get("hypervisor") else "")
    series = defaultdict(list)
    for r in recs:
        if r.get("kind") != "result":
            continue
        med = gbps(r["median_mbps"])
        lo = hi = med
        if r.get("q1_ns") and r.get("q3_ns") and r.get("median_ns"):
            lo = med * r["median_ns"] / r["q3_ns"]      # slower quartile: lower bandwidth
            hi = med * r["median_ns"] / r["q1_ns"]
        dirn = "%s->%s" % (r.get("src_node", "node0"), r.get("dst_node", "node0"))
        api = r["api"]
        if api == "primitive":          # copies and clears apart: one figure each
            api = "clear primitives" if r["primitive"].startswith("clear") else "copy primitives"
        series[(api, r["mode"], r["primitive"], dirn)].append((r["size"], med, lo, hi))
    ratios = defaultdict(list)
    for c in recs:
        if c.get("kind") == "comparison":
            ratios[(c["api"], c["mode"], "%s / %s" % (c["candidate"], c["baseline"]),
                    "%s->%s" % (c.get("src_node", "node0"), c.get("dst_node", "node0")))].append(
                (c["size"], c["ratio_x1000"] / 1000.0, c["ci_lo_x1000"] / 1000.0,
                 c["ci_hi_x1000"] / 1000.0))
    apis = sorted({k[0] for k in series} | {k[0] for k in ratios})
    made = 0
    for api in apis:
        modes = sorted({k[1] for k in series if k[0] == api} |
                       {k[1] for k in ratios if k[0] == api})
        has_ratio = any(k[0] == api for k in ratios)
        fig, axes = plt.subplots(2 if has_ratio else 1, len(modes), squeeze=False,
                                 figsize=(6 * len(modes), 8 if has_ratio else 5))
        for col, mode in enumerate(modes):
            ax = axes[0][col]
            for key in sorted(k for k in series if k[0] == api and k[1] == mode):
                pts = sorted(series[key])
                ax.errorbar([p[0] for p in pts], [p[1] for p in pts],
                            yerr=[[p[1] - p[2] for p in pts], [p[3] - p[1] for p in pts]],
                            marker="o", capsize=3, label="%s %s" % (key[2], key[3]))
            ax.set_title("%s, %s (error bars: quartiles)" % (api, mode), fontsize=9)
            ax.set_ylabel("GB/s (median)")
            ax.set_ylim(bottom=0)
            size_axis(ax, [p[0] for k in series if k[0] == api for p in series[k]])
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=6)
            if has_ratio:
                ax = axes[1][col]
                for key in sorted(k for k in ratios if k[0] == api and k[1] == mode):
                    pts = sorted(ratios[key])
                    ax.errorbar([p[0] for p in pts], [p[1] for p in pts],
                                yerr=[[p[1] - p[2] for p in pts], [p[3] - p[1] for p in pts]],
                                marker="s", capsize=3, label="%s %s" % (key[2], key[3]))
                ax.axhline(1.0, color="grey", linewidth=0.8)
                ax.set_ylabel("speed ratio, 95% CI")
                ax.set_ylim(bottom=0)
                size_axis(ax, [p[0] for k in ratios if k[0] == api for p in ratios[k]])
                ax.grid(True, alpha=0.3)
                ax.legend(fontsize=6)
        fig.suptitle(label, fontsize=8)
        fig.tight_layout()
        base = os.path.join(outdir, re.sub(r"[^A-Za-z0-9_.+-]", "_", api).lstrip("."))
        fig.savefig(base + ".png", dpi=100)
        fig.savefig(base + ".svg")
        plt.close(fig)
        made += 1
    print("ck-report: %d plots in %s" % (made, outdir), file=sys.stderr)
    return made


def fleet_plot(machines, outdir):
    """One strip per key figure: each machine a dot by CPU model, flagged ones in red."""
    plt = plot_setup(outdir)
    if plt is None:
        return 0
    cols = [f for f in KEY_FIGURES if any(f in m.figures for m in machines)]
    if not cols:
        return 0
    models = sorted({m.cpu_key() for m in machines})
    fig, axes = plt.subplots(1, len(cols), figsize=(3.2 * len(cols), 4.5), squeeze=False)
    for ax, col in zip(axes[0], cols):
        for i, key in enumerate(models):
            for m in machines:
                if m.cpu_key() != key or col not in m.figures:
                    continue
                bad = any(f.startswith("outlier " + col + ":") for f in m.flags)
                ax.scatter([i], [m.figures[col]], color="red" if bad else "tab:blue",
                           marker="x" if bad else "o")
                if bad:
                    ax.annotate(m.name, (i, m.figures[col]), fontsize=7)
        ax.set_xticks(range(len(models)))
        ax.set_xticklabels(models, rotation=30, ha="right", fontsize=7)
        ax.set_title(col, fontsize=9)
        ax.set_ylabel("MB/s")
        ax.grid(True, alpha=0.3)
    fig.tight_layout()
    base = os.path.join(outdir, "fleet")
    fig.savefig(base + ".png", dpi=100)
    fig.savefig(base + ".svg")
    plt.close(fig)
    print("ck-report: fleet plot in %s.png and .svg" % base, file=sys.stderr)
    return 1


def size_axis(ax, sizes):
    """A log2 size axis labelled 4K, 2M, 1G at the sizes measured."""
    ticks = sorted(set(s for s in sizes if s > 0))
    ax.set_xscale("log", base=2)
    if ticks:
        ax.set_xticks(ticks)
        ax.set_xticklabels([size_name(t) for t in ticks], fontsize=7)
        ax.minorticks_off()
    ax.set_xlabel("size")

