"""PNG plots (matplotlib, Agg): throughput against batch size per mode, and a lane
timeline of drafter and target busy intervals over a few steps."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..trace import Trace

_COLORS = {"ar": "tab:gray", "sd": "tab:blue", "psd": "tab:red", "flex": "tab:purple", "hf_generate": "tab:olive",
           "hf_assisted": "tab:cyan"}
# Modes without a colour of their own take the first free one, so that no two modes share one.
_SPARE = ("tab:brown", "tab:pink", "tab:green", "tab:orange", "black", "gold", "navy", "teal", "lime", "maroon")
_LANE_COLORS = {"draft": "tab:orange", "target": "tab:green"}


def _pyplot():
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def mode_colors(modes: Sequence[str]) -> dict[str, str]:
    """One distinct colour per mode: the fixed ones, then spares in order of appearance."""
    out = {m: _COLORS[m] for m in modes if m in _COLORS}
    spare = [c for c in _SPARE if c not in out.values()]
    for m in dict.fromkeys(modes):
        if m not in out:
            out[m] = spare.pop(0) if spare else "black"
    return out


def _series(rows: Sequence[dict[str, Any]]) -> dict[tuple[str, int], list[dict[str, Any]]]:
    out: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for r in rows:
        out.setdefault((r["mode"], r["k"]), []).append(r)
    for rs in out.values():
        rs.sort(key=lambda r: r["concurrency"])
    return out


def throughput_plot(results: dict[str, Any], path: str | Path) -> None:
    """Measured tokens/s (median, min-max bars) per mode against requests in flight; dashed:
    cost-model prediction. One panel per draft length k when several were run (k-independent
    modes in every panel); each mode has its own colour."""
    plt = _pyplot()
    rows = [r for r in results["results"] if r["kind"] != "reference"]  # flex-bar rows: in the table only
    colors = mode_colors([r["mode"] for r in rows])
    ks = sorted({r["k"] for r in rows if r["k"] > 0}) or [0]
    fig, axes = plt.subplots(1, len(ks), figsize=(4.2 + 3.3 * len(ks), 4.5), squeeze=False, sharey=True)
    for ax, k in zip(axes[0], ks):
        panel = [r for r in rows if r["k"] in (0, k)]
        for (mode, kk), series in sorted(_series(panel).items()):
            _plot_series(ax, mode if kk == 0 else f"{mode} k={kk}", series, colors[mode])
        _batch_axis(ax, [r["concurrency"] for r in rows])
        ax.set_title(f"k = {k}" if k else "", fontsize=9)
        ax.set_xlabel("requests in flight (PSD/flex: two sub-batches of half)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, ncol=2)
    axes[0, 0].set_ylabel("output tokens/s")
    fig.suptitle(f"minedraft bench: {results['label']}", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _plot_series(ax: Any, label: str, rows: list[dict[str, Any]], color: str) -> None:
    xs = [r["concurrency"] for r in rows]
    ys = [r["tokens_per_second"] for r in rows]
    err = [[y - r["tokens_per_second_min"] for y, r in zip(ys, rows)],
           [r["tokens_per_second_max"] - y for y, r in zip(ys, rows)]]
    marker = "s" if rows[0]["kind"] == "peer" else "o"
    ax.errorbar(xs, ys, yerr=err, marker=marker, color=color, label=label, capsize=3)
    pred = [(r["concurrency"], r["predicted"]["tokens_per_second"]) for r in rows if r["predicted"]]
    if pred:
        ax.plot(*zip(*pred), linestyle="--", color=color, alpha=0.6, label=f"{label} (predicted)")


def _batch_axis(ax: Any, sizes: Sequence[int]) -> None:
    ticks = sorted(set(sizes))
    ax.set_xscale("log", base=2)
    ax.set_xticks(ticks, [str(t) for t in ticks])
    ax.minorticks_off()


def _pick_timeline(traces: dict[tuple[str, int, int], Trace], batch: int | None) -> list[tuple[str, int, int]]:
    keys = [k for k, t in traces.items() if t.intervals and t.steps]
    if not keys:
        return []
    sizes = sorted({k[1] for k in keys})
    if batch is None or batch not in sizes:
        small = [b for b in sizes if b <= 8]
        batch = max(small) if small else sizes[0]
    drafting = sorted({k[2] for k in keys if k[1] == batch and k[0] != "ar"})
    if not drafting:
        return [k for k in keys if k[1] == batch][:1]
    k_shown = drafting[len(drafting) // 2]
    chosen = [k for k in keys if k[1] == batch and k[2] == k_shown and k[0] != "ar"]
    return sorted(chosen, key=lambda k: (k[0] != "sd", k[0] != "psd", k[0]))[:3]


def _window(trace: Trace, steps: int) -> tuple[float, float]:
    """A few consecutive steps from the middle of the run (steady state)."""
    n = len(trace.steps)
    start = max(0, min(n // 3, n - steps))
    chosen = trace.steps[start : start + steps]
    return chosen[0].start, chosen[-1].end


def timeline_plot(traces: dict[tuple[str, int, int], Trace], path: str | Path, batch: int | None = None,
                  steps: int = 6) -> list[tuple[str, int, int]] | None:
    """Busy intervals of the draft and target lanes over ``steps`` steps, one panel per
    mode (same time scale); vertical lines mark step boundaries."""
    keys = _pick_timeline(traces, batch)
    if not keys:
        return None
    plt = _pyplot()
    windows = {k: _window(traces[k], steps) for k in keys}
    span = max(end - start for start, end in windows.values())
    fig, axes = plt.subplots(len(keys), 1, figsize=(9, 1.4 + 1.3 * len(keys)), squeeze=False)
    for ax, key in zip(axes[:, 0], keys):
        t0, t1 = windows[key]
        trace = traces[key]
        for row, lane in enumerate(("draft", "target")):
            bars = [(iv.start - t0, iv.end - iv.start) for iv in trace.intervals
                    if iv.lane == lane and iv.end > t0 and iv.start < t1]
            ax.broken_barh([(1000 * s, 1000 * d) for s, d in bars], (row - 0.35, 0.7), color=_LANE_COLORS[lane])
        for s in trace.steps:
            if t0 <= s.start <= t1:
                ax.axvline(1000 * (s.start - t0), color="black", linewidth=0.6, alpha=0.5)
        ax.set_yticks([0, 1], ["draft lane", "target lane"])
        ax.set_xlim(0, 1000 * span)
        mode, b, k = key
        conc = 2 * b if mode == "psd" else b
        ax.set_title(f"{mode}: b={b} k={k} (in flight {conc}), {steps} steps", fontsize=9)
    axes[-1, 0].set_xlabel("ms from the first step shown")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return keys


def compare_plot(runs: Sequence[tuple[str, dict[str, Any]]], path: str | Path) -> None:
    """Throughput against requests in flight: colour = mode, line style/marker = results file."""
    plt = _pyplot()
    colors = mode_colors([r["mode"] for _, res in runs for r in res["results"]])
    styles = ["-", "--", ":", "-."]
    markers = ["o", "s", "^", "D", "v"]
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    for i, (label, results) in enumerate(runs):
        for (mode, k), rows in sorted(_series(results["results"]).items()):
            name = mode if k == 0 else f"{mode} k={k}"
            ax.plot([r["concurrency"] for r in rows], [r["tokens_per_second"] for r in rows],
                    linestyle=styles[i % len(styles)], marker=markers[i % len(markers)],
                    color=colors[mode], label=f"{name} [{label}]")
    _batch_axis(ax, [r["concurrency"] for _, res in runs for r in res["results"]])
    ax.set_yscale("log")
    ax.set_xlabel("requests in flight")
    ax.set_ylabel("output tokens/s")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=6, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
