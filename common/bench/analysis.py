"""Measured next to predicted: the cost model fitted to the calibration, applied to each
result row, plus the best k per mode and the PSD/SD speedup against its bound.

Inputs of a row's prediction (docs/theory.md): T_draft and T_verify from the calibration at
the intra-op thread count the mode ran with (AR/SD: ``sequential_threads``; PSD: one
lane's ``lane_threads``), alpha from the row's own measured tokens per verification
(inverting E[tau]), and the PSD per-step overhead c = median over overlapped PSD decode
steps of (step time - max(draft lane, target lane)). The prediction is a steady state
(full batch, no prefill): compare it with ``decode_tokens_per_second`` first.
"""

from __future__ import annotations

import statistics
from typing import Any

from ..rules.cost_model import MODES, CostModel, alpha_from_tokens, psd_speedup_bound

SEARCH_KS = (1, 2, 3, 4, 5, 6, 7, 8)


def _models(calibration: list[dict[str, Any]], overhead: float) -> dict[int, CostModel]:
    by_threads: dict[int, list[dict[str, Any]]] = {}
    for p in calibration:
        by_threads.setdefault(p["threads"], []).append(p)
    return {t: CostModel.from_measurements(ps, overhead=overhead) for t, ps in by_threads.items()}


def _overhead(trials: list[dict[str, Any]]) -> float:
    values = [t["overhead_per_step"] for t in trials if t["mode"] == "psd" and t["overhead_per_step"] is not None]
    return max(0.0, statistics.median(values)) if values else 0.0


def _alpha(row: dict[str, Any]) -> float | None:
    if row["k"] <= 0 or row["tokens_per_target_step"] is None:
        return None
    return alpha_from_tokens(row["tokens_per_target_step"], row["k"])


