"""Turning one trial (request outputs + step trace) into the numbers of the report.

Definitions (docs/benchmarks.md):

- ``tokens_per_second``: output tokens of all requests / wall time of the whole
  ``generate`` call (prefill, decode and the draining tail included).
- ``decode_tokens_per_second``: tokens emitted in decode steps / their summed duration.
  A *prefill step* is one in which some request received its first token (its prompt was
  processed by the target in that step); those are excluded, as in MineDraft's analysis.
- ``latency``/``ttft``: per request, from its arrival (every request arrives when
  ``generate`` starts) to its last / first token; mean, median and 90th percentile.
- ``step_time_over_max``: over overlapped PSD steps, mean step duration / mean of
  max(draft lane time, target lane time) in the same step: 1.0 is perfect overlap.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from ..trace import StepRecord, Trace
from .schema import STEP_COLUMNS


def stats(values: Sequence[float]) -> dict[str, float]:
    """Mean, median and 90th percentile (linear interpolation between order statistics)."""
    if not values:
        return {"mean": 0.0, "p50": 0.0, "p90": 0.0}
    return {"mean": statistics.fmean(values), "p50": percentile(values, 50), "p90": percentile(values, 90)}


def percentile(values: Sequence[float], q: float) -> float:
    xs = sorted(values)
    if not xs:
        return 0.0
    pos = (len(xs) - 1) * q / 100.0
    lo = int(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def prefill_flags(steps: Sequence[StepRecord], first_token_times: Sequence[float]) -> list[bool]:
    """Mark the step in which each request got its first token: the first step ending at or
    after that time (first tokens are committed inside a step, after its verification)."""
    flags = [False] * len(steps)
    ends = [s.end for s in steps]
    for t in first_token_times:
        for i, end in enumerate(ends):
            if end >= t:
                flags[i] = True
                break
    return flags


def step_columns(steps: Sequence[StepRecord], prefill: Sequence[bool]) -> dict[str, list]:
    cols: dict[str, list] = {c: [] for c in STEP_COLUMNS}
    for s, pre in zip(steps, prefill):
        cols["duration"].append(round(s.duration, 6))
        cols["draft_time"].append(round(s.draft_time, 6))
        cols["verify_time"].append(round(s.verify_time, 6))
        cols["overlapped"].append(int(s.overlapped))
        cols["prefill"].append(int(pre))
        cols["mode"].append(s.mode)
        cols["k"].append(int(s.k))
        for c in ("verify_batch", "draft_batch", "proposed", "verify_width", "accepted", "emitted", "bytes_crossed",
                  "verify_context", "draft_context", "running", "draft_prefill"):
            cols[c].append(int(getattr(s, c)))
    return cols


def overlap_stats(steps: Sequence[StepRecord], prefill: Sequence[bool]) -> tuple[float | None, float | None]:
    """(mean duration / mean max(T_d, T_v), median overhead duration - max(T_d, T_v)) over
    overlapped decode steps; (None, None) when there are none."""
    chosen = [s for s, pre in zip(steps, prefill) if s.overlapped and not pre]
    if not chosen:
        return None, None
    lane_max = [max(s.draft_time, s.verify_time) for s in chosen]
    ratio = statistics.fmean(s.duration for s in chosen) / max(statistics.fmean(lane_max), 1e-12)
    overhead = statistics.median(s.duration - m for s, m in zip(chosen, lane_max))
    return ratio, overhead


def trial_metrics(
    trace: Trace | None, token_counts: Sequence[int], latencies: Sequence[float], ttfts: Sequence[float],
    first_token_times: Sequence[float], wall_time: float, keep_steps: bool = True,
) -> dict[str, Any]:
    """The measured part of a trial record (see ``schema.TRIAL``)."""
    out_tokens = int(sum(token_counts))
    m: dict[str, Any] = {
        "wall_time": wall_time, "output_tokens": out_tokens,
        "tokens_per_second": out_tokens / wall_time if wall_time > 0 else 0.0,
        "latency": stats(latencies), "ttft": stats(ttfts), "decode_tokens_per_second": None,
        "acceptance_rate": None, "tokens_per_target_step": None, "overlapped_share": None,
        "step_time_over_max": None, "overhead_per_step": None, "bytes_crossed_per_step": None,
        "mean_decode_step_time": None, "mean_decode_draft_time": None, "mean_decode_verify_time": None,
        "summary": None, "steps": None,
    }
    if trace is None or not trace.steps:
        return m
    steps = trace.steps
    prefill = prefill_flags(steps, first_token_times)
    decode = [s for s, pre in zip(steps, prefill) if not pre]
    decode_time = sum(s.duration for s in decode)
    summary = trace.summary()
    m.update(
        decode_tokens_per_second=sum(s.emitted for s in decode) / decode_time if decode_time > 0 else None,
        acceptance_rate=summary["acceptance_rate"] if sum(s.proposed for s in steps) else None,
        tokens_per_target_step=summary["tokens_per_target_step"],
        overlapped_share=summary["overlapped_share"],
        bytes_crossed_per_step=summary["bytes_crossed"] / len(steps),
        summary=summary,
        steps=step_columns(steps, prefill) if keep_steps else None,
    )
    if decode:
        m["mean_decode_step_time"] = decode_time / len(decode)
        m["mean_decode_draft_time"] = statistics.fmean(s.draft_time for s in decode)
        m["mean_decode_verify_time"] = statistics.fmean(s.verify_time for s in decode)
    m["step_time_over_max"], m["overhead_per_step"] = overlap_stats(steps, prefill)
    return m


def aggregate(trials: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One result row from the repetitions of one (mode, batch, k): medians over reps."""
    first = trials[0]
    tps = [t["tokens_per_second"] for t in trials]

    def med(key: str) -> float | None:
        vals = [t[key] for t in trials if t[key] is not None]
        return statistics.median(vals) if vals else None

    def med_stats(key: str) -> dict[str, float]:
        return {q: statistics.median(t[key][q] for t in trials) for q in ("mean", "p50", "p90")}

    return {
        "mode": first["mode"], "kind": first["kind"], "batch_size": first["batch_size"], "k": first["k"],
        "concurrency": first["concurrency"], "reps": len(trials), "threads_total": first["threads_total"],
        "devices": first.get("devices", 1),
        "tokens_per_second": statistics.median(tps), "tokens_per_second_min": min(tps),
        "tokens_per_second_max": max(tps), "decode_tokens_per_second": med("decode_tokens_per_second"),
        "latency": med_stats("latency"), "ttft": med_stats("ttft"), "acceptance_rate": med("acceptance_rate"),
        "tokens_per_target_step": med("tokens_per_target_step"), "overlapped_share": med("overlapped_share"),
        "step_time_over_max": med("step_time_over_max"), "matches_reference": med("matches_reference"),
        "mean_decode_step_time": med("mean_decode_step_time"), "mean_decode_draft_time": med("mean_decode_draft_time"),
        "mean_decode_verify_time": med("mean_decode_verify_time"), "predicted": None,
    }


def result_rows(trials: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per (mode, kind, batch, k) from its repetitions, sorted schedulers first,
    then by batch size, k and mode."""
    groups: dict[tuple[str, str, int, int], list[dict[str, Any]]] = {}
    for t in trials:
        groups.setdefault((t["mode"], t["kind"], t["batch_size"], t["k"]), []).append(t)
    rank = {"scheduler": 0, "reference": 1}
    rows = [aggregate(ts) for ts in groups.values()]
    rows.sort(key=lambda r: (rank.get(r["kind"], 2), r["batch_size"], r["k"], r["mode"]))
    return rows
