"""How discriminating the flex bar is at a run's own noise.

The bar (flex >= 0.95x the best fixed mode at every requests-in-flight point, >= 1.0x on
the mean over the points) compares medians of a few repetitions, and the same trial lands
some percent apart from one repetition to the next. So a bar missed says little until one
knows how often a flex that cannot do better would miss it too. That flex is the
**oracle**: it runs the best fixed mode on every step, with no decision cost, so its true
tokens/s equals the best mode's at every point.

From the run's fixed-mode trials (AR, SD, PSD at the flex rows' k) this module estimates

- ``sigma``: the standard deviation of one trial's log tokens/s around its configuration's
  mean (pooled over every configuration with two or more repetitions);
- ``rho``: the correlation of two configurations' deviations in the same repetition at the
  same requests in flight (slow spells of a shared machine hit both). Flex's own trials
  pair here too: their deviations carry the policy's variance on top, but that part is
  independent of the other trial's, so the covariance, which is all a pair adds, stays the
  machine's (and a run of one fixed mode against flex still has pairs);

and simulates the run ``runs`` times with the oracle in place of flex: each configuration
keeps its measured mean, every trial gets a shared (per point and repetition) and an own
normal deviation, and each point's ratio is median over median, as the bench computes it.
The answer is how often the oracle meets the every-point bar, the mean bar, and both.

The same bar is also computed **paired** (``paired``): at each point, each repetition's flex
trial over the trial of the best fixed mode (the one the median ratio compares with) in
the same repetition, and the median of those ratios. The trials of one repetition run
side by side, so a slow spell of the machine that takes both cancels in their ratio
(``rho``), where it stays in a ratio of two medians taken over different repetitions; the
oracle's chance is simulated for it too (``paired_*``).
It is an estimate: the measured means stand in for the true ones, and the deviations are
drawn normal, while this machine's have somewhat heavier tails (a slow spell now and then),
which a median of three shrugs off better than the normal model assumes: on such a machine
the chances are, if anything, on the low side.
"""

from __future__ import annotations

import math
from collections import defaultdict
from itertools import combinations
from typing import Any

import numpy as np

from .analysis import FLEX_BAR

MEAN_BAR = 1.0  # issue: flex >= 1.0x the best fixed mode on the mean over the points
FIXED_MODES = ("ar", "sd", "psd")


def summary(flex_bar: list[dict[str, Any]], trials: list[dict[str, Any]], repeats: int,
            runs: int = 4000, seed: int = 0) -> dict[str, Any] | None:
    """The bar over a run's equal-load points (``same_concurrency``), and the oracle's chance
    of meeting it at the run's noise (``oracle`` null with fewer than two repetitions)."""
    points = [e for e in flex_bar if e.get("same_concurrency")]
    if not points:
        return None
    ratios = [e["same_concurrency"]["ratio"] for e in points]
    mean = sum(ratios) / len(ratios)
    out: dict[str, Any] = {
        "points": len(ratios), "under_bar": sum(r < FLEX_BAR for r in ratios), "mean_ratio": mean,
        "every_point_met": all(r >= FLEX_BAR for r in ratios), "mean_met": mean >= MEAN_BAR,
        "noise": None, "oracle": None,
    }
    ks = {e["k"] for e in points}
    fixed = _fixed(trials, ks)
    # Mean log tokens/s of each fixed configuration at the point's requests in flight (its k or 0).
    rivals = [[float(np.mean([y for _, y in v])) for key, v in fixed.items()
               if key[3] == e["concurrency"] and key[2] in (0, e["k"])] for e in points]
    noise = repetition_noise(trials, ks)
    if noise is None or repeats < 2 or not all(rivals):
        return out
    out["noise"] = noise
    out["oracle"] = oracle_pass(rivals, noise["sigma"], noise["rho"] or 0.0, repeats, runs, seed)
    out["paired"] = paired(points, trials)
    return out