def analyse(results: dict[str, Any], calibration: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Fill ``predicted`` of every AR/SD/PSD row; return the ``cost_model`` section."""
    if not calibration:
        return None
    cfg = results["config"]
    overhead = _overhead(results["trials"])
    models = _models(calibration, overhead)
    threads = {"ar": cfg["sequential_threads"], "sd": cfg["sequential_threads"], "psd": cfg["lane_threads"]}
    if any(t not in models for t in threads.values()):
        return None
    alphas = []
    for row in results["results"]:
        if row["kind"] != "scheduler" or row["mode"] not in MODES:
            continue
        alpha = _alpha(row) or 0.0
        if row["mode"] != "ar" and _alpha(row) is not None:
            alphas.append(alpha)
        model = models[threads[row["mode"]]]
        pred = model.predict(row["mode"], row["batch_size"], row["k"], alpha)
        row["predicted"] = {
            "tokens_per_second": pred.tokens_per_second, "step_time": pred.step_time,
            "tokens_per_step": pred.tokens_per_step, "alpha": alpha, "threads": threads[row["mode"]],
            "t_draft": model.t_draft(row["batch_size"], row["k"]), "t_verify": model.t_verify(row["batch_size"], row["k"]),
        }
    alpha = statistics.median(alphas) if alphas else 0.0
    return {
        "calibration": calibration,
        "fits": {str(t): m.coefficients() for t, m in sorted(models.items())},
        "threads": threads, "overhead": overhead, "alpha": alpha,
        "best": _best(models, threads, cfg, alpha),
        "speedup_psd_over_sd": _speedups(results["results"], models[threads["psd"]]),
    }


def _best(models: dict[int, CostModel], threads: dict[str, int], cfg: dict[str, Any], alpha: float) -> list[dict]:
    """Per batch size and mode: the k with the highest predicted tokens/s."""
    out = []
    ks = sorted(set(SEARCH_KS) | set(cfg["ks"]))
    modes = [m for m in MODES if m in cfg["modes"]]
    for b in cfg["batch_sizes"]:
        for mode in modes:
            p = models[threads[mode]].best_k(mode, b, alpha, ks)
            out.append({"batch_size": b, "mode": mode, "k": p.k, "tokens_per_second": p.tokens_per_second,
                        "step_time": p.step_time, "concurrency": p.concurrency})
    return out


def _speedups(rows: list[dict[str, Any]], lane_model: CostModel) -> list[dict[str, Any]]:
    """PSD / SD at equal (b, k): measured, predicted, and the bound (T_d + T_v) / max(T_d, T_v)
    with the single-lane costs (c = 0)."""
    by_key = {(r["mode"], r["batch_size"], r["k"]): r for r in rows if r["kind"] == "scheduler"}
    out = []
    for (mode, b, k), psd in by_key.items():
        sd = by_key.get(("sd", b, k))
        if mode != "psd" or sd is None:
            continue
        predicted = None
        if psd["predicted"] and sd["predicted"]:
            predicted = psd["predicted"]["tokens_per_second"] / sd["predicted"]["tokens_per_second"]
        out.append({
            "batch_size": b, "k": k, "measured": psd["tokens_per_second"] / sd["tokens_per_second"],
            "measured_decode": (psd["decode_tokens_per_second"] / sd["decode_tokens_per_second"]
                                if psd["decode_tokens_per_second"] and sd["decode_tokens_per_second"] else None),
            "predicted": predicted,
            "bound": psd_speedup_bound(lane_model.t_draft(b, k), lane_model.t_verify(b, k)),
        })
    return out


FLEX_BAR = 0.95  # issue: flex >= 0.95 x the best fixed mode


def _rows(rows: list[dict[str, Any]], kind: str, batch: int, modes: tuple[str, ...], k: int) -> list[dict[str, Any]]:
    """Rows of ``kind`` at ``batch`` for ``modes``, k-independent (k = 0) or at draft cap k."""
    return [r for r in rows if r["kind"] == kind and r["batch_size"] == batch and r["mode"] in modes
            and r["k"] in (0, k)]


def flex_bar(rows: list[dict[str, Any]], cold: dict[tuple[int, int], float] | None = None) -> list[dict[str, Any]]:
    """Flex against the best fixed mode, per flex row (b, k), two ways:

    - ``same_batch``: AR, SD, PSD rows at the same max_batch_size b (flex and PSD then hold
      2b requests, AR and SD b);
    - ``same_concurrency``: every AR, SD and PSD row (sweep or reference) holding as many
      requests as the flex row (flex at b holds b: AR and SD at b, PSD at b / 2), the fair
      test of the policy itself.

    SD and PSD count at the flex row's k only (flex's k0; it may choose other k per step).
    ``cold``: tokens/s of flex's untimed learning trial per (b, k), kept as ``cold``."""
    out = []
    for f in rows:
        if f["mode"] != "flex" or f["kind"] != "scheduler":
            continue
        b, k = f["batch_size"], f["k"]
        entry: dict[str, Any] = {"batch_size": b, "k": k, "flex": f["tokens_per_second"], "bar": FLEX_BAR,
                                 "cold": (cold or {}).get((b, k))}
        same_batch = _rows(rows, "scheduler", b, ("ar", "sd", "psd"), k)
        same_concurrency = [r for r in rows if r["kind"] in ("scheduler", "reference") and r["mode"] in ("ar", "sd", "psd")
                            and r["concurrency"] == f["concurrency"] and r["k"] in (0, k)]
        for name, rivals in (("same_batch", same_batch), ("same_concurrency", same_concurrency)):
            if not rivals:
                entry[name] = None
                continue
            best = max(rivals, key=lambda r: r["tokens_per_second"])
            ratio = f["tokens_per_second"] / best["tokens_per_second"]
            entry[name] = {"best_mode": best["mode"], "best_batch_size": best["batch_size"],
                           "best_tokens_per_second": best["tokens_per_second"], "ratio": ratio,
                           "met": ratio >= FLEX_BAR}
        out.append(entry)
    return out
