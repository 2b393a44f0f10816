"""The text table and the plot of a ``minedraft bench-serving`` results object."""

from __future__ import annotations

from typing import Any

from .plots import _pyplot, mode_colors
from .report import footer_lines, table
from .serving_metrics import rate_label

HEADERS = ("mode", "rate", "done/err", "req/s", "out tok/s", "TTFT p50/p90/p99 ms", "TPOT p50/p90/p99 ms",
           "ITL p50/p90/p99 ms", "E2E p50/p90/p99 s", "goodput", "accept", "=AR")


def _ms3(d: dict[str, Any]) -> str:
    return "/".join("-" if d[q] is None else f"{1000 * d[q]:.0f}" for q in ("p50", "p90", "p99"))


def _s3(d: dict[str, Any]) -> str:
    return "/".join("-" if d[q] is None else f"{d[q]:.2f}" for q in ("p50", "p90", "p99"))


def _opt(x: float | None, fmt: str) -> str:
    return "-" if x is None else fmt.format(x)


def run_rows(results: dict[str, Any]) -> list[list[str]]:
    return [[r["mode"], rate_label(r["request_rate"]), f"{r['completed']}/{r['errors']}",
             f"{r['request_throughput']:.2f}", f"{r['output_throughput']:.1f}", _ms3(r["ttft"]), _ms3(r["tpot"]),
             _ms3(r["itl"]), _s3(r["e2e_latency"]), _opt(r["goodput"], "{:.2f}"),
             _opt(r["acceptance_rate"], "{:.2f}"), _opt(r["matches_reference"], "{:.2f}")]
            for r in results["runs"]]


def _load_line(cfg: dict[str, Any]) -> str:
    if cfg.get("base_url"):
        return f"transport: HTTP {cfg['base_url']} /v1/completions (stream); the server decides batching and cores"
    cores = {True: "equal cores", False: "UNEQUAL CORES", None: "no lane mode"}[cfg.get("equal_cores")]
    return (f"transport: in-process; every mode: the same requests and arrival times, at most {cfg['max_running']} "
            f"in flight (PSD: two sub-batches of {cfg['max_running'] // 2}); threads AR/SD "
            f"{cfg['sequential_threads']}, PSD {cfg['lane_threads']} per lane ({cores})")


def render_serving(results: dict[str, Any]) -> str:
    cfg = results["config"]
    slo = [f"TTFT <= {1000 * cfg['slo_ttft']:.0f} ms" if cfg.get("slo_ttft") else "",
           f"TPOT <= {1000 * cfg['slo_tpot']:.0f} ms" if cfg.get("slo_tpot") else ""]
    slo_text = " and ".join(s for s in slo if s) or "none given (goodput -)"
    engines = results["engines"]
    if cfg.get("base_url"):  # the server chose the models and k
        serving = f"server={engines.get('server', cfg['base_url'])} model={engines.get('model') or '-'}"
    else:
        serving = f"target={engines.get('target', cfg.get('target'))} draft={engines.get('draft')} k={cfg['k']}"
    out = [f"minedraft bench-serving: {results['label']}",
           f"{serving} prompts={cfg['num_prompts']} ({cfg['prompt_class']}) max_new_tokens={cfg['max_new_tokens']} "
           f"x[{1 - cfg['max_new_tokens_spread']:g}, {1 + cfg['max_new_tokens_spread']:g}] "
           f"arrivals: {'Poisson' if cfg['burstiness'] == 1 else 'gamma burstiness ' + str(cfg['burstiness'])}, "
           f"max concurrency {cfg['max_concurrency'] or '-'}",
           _load_line(cfg), f"SLO: {slo_text}", "",
           table(HEADERS, run_rows(results)),
           "rate: offered requests/s (inf: all at once); goodput: requests/s meeting the SLO; ITL: gaps between "
           "streamed chunks (a speculative step may stream several tokens at once); =AR: share of outputs equal "
           "to AR's at the same rate (under 16-bit dtypes round-off flips near-ties: docs/benchmarks.md)"]
    errors = [(r["mode"], rate_label(r["request_rate"]), m) for r in results["runs"] for m in r["error_messages"]]
    out += [f"error: {mode} at {rate}: {m}" for mode, rate, m in errors]
    out += footer_lines(results)
    return "\n".join(out)


def serving_plot(results: dict[str, Any], path: Any) -> None:
    """Output tokens/s and p90 latency (E2E solid, TTFT dashed) against offered load, one
    colour per mode; inf (all at once) sits at the right end."""
    plt = _pyplot()
    runs = results["runs"]
    rates = sorted({r["request_rate"] for r in runs if r["request_rate"] is not None})
    has_inf = any(r["request_rate"] is None for r in runs)
    xs = {rate: i for i, rate in enumerate(rates)} | ({None: len(rates)} if has_inf else {})
    colors = mode_colors([r["mode"] for r in runs])
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.2))
    for mode in dict.fromkeys(r["mode"] for r in runs):
        mine = sorted((r for r in runs if r["mode"] == mode), key=lambda r: xs[r["request_rate"]])
        x = [xs[r["request_rate"]] for r in mine]
        left.plot(x, [r["output_throughput"] for r in mine], marker="o", color=colors[mode], label=mode)
        right.plot(x, [r["e2e_latency"]["p90"] for r in mine], marker="o", color=colors[mode], label=f"{mode} E2E")
        right.plot(x, [r["ttft"]["p90"] for r in mine], marker="x", linestyle="--", color=colors[mode],
                   label=f"{mode} TTFT")
    for ax, ylabel in ((left, "output tokens/s"), (right, "p90 latency (s)")):
        ax.set_xticks(list(xs.values()), [rate_label(r) for r in xs])
        ax.set_xlabel("offered load (requests/s)")
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, ncol=2)
    fig.suptitle(f"minedraft bench-serving: {results['label']}", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
