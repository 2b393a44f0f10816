"""Predicted against measured tokens/s per mode: the cost model fitted to a run's
calibration (``CostModel``, piecewise where the data bend) applied to each result row.

Per row (docs/theory.md): AR ``b / T_v(b, 0)``; SD ``b E / (T_d + T_v)``; PSD at sub-batch b
``b E / (max(T_d, T_v) + c)``; flex at b the best of AR and SD at b and PSD at b / 2 over the
draft lengths ``ks`` (what a policy that always chose right would reach). Costs come from
the calibration at the mode's intra-op thread count, acceptance from the row's own tokens
per verification (flex: ``alpha``, the run's median). The figure to compare is the row's
decode tokens/s: the prediction is a steady state, without prefill.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..rules.cost_model import CostModel, alpha_from_tokens

TOLERANCE = 0.10  # the bar: within 10% at every measured point
FLEX_KS = (1, 2, 3, 4, 5, 6, 8)


def _models(calibration: Iterable[dict[str, Any]], overhead: float) -> dict[int, CostModel]:
    by_threads: dict[int, list[dict[str, Any]]] = {}
    for p in calibration:
        by_threads.setdefault(p["threads"], []).append(p)
    return {t: CostModel.from_measurements(ps, overhead=overhead) for t, ps in by_threads.items()}


def _predict(models: dict[int, CostModel], threads: dict[str, int], row: dict[str, Any], alpha: float,
             ks: Sequence[int]) -> float | None:
    mode, b, k = row["mode"], row["batch_size"], row["k"]
    if mode in ("ar", "sd", "psd"):
        model = models.get(threads[mode])
        if model is None:
            return None
        if mode != "ar" and row["tokens_per_target_step"] is not None:
            alpha = alpha_from_tokens(row["tokens_per_target_step"], k)
        return model.predict(mode, b, k, alpha).tokens_per_second
    if mode == "flex":
        seq, lane = models.get(threads["sd"]), models.get(threads["psd"])
        if seq is None:
            return None
        options = [seq.predict("ar", b, 0, alpha).tokens_per_second]
        options += [seq.predict("sd", b, kk, alpha).tokens_per_second for kk in ks]
        if lane is not None and b >= 2:  # PSD over b requests: two sub-batches of b / 2
            options += [lane.predict("psd", b // 2, kk, alpha).tokens_per_second for kk in ks]
        return max(options)
    return None


def prediction_table(calibration: Iterable[dict[str, Any]], rows: Iterable[dict[str, Any]],
                     threads: dict[str, int], overhead: float = 0.0, alpha: float = 0.0,
                     ks: Sequence[int] = FLEX_KS) -> list[dict[str, Any]]:
    """One entry per AR/SD/PSD/flex sweep row: predicted and measured tokens/s and their ratio.
    ``threads``: intra-op threads per mode (``{"ar": n, "sd": n, "psd": per lane}``)."""
    models = _models(calibration, overhead)
    out = []
    for row in rows:
        if row["kind"] != "scheduler":
            continue
        predicted = _predict(models, threads, row, alpha, ks)
        if predicted is None:
            continue
        measured = row["decode_tokens_per_second"]
        ratio = predicted / measured if measured else None
        out.append({"mode": row["mode"], "batch_size": row["batch_size"], "k": row["k"],
                    "concurrency": row["concurrency"], "predicted": predicted, "measured_decode": measured,
                    "measured": row["tokens_per_second"], "ratio": ratio,
                    "within_tolerance": ratio is not None and abs(ratio - 1.0) <= TOLERANCE})
    return out


def lines(table: list[dict[str, Any]]) -> list[str]:
    """The table as report lines."""
    if not table:
        return []
    out = ["", f"Predicted against measured decode tok/s (cost model from the calibration; bar: within "
               f"{TOLERANCE:.0%}):"]
    for e in table:
        ratio = "-" if e["ratio"] is None else f"{e['ratio']:.2f}"
        measured = "-" if e["measured_decode"] is None else f"{e['measured_decode']:.1f}"
        out.append(f"  {e['mode']:>4} b={e['batch_size']:<2} k={e['k']} conc={e['concurrency']:<2}: predicted "
                   f"{e['predicted']:.1f}, measured {measured} (pred/meas {ratio}"
                   f"{'' if e['within_tolerance'] else ', outside'})")
    within = sum(e["within_tolerance"] for e in table)
    out.append(f"  within {TOLERANCE:.0%}: {within} of {len(table)}")
    return out
