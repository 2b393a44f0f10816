"""``minedraft compare``: results files of several runs (backends, machines, versions)
side by side. Rows are (mode, batch size, k), with the requests they held in flight; each
file contributes its median tokens/s, and every file after the first also its ratio to the
first. A file whose workload or machine differs from the first's is said so: its ratios
then compare unlike runs."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..types import InvalidInputError
from . import analysis, oracle, prediction, schema
from .report import table


def load_runs(paths: Sequence[str | Path]) -> list[tuple[str, dict[str, Any]]]:
    if len(paths) < 1:
        raise InvalidInputError("compare needs at least one results file, got none")
    runs, seen = [], set()
    for p in paths:
        if Path(p).is_dir():  # a bench's output folder
            p = Path(p) / "results.json"
        results = schema.load(p)
        label = results["label"]
        if label in seen:  # two runs with one label: tell them apart by file name
            label = f"{label} [{p}]"
        seen.add(label)
        runs.append((label, results))
    return runs


def _key(row: dict[str, Any]) -> tuple[int, int, int, str]:
    return (row["kind"] != "scheduler", row["batch_size"], row["k"], row["mode"])


def compare_table(runs: Sequence[tuple[str, dict[str, Any]]]) -> str:
    index = [{(r["mode"], r["batch_size"], r["k"]): r for r in results["results"]} for _, results in runs]
    keys = sorted({k for idx in index for k in idx}, key=lambda k: _key(idx_row(index, k)))
    headers = ["mode", "b", "k", "conc"]
    for i in range(len(runs)):
        headers += [f"[{i + 1}] tok/s"] + ([f"[{i + 1}]/[1]"] if i else [])
    rows = []
    for key in keys:
        base = index[0].get(key)
        row = [key[0], str(key[1]), str(key[2]), str(idx_row(index, key).get("concurrency", "-"))]
        for i, idx in enumerate(index):
            r = idx.get(key)
            row.append("-" if r is None else f"{r['tokens_per_second']:.1f}")
            if i:
                ok = r is not None and base is not None and base["tokens_per_second"] > 0
                row.append(f"{r['tokens_per_second'] / base['tokens_per_second']:.2f}x" if ok else "-")
        rows.append(row)
    legend = [f"[{i + 1}] {label}: {res['config'].get('backend')} on {res['hardware'].get('cpu_model')}"
              f"{' + ' + ', '.join(res['hardware']['gpus']) if res['hardware'].get('gpus') else ''}, "
              f"target={res['engines'].get('target', res['config'].get('target'))} "
              f"draft={res['engines'].get('draft')}, {res['created']}"
              for i, (label, res) in enumerate(runs)]
    return "\n".join(legend + difference_lines(runs) + ["", table(headers, rows)])


# What a run measured with, as opposed to which points it measured or how it reported them.
_NOT_WORKLOAD = frozenset({
    "modes", "in_flight", "batch_sizes", "ks", "repeats", "peers", "peers_run", "cooperative", "calibrate",
    "calibration_reps", "recalibrate", "warmup", "keep_steps", "timeline_batch", "timeline_steps", "out_dir",
    "label", "progress", "preset",
})
_HARDWARE = ("cpu_model", "cpu_affinity", "gpus")


def difference_lines(runs: Sequence[tuple[str, dict[str, Any]]]) -> list[str]:
    """One line per file whose workload (config) or machine differs from the first file's."""
    _, first = runs[0]
    lines = []
    for i, (_, res) in enumerate(runs[1:], start=2):
        diffs = [f"{key} {res['config'].get(key)!r} vs {first['config'].get(key)!r}"
                 for key in sorted(set(first["config"]) | set(res["config"]))
                 if key not in _NOT_WORKLOAD and res["config"].get(key) != first["config"].get(key)]
        diffs += [f"{key} {res['hardware'].get(key)!r} vs {first['hardware'].get(key)!r}"
                  for key in _HARDWARE if res["hardware"].get(key) != first["hardware"].get(key)]
        if diffs:
            lines.append(f"[{i}] differs from [1] (UNLIKE RUNS: its ratios compare different workloads or machines): "
                         + "; ".join(diffs))
    return lines


