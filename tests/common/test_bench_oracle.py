"""minedraft.bench.oracle: the run's repetition noise, and how often an oracle flex meets the bar."""

from __future__ import annotations

import math

import numpy as np
import pytest

from minedraft.bench.compare import flex_bar_lines
from minedraft.bench.oracle import oracle_pass, repetition_noise, summary
from minedraft.bench.report import bar_summary_lines


def _trials(means: dict[tuple[str, int], float], sigma: float, rho: float, reps: int, seed: int = 0) -> list[dict]:
    """Fixed-mode trials whose log tok/s are ``means[(mode, concurrency)]`` plus a deviation
    shared by the point's repetition (variance rho sigma^2) and an own one."""
    rng = np.random.default_rng(seed)
    out = []
    for rep in range(reps):
        shared = {c: rng.normal(0, sigma * math.sqrt(rho)) for _, c in means}
        for (mode, c), mu in means.items():
            y = mu + shared[c] + rng.normal(0, sigma * math.sqrt(1 - rho))
            out.append({"mode": mode, "kind": "scheduler", "batch_size": c, "k": 0 if mode == "ar" else 2,
                        "concurrency": c, "rep": rep, "tokens_per_second": math.exp(y)})
    return out


def test_repetition_noise_recovers_the_spread_and_the_correlation_it_was_drawn_with():
    # Three repetitions, as a bench run has: each configuration's mean then takes a third of
    # the spread with it, which the estimates must put back.
    means = {(m, c): math.log(20.0 * c) + (0.1 if m == "sd" else 0.0) for m in ("ar", "sd") for c in range(1, 601)}
    noise = repetition_noise(_trials(means, sigma=0.08, rho=0.6, reps=3), {2})
    assert noise is not None and noise["trials"] == 3600
    assert noise["sigma"] == pytest.approx(0.08, rel=0.05)
    assert noise["rho"] == pytest.approx(0.6, abs=0.06)
    means = {key: mu for key, mu in means.items() if key[1] <= 8}
    one_rep = _trials(means, 0.08, 0.6, reps=1)
    assert repetition_noise(one_rep, {2}) is None  # no configuration repeated: no spread to measure
    lone = [t for t in _trials(means, 0.08, 0.6, reps=3) if t["mode"] == "ar"]
    assert repetition_noise(lone, {2})["rho"] is None  # one configuration per point: nothing to correlate
    # Flex's trials pair with the fixed mode's (a run of AR against flex), though their own
    # spread (the policy's on top of the machine's) stays out of sigma.
    means = {(m, c): math.log(20.0 * c) for m in ("ar", "flex") for c in range(1, 601)}
    paired = _trials(means, sigma=0.08, rho=0.6, reps=3)
    for t in paired:
        if t["mode"] == "flex":
            t["tokens_per_second"] *= math.exp(np.random.default_rng(t["concurrency"] * 7 + t["rep"]).normal(0, 0.1))
    noise = repetition_noise(paired, {2})
    assert noise["trials"] == 1800 and noise["sigma"] == pytest.approx(0.08, rel=0.05)
    assert noise["rho"] == pytest.approx(0.6, abs=0.08)


def test_the_oracle_meets_the_bar_always_without_noise_and_rarely_with_much():
    rivals = [[0.0, -0.2], [0.0, -0.05], [0.0, -0.3]]  # mean log tok/s per point; the oracle is the best
    quiet = oracle_pass(rivals, sigma=0.0, rho=0.5, repeats=3)
    assert (quiet["every_point"], quiet["mean"], quiet["both"]) == (1.0, 1.0, 1.0)
    low, high = (oracle_pass(rivals, sigma=s, rho=0.5, repeats=3) for s in (0.03, 0.3))
    assert low["every_point"] > 0.9 > 0.5 > high["every_point"]
    assert high["both"] <= min(high["every_point"], high["mean"])
    assert oracle_pass(rivals, 0.3, 0.5, 3) == high  # seeded: the same run, the same answer
    # Two modes tied at a point: the best of two noisy medians beats the oracle's more often
    # than not, so the mean bar is harder than with a clear winner.
    tied, clear = oracle_pass([[0.0, 0.0]], 0.1, 0.5, 3), oracle_pass([[0.0, -1.0]], 0.1, 0.5, 3)
    assert tied["mean"] < clear["mean"]


