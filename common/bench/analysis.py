"""Measured next to predicted: the cost model fitted to the calibration, applied to each
result row, plus the best k per mode and the PSD/SD speedup against its bound.

Inputs of a row's prediction (docs/theory.md): T_draft and T_verify from the calibration at
the intra-op thread count the mode ran with (AR/SD: ``sequential_threads``; PSD: one
lane's ``lane_threads``), alpha from the row's own measured tokens per verification
(inverting E[tau]), the context L = the mean over the row's decode steps of the longest
committed sequence verified (0 for files without it), and the PSD per-step overhead c =
median over overlapped PSD decode steps of (step time - max(draft lane, target lane)). The
prediction is a steady state (full batch, no prefill): compare it with
``decode_tokens_per_second`` first.
"""

from __future__ import annotations

import statistics
from typing import Any

from ..rules.cost_model import MODES, CostModel, alpha_from_tokens, psd_speedup_bound
from . import prediction

SEARCH_KS = (1, 2, 3, 4, 5, 6, 7, 8)


def psd_overhead(trials: list[dict[str, Any]]) -> float:
    """PSD's per-step c: the median over PSD trials of step time - max(draft, verify lane)."""
    values = [t["overhead_per_step"] for t in trials if t["mode"] == "psd" and t["overhead_per_step"] is not None]
    return max(0.0, statistics.median(values)) if values else 0.0


def _alpha(row: dict[str, Any]) -> float | None:
    if row["k"] <= 0 or row["tokens_per_target_step"] is None:
        return None
    return alpha_from_tokens(row["tokens_per_target_step"], row["k"])


def _contexts(trials: list[dict[str, Any]]) -> dict[tuple[str, int, int], int]:
    """Per (mode, b, k): the median over its trials of the mean decode-step context."""
    per: dict[tuple[str, int, int], list[float]] = {}
    for t in trials:
        cols = t.get("steps") or {}
        values = [c for c, pre in zip(cols.get("verify_context", []), cols.get("prefill", [])) if not pre]
        if values:
            per.setdefault((t["mode"], t["batch_size"], t["k"]), []).append(statistics.fmean(values))
    return {key: round(statistics.median(v)) for key, v in per.items()}


def step_threads(cfg: dict[str, Any]) -> dict[str, int]:
    """Intra-op threads of each mode's steps in a run's ``config``: AR and SD inline with
    ``sequential_threads``, PSD per lane with ``lane_threads``."""
    return {"ar": cfg["sequential_threads"], "sd": cfg["sequential_threads"], "psd": cfg["lane_threads"]}