def idx_row(index: list[dict], key: tuple[str, int, int]) -> dict[str, Any]:
    for idx in index:
        if key in idx:
            return idx[key]
    raise KeyError(key)


def flex_bar_lines(runs: Sequence[tuple[str, dict[str, Any]]]) -> list[str]:
    """The flex bar across runs (it asks for several consecutive runs): each run's verdict at
    equal load, and the chance that an oracle flex meets it in all of them (the product of
    each run's chance at its own noise)."""
    summaries = []
    for i, (_, res) in enumerate(runs):
        found = oracle.stored_summary(res) if res.get("flex_bar") else None
        if found:
            summaries.append((i, found))
    if not summaries:
        return []
    lines = ["", "Flex bar at equal load (every point >= 0.95x and mean >= 1.0x the best fixed mode):"]
    chance = 1.0
    for i, s in summaries:
        met = s["every_point_met"] and s["mean_met"]
        odds = s.get("oracle")
        chance = chance * odds["both"] if odds and chance is not None else None
        lines.append(f"  [{i + 1}] {'met' if met else 'NOT met'}: {s['points'] - s['under_bar']} of {s['points']} "
                     f"points, mean {s['mean_ratio']:.3f}x"
                     + (f"; an oracle flex would meet it in {odds['both']:.0%} of such runs" if odds else ""))
    met_all = all(s["every_point_met"] and s["mean_met"] for _, s in summaries)
    lines.append(f"  all {len(summaries)}: {'met' if met_all else 'NOT met'}"
                 + (f"; an oracle flex would meet all {len(summaries)} with probability {chance:.3f}"
                    if chance is not None else ""))
    return lines


def cost_model_lines(runs: Sequence[tuple[str, dict[str, Any]]]) -> list[str]:
    """The cost-model bar across runs (within 10% at every measured point): each run's
    configurations predicted trial by trial by every fit of ``prediction.MODELS``, refitted
    from the file's own trials and calibration (so files written before a fit are judged by
    it too); a fit without predictions in a run (no calibration) is left out of its line."""
    tallies: list[tuple[int, dict[str, tuple[int, int, float]]]] = []
    for i, (_, res) in enumerate(runs):
        cfg = res["config"]
        if "sequential_threads" not in cfg or "lane_threads" not in cfg:
            continue
        threads = analysis.step_threads(cfg)
        calibration = (res.get("cost_model") or {}).get("calibration", [])
        entries = prediction.prediction_table(res["trials"], calibration, threads, analysis.psd_overhead(res["trials"]))
        fits = {}
        for name in prediction.MODELS:
            ratios = [e[name]["ratio"] for e in entries]
            if entries and any(r is not None for r in ratios):
                worst = max((r for r in ratios if r is not None), key=lambda r: abs(r - 1.0))
                fits[name] = (sum(e[name]["within_tolerance"] for e in entries), len(entries), worst)
        if fits:
            tallies.append((i, fits))
    if not tallies:
        return []
    out = ["", f"Cost model against measured decode tok/s (bar: within {prediction.TOLERANCE:.0%} at every point; "
               "refitted from each file's trials):"]
    for i, fits in tallies:
        out.append(f"  [{i + 1}] " + "; ".join(f"{n.replace('_', '-')} {w} of {m} (worst {r:.2f}x)"
                                               for n, (w, m, r) in fits.items()))
    for name in prediction.MODELS:
        judged = [fits[name] for _, fits in tallies if name in fits]
        if judged:
            met = sum(w == m for w, m, _ in judged)
            out.append(f"  {name.replace('_', '-')}: every point within {prediction.TOLERANCE:.0%} in {met} of {len(judged)} runs")
    return out