def _bar(ratios: list[float]) -> list[dict]:
    return [{"batch_size": c, "k": 2, "concurrency": c, "same_concurrency": {"ratio": r}}
            for c, r in zip((1, 2, 4, 8), ratios)]


def test_summary_states_the_bar_and_the_oracle_chance_of_a_run(capsys):
    means = {(m, c): math.log(20.0 * c) + (0.1 if m == "sd" else 0.0) for m in ("ar", "sd") for c in (1, 2, 4, 8)}
    trials = _trials(means, sigma=0.05, rho=0.5, reps=3)
    found = summary(_bar([1.0, 0.93, 1.02, 0.99]), trials, repeats=3)
    assert (found["points"], found["under_bar"], found["every_point_met"]) == (4, 1, False)
    assert found["mean_ratio"] == pytest.approx(0.985) and found["mean_met"] is False
    assert 0.0 < found["oracle"]["both"] < 1.0 and found["noise"]["trials"] == 24
    lines = bar_summary_lines(found)
    assert "3 of 4 points >= 0.95x (NOT met); mean 0.985x, bar >= 1.0x (NOT met)" in lines[0]
    assert "an oracle flex" in lines[1] and f"both in {found['oracle']['both']:.0%}" in lines[1]
    assert summary(_bar([1.0, 0.93, 1.02, 0.99]), trials, repeats=1)["oracle"] is None  # one repetition
    met = summary(_bar([1.0, 0.96, 1.02, 1.03]), trials, repeats=3)
    assert met["every_point_met"] and met["mean_met"]
    runs = [("a", {"flex_bar": _bar([1.0, 0.93, 1.02, 0.99]), "flex_bar_summary": found}),
            ("b", {"flex_bar": _bar([1.0, 0.96, 1.02, 1.03]), "flex_bar_summary": met})]
    text = "\n".join(flex_bar_lines(runs))
    assert "[1] NOT met: 3 of 4 points" in text and "[2] met: 4 of 4 points" in text
    chance = found["oracle"]["both"] * met["oracle"]["both"]
    assert f"all 2: NOT met; an oracle flex would meet all 2 with probability {chance:.3f}" in text
    assert flex_bar_lines([("c", {"flex_bar": None})]) == []  # no flex in the run: no lines


def test_paired_ratios_cancel_a_slow_spell_that_takes_both_trials_of_a_repetition():
    """Flex runs at 0.97x SD in every repetition, and the machine is 40% slower in one of them
    for both modes. The ratio of medians moves with the repetitions' spread (the slow
    repetition can be one mode's median and not the other's); the paired ratio sees 0.97x."""
    def trial(mode, rep, tps):
        return {"mode": mode, "kind": "scheduler", "batch_size": 4, "k": 0 if mode == "ar" else 2,
                "concurrency": 4, "rep": rep, "tokens_per_second": tps}

    speed = [1.0, 0.6, 1.0, 1.1, 0.9]  # the machine per repetition
    trials = [trial("sd", r, 100.0 * s) for r, s in enumerate(speed)]
    trials += [trial("ar", r, 80.0 * s) for r, s in enumerate(speed)]
    trials += [trial("flex", r, 97.0 * s) for r, s in enumerate(speed)]
    bar = [{"batch_size": 4, "k": 2, "concurrency": 4,
            "same_concurrency": {"ratio": 0.9, "best_mode": "sd", "best_batch_size": 4}}]
    found = summary(bar, trials, repeats=5)
    assert found["paired"]["ratios"] == [pytest.approx(0.97)]
    assert found["paired"]["under_bar"] == 0 and not found["paired"]["mean_met"]
    assert found["under_bar"] == 1  # the ratio of medians as given
    assert {"paired_every_point", "paired_mean", "paired_both"} <= found["oracle"].keys()
    assert "paired by repetition" in bar_summary_lines(found)[-1] and "0.97" in bar_summary_lines(found)[-1]
    lone = [t for t in trials if t["mode"] != "flex" or t["rep"] == 0]
    assert summary(bar, lone, repeats=5)["paired"] is None  # one repetition holds both: no median to take


def test_the_paired_oracle_is_steadier_where_the_machine_drifts():
    """With trials of one repetition strongly correlated, the oracle's paired ratio misses
    the every-point bar less often than its ratio of medians."""
    rivals = [[0.0, -0.2], [0.0, -0.05], [0.0, -0.3]]
    chance = oracle_pass(rivals, sigma=0.1, rho=0.9, repeats=5)
    assert chance["paired_every_point"] > chance["every_point"]