def analyse(results: dict[str, Any], calibration: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Fill ``predicted`` of every AR/SD/PSD row; return the ``cost_model`` section. Without
    a calibration (``--no-calibrate``) the section holds the in-scheduler predictions only
    (``prediction``, fitted to the run's own decode steps), and ``fits`` is absent."""
    cfg = results["config"]
    overhead = psd_overhead(results["trials"])
    threads = step_threads(cfg)
    models = prediction.calibration_fits(calibration, overhead)
    if not calibration or any(t not in models for t in threads.values()):
        table = prediction.prediction_table(results["trials"], [], threads, overhead)
        return {"calibration": [], "threads": threads, "overhead": overhead, "prediction": table,
                "repeatability": None} if table else None
    alphas = []
    contexts = _contexts([t for t in results["trials"] if t["kind"] == "scheduler"])
    for row in results["results"]:
        if row["kind"] != "scheduler" or row["mode"] not in MODES:
            continue
        alpha = _alpha(row) or 0.0
        if row["mode"] != "ar" and _alpha(row) is not None:
            alphas.append(alpha)
        model = models[threads[row["mode"]]]
        b, k = row["batch_size"], row["k"]
        context = contexts.get((row["mode"], b, k), 0)
        pred = model.predict(row["mode"], b, k, alpha, context)
        row["predicted"] = {
            "tokens_per_second": pred.tokens_per_second, "step_time": pred.step_time,
            "tokens_per_step": pred.tokens_per_step, "alpha": alpha, "threads": threads[row["mode"]],
            "context": context, "t_draft": model.t_draft(b, k, context), "t_verify": model.t_verify(b, k, context),
        }
    alpha = statistics.median(alphas) if alphas else 0.0
    return {
        "calibration": calibration,
        "fits": {str(t): m.coefficients() for t, m in sorted(models.items())},
        "threads": threads, "overhead": overhead, "alpha": alpha,
        "best": _best(models, threads, cfg, alpha),
        "speedup_psd_over_sd": _speedups(results["results"], models[threads["psd"]]),
        "prediction": prediction.prediction_table(results["trials"], calibration, threads, overhead),
        "repeatability": prediction.repeatability(calibration),
    }


def _best(models: dict[int, CostModel], threads: dict[str, int], cfg: dict[str, Any], alpha: float) -> list[dict]:
    """Per batch size and mode: the k with the highest predicted tokens/s."""
    out = []
    ks = sorted(set(SEARCH_KS) | set(cfg["ks"]))
    modes = [m for m in MODES if m in cfg["modes"]]
    for b in cfg.get("grid_batch_sizes") or cfg["batch_sizes"]:
        for mode in modes:
            p = models[threads[mode]].best_k(mode, b, alpha, ks)
            out.append({"batch_size": b, "mode": mode, "k": p.k, "tokens_per_second": p.tokens_per_second,
                        "step_time": p.step_time, "concurrency": p.concurrency})
    return out


def _speedups(rows: list[dict[str, Any]], lane_model: CostModel) -> list[dict[str, Any]]:
    """PSD / SD, paired as ``ratios`` pairs them (equal requests in flight where the grid has
    it, else the same b, labelled): measured, predicted, and PSD's same-sub-batch bound
    (T_d + T_v) / max(T_d, T_v) with the single-lane costs (c = 0)."""
    by_key = {(r["mode"], r["batch_size"], r["k"]): r for r in rows if r["kind"] == "scheduler"}
    out = []
    for pair in ratios(rows):
        if (pair["numerator"], pair["denominator"]) != ("psd", "sd"):
            continue
        b, k = pair["batch_size"], pair["k"]
        psd, sd = by_key[("psd", b, k)], by_key[("sd", pair["denominator_batch_size"], k)]
        predicted = None
        if psd["predicted"] and sd["predicted"]:
            predicted = psd["predicted"]["tokens_per_second"] / sd["predicted"]["tokens_per_second"]
        out.append({
            **pair, "measured": pair["ratio"],
            "measured_decode": (psd["decode_tokens_per_second"] / sd["decode_tokens_per_second"]
                                if psd["decode_tokens_per_second"] and sd["decode_tokens_per_second"] else None),
            "predicted": predicted,
            "bound": psd_speedup_bound(lane_model.t_draft(b, k), lane_model.t_verify(b, k)),
        })
    return out


# (numerator, denominator) mode pairs the report states as ratios; flex's lives in flex_bar.
RATIO_PAIRS = (("psd", "sd"), ("psd", "ar"), ("flex", "sd"), ("flex", "ar"))


def same_hardware(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two rows ran on equal hardware: as many intra-op threads in total (None on a
    GPU, whose speed they do not set) and as many devices (2 where the draft had its own;
    files from before the field hold 1)."""
    return a["threads_total"] == b["threads_total"] and a.get("devices", 1) == b.get("devices", 1)


def _rival(row: dict[str, Any], candidates: list[dict[str, Any]]) -> tuple[dict[str, Any] | None, bool]:
    """The denominator row for ``row``: one at the same requests in flight (equal cores
    first) if any, else one at the same max_batch_size (unequal load). Returns (row, equal_load)."""
    same_load = [c for c in candidates if c["concurrency"] == row["concurrency"]]
    if same_load:
        same_load.sort(key=lambda c: not same_hardware(c, row))
        return same_load[0], True
    same_batch = [c for c in candidates if c["batch_size"] == row["batch_size"]]
    return (same_batch[0], False) if same_batch else (None, False)


def ratio_label(pair: dict[str, Any]) -> str:
    """How a ratio is stated: at equal load and cores plainly, anything else labelled."""
    num, den = pair["numerator"].upper(), pair["denominator"].upper()
    if pair["equal_load"]:
        where = f"{num}/{den} at {pair['concurrency']} in flight, k={pair['k']} ({num} b={pair['batch_size']}, " \
                f"{den} b={pair['denominator_batch_size']})"
    else:
        where = (f"{num}/{den} at b={pair['batch_size']}, k={pair['k']}: UNEQUAL LOAD ({num} {pair['concurrency']} "
                 f"in flight, {den} {pair['denominator_concurrency']})")
    threads, devices = pair["threads"], pair.get("devices", [1, 1])
    if pair["equal_cores"]:
        return where + (f", {threads[0]} threads each" if threads[0] is not None else "")
    if devices[0] != devices[1]:
        return where + f", UNEQUAL HARDWARE ({num} {devices[0]} devices, {den} {devices[1]})"
    return where + f", UNEQUAL CORES ({num} {threads[0]} threads, {den} {threads[1]})"


def ratios(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every tokens/s ratio of an overlapping mode over a sequential one (``RATIO_PAIRS``),
    paired at equal requests in flight where the grid has that point; otherwise at the same
    max_batch_size, with ``equal_load`` False. ``equal_cores``: same threads in use in total.
    SD counts at the numerator's k; AR (k = 0) at any."""
    pool = [r for r in rows if r["kind"] in ("scheduler", "reference")]
    out = []
    for num_mode, den_mode in RATIO_PAIRS:
        for row in (r for r in pool if r["mode"] == num_mode and r["kind"] == "scheduler"):
            # A denominator that emitted nothing (every request failed) gives no ratio.
            candidates = [r for r in pool if r["mode"] == den_mode and r["k"] in (0, row["k"]) and r["tokens_per_second"] > 0]
            rival, equal_load = _rival(row, candidates)
            if rival is None:
                continue
            pair = {"numerator": num_mode, "denominator": den_mode, "k": row["k"], "batch_size": row["batch_size"],
                    "concurrency": row["concurrency"], "denominator_batch_size": rival["batch_size"],
                    "denominator_concurrency": rival["concurrency"],
                    "threads": [row["threads_total"], rival["threads_total"]],
                    "devices": [row.get("devices", 1), rival.get("devices", 1)],
                    "ratio": row["tokens_per_second"] / rival["tokens_per_second"], "equal_load": equal_load,
                    "equal_cores": same_hardware(row, rival)}
            pair["label"] = ratio_label(pair)
            out.append(pair)
    return out


FLEX_BAR = 0.95  # issue: flex >= 0.95 x the best fixed mode


def _rows(rows: list[dict[str, Any]], kind: str, batch: int, modes: tuple[str, ...], k: int) -> list[dict[str, Any]]:
    """Rows of ``kind`` at ``batch`` for ``modes``, k-independent (k = 0) or at draft cap k."""
    return [r for r in rows if r["kind"] == kind and r["batch_size"] == batch and r["mode"] in modes
            and r["k"] in (0, k)]


def flex_bar(rows: list[dict[str, Any]], cold: dict[tuple[int, int], float] | None = None) -> list[dict[str, Any]]:
    """Flex against the best fixed mode, per flex row (b, k), two ways:

    - ``same_concurrency``: AR, SD, PSD rows (sweep or reference) holding as many requests
      in flight as the flex row (flex at b holds b: AR and SD at b, PSD at b / 2): the fair
      test of the policy itself; ``equal_cores`` says whether the best of them used as many
      threads as flex;
    - ``same_batch``: AR, SD, PSD rows at the same max_batch_size b (UNEQUAL LOAD: PSD then
      holds 2b requests, AR, SD and flex b).

    SD and PSD count at the flex row's k only (flex's k0; it may choose other k per step).
    ``cold``: tokens/s of flex's untimed learning trial per (b, k), kept as ``cold``."""
    out = []
    for f in rows:
        if f["mode"] != "flex" or f["kind"] != "scheduler":
            continue
        b, k = f["batch_size"], f["k"]
        entry: dict[str, Any] = {"batch_size": b, "k": k, "concurrency": f["concurrency"], "flex": f["tokens_per_second"],
                                 "flex_range": _reps_range(f), "bar": FLEX_BAR, "cold": (cold or {}).get((b, k))}
        # Rivals that emitted nothing (every request failed) are no bar to hold flex to.
        fixed = [r for r in rows if r["kind"] in ("scheduler", "reference") and r["mode"] in ("ar", "sd", "psd")
                 and r["k"] in (0, k) and r["tokens_per_second"] > 0]
        same_concurrency = [r for r in fixed if r["concurrency"] == f["concurrency"]]
        same_batch = [r for r in _rows(rows, "scheduler", b, ("ar", "sd", "psd"), k) if r["tokens_per_second"] > 0]
        for name, rivals in (("same_batch", same_batch), ("same_concurrency", same_concurrency)):
            if not rivals:
                entry[name] = None
                continue
            best = max(rivals, key=lambda r: r["tokens_per_second"])
            ratio = f["tokens_per_second"] / best["tokens_per_second"]
            entry[name] = {"best_mode": best["mode"], "best_batch_size": best["batch_size"],
                           "best_tokens_per_second": best["tokens_per_second"], "best_range": _reps_range(best),
                           "ratio": ratio,
                           "met": ratio >= FLEX_BAR, "equal_load": best["concurrency"] == f["concurrency"],
                           "equal_cores": same_hardware(best, f),
                           "beyond_spread": _beyond_spread(f, best)}
        out.append(entry)
    return out


def _beyond_spread(row: dict[str, Any], rival: dict[str, Any]) -> bool | None:
    """Whether ``row``'s fastest repetition is slower than ``rival``'s slowest: a gap the
    run's own repetitions do not cover (None: a single repetition has no spread). The
    same trial lands 5-10% apart from one repetition to the next on a shared 2-core
    machine, so a ratio of medians alone misses the bar now and then with no schedule
    behind it."""
    if min(row.get("reps", 1), rival.get("reps", 1)) < 2:
        return None
    return row["tokens_per_second_max"] < rival["tokens_per_second_min"]


def _reps_range(row: dict[str, Any]) -> list[float]:
    """[slowest, fastest] tokens/s over a row's repetitions: how far apart the same trial
    lands on this machine, next to the median every ratio uses."""
    return [row["tokens_per_second_min"], row["tokens_per_second_max"]]