def paired(points: list[dict[str, Any]], trials: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The bar on paired ratios (module docstring): per point the median over repetitions of
    flex's tokens/s over the best fixed mode's in the same repetition. None unless every
    point has two or more repetitions holding both trials."""
    by_config = _fixed(trials, {e["k"] for e in points}, (*FIXED_MODES, "flex"))

    def by_rep(mode: str, batch: int, ks: tuple[int, ...], concurrency: int) -> dict[int, float]:
        """Log tokens/s per repetition of one configuration (AR's k is 0)."""
        return {rep: y for k in ks for rep, y in by_config.get((mode, batch, k, concurrency), [])}

    ratios = []
    for e in points:
        best = e["same_concurrency"]
        if "best_mode" not in best:
            return None
        flex = by_rep("flex", e["batch_size"], (e["k"],), e["concurrency"])
        rival = by_rep(best["best_mode"], best["best_batch_size"], (0, e["k"]), e["concurrency"])
        pairs = [math.exp(flex[rep] - rival[rep]) for rep in flex.keys() & rival.keys()]
        if len(pairs) < 2:
            return None
        ratios.append(float(np.median(pairs)))
    mean = sum(ratios) / len(ratios)
    return {"ratios": ratios, "under_bar": sum(r < FLEX_BAR for r in ratios), "mean_ratio": mean,
            "every_point_met": all(r >= FLEX_BAR for r in ratios), "mean_met": mean >= MEAN_BAR}


def stored_summary(results: dict[str, Any]) -> dict[str, Any] | None:
    """A results file's ``flex_bar_summary``, computed for files written before it."""
    if "flex_bar_summary" in results:
        return results["flex_bar_summary"]
    return summary(results["flex_bar"], results["trials"], results["config"]["repeats"])


def _fixed(trials: list[dict[str, Any]], ks: set[int], modes: tuple[str, ...] = FIXED_MODES) -> dict[tuple, list[tuple[int, float]]]:
    """(rep, log tokens/s) of the trials of ``modes`` per configuration (mode, b, k, concurrency)."""
    out: dict[tuple, list[tuple[int, float]]] = defaultdict(list)
    for t in trials:
        if t.get("kind") in ("scheduler", "reference") and t["mode"] in modes and t["tokens_per_second"] > 0 \
                and (t["k"] == 0 or t["k"] in ks):
            out[t["mode"], t["batch_size"], t["k"], t["concurrency"]].append((t.get("rep", 0), math.log(t["tokens_per_second"])))
    return out


def repetition_noise(trials: list[dict[str, Any]], ks: set[int]) -> dict[str, Any] | None:
    """``sigma`` and ``rho`` of the module docstring, and how many trials they rest on (None:
    no configuration has two repetitions; ``rho`` None: no two configurations share a
    point and a repetition)."""
    deviations: dict[tuple, dict[tuple, float]] = defaultdict(dict)  # (concurrency, rep) -> config -> dev
    squares, count, factor = 0.0, 0, 0.0
    for key, values in _fixed(trials, ks, (*FIXED_MODES, "flex")).items():
        if len(values) < 2:
            continue
        mean = float(np.mean([y for _, y in values]))
        for rep, y in values:
            deviations[key[3], rep][key] = y - mean
        if key[0] != "flex":  # the spread is the fixed modes' alone
            squares += sum((y - mean) ** 2 for _, y in values)
            count, factor = count + len(values), factor + len(values) - 1
    if factor == 0:
        return None
    sigma2 = squares / factor  # unbiased: each configuration's mean took one degree of freedom
    products = [a * b for devs in deviations.values() for a, b in combinations(devs.values(), 2)]
    # E[dev_a dev_b] / E[dev^2] in the same repetition: the removed means scale both alike.
    rho = None if not products or sigma2 == 0 else max(0.0, min(1.0, float(np.mean(products)) * count / factor / sigma2))
    return {"sigma": math.sqrt(sigma2), "rho": rho, "trials": count}


def oracle_pass(rivals: list[list[float]], sigma: float, rho: float, repeats: int, runs: int = 4000,
                seed: int = 0) -> dict[str, float]:
    """Share of ``runs`` simulated runs in which the oracle meets the every-point bar, the
    mean bar, and both, on ratios of medians and (``paired_*``) on paired ratios.
    ``rivals[p]``: mean log tokens/s of the fixed configurations at
    point p; the oracle's mean is the best of them."""
    rng = np.random.default_rng(seed)
    shared_sd, own_sd = sigma * math.sqrt(rho), sigma * math.sqrt(1.0 - rho)
    ratios = np.empty((runs, len(rivals)))  # [runs, points]
    by_rep = np.empty((runs, len(rivals)))  # [runs, points]: paired ratios
    for p, means in enumerate(rivals):
        mu = np.asarray(means) - max(means)  # [configs], the best at 0 = the oracle's mean
        shared = rng.normal(0.0, shared_sd, (runs, 1, repeats))  # [runs, 1, repeats]
        fixed = mu[None, :, None] + shared + rng.normal(0.0, own_sd, (runs, len(mu), repeats))  # [runs, configs, repeats]
        oracle = shared[:, 0] + rng.normal(0.0, own_sd, (runs, repeats))  # [runs, repeats]
        medians = np.median(fixed, axis=2)  # [runs, configs]
        ratios[:, p] = np.exp(np.median(oracle, axis=1) - medians.max(axis=1))
        best = fixed[np.arange(runs), medians.argmax(axis=1)]  # [runs, repeats]
        by_rep[:, p] = np.exp(np.median(oracle - best, axis=1))
    out: dict[str, float] = {"runs": runs}
    for prefix, values in (("", ratios), ("paired_", by_rep)):
        every = (values >= FLEX_BAR).all(axis=1)  # [runs]
        mean = values.mean(axis=1) >= MEAN_BAR  # [runs]
        out |= {f"{prefix}every_point": float(every.mean()), f"{prefix}mean": float(mean.mean()),
                f"{prefix}both": float((every & mean).mean())}
    return out
