"""The cost model: formulas (docs/theory.md) and fits on synthetic cost tables."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from minedraft.rules.cost_model import (
    MAX_PSD_SPEEDUP,
    CostModel,
    _fit,
    alpha_from_tokens,
    expected_tokens,
    expected_tokens_each,
    psd_speedup_bound,
    psd_wins,
)

# Ground truth of the synthetic tables (seconds).
D0, D1 = 0.004, 0.0005  # T_d = k (d0 + d1 b)
V0, V1, V2 = 0.030, 0.002, 0.0015  # T_v = v0 + v1 b + v2 b (k + 1)


def t_d(b: int, k: int) -> float:
    return k * (D0 + D1 * b)


def t_v(b: int, k: int) -> float:
    return V0 + V1 * b + V2 * b * (k + 1)


def synthetic_model(overhead: float = 0.0, noise: float = 0.0, seed: int = 0) -> CostModel:
    rng = random.Random(seed)
    points = [
        {"batch": b, "k": k, "t_draft": t_d(b, k) * (1 + noise * rng.uniform(-1, 1)) if k else None,
         "t_verify": t_v(b, k) * (1 + noise * rng.uniform(-1, 1))}
        for b, k in itertools.product((1, 2, 4, 8, 16), (0, 2, 4, 6))
    ]
    return CostModel.from_measurements(points, overhead=overhead)


def test_expected_tokens_closed_form():
    assert expected_tokens(0.0, 4) == 1.0
    assert expected_tokens(1.0, 4) == 5.0
    assert expected_tokens(0.5, 2) == pytest.approx(1 + 0.5 + 0.25)
    # the geometric series, term by term
    for alpha, k in [(0.3, 3), (0.8, 6), (0.95, 1)]:
        assert expected_tokens(alpha, k) == pytest.approx(sum(alpha**i for i in range(k + 1)))
    with pytest.raises(ValueError, match="alpha"):
        expected_tokens(1.5, 2)


def test_expected_tokens_each_matches_the_scalar_formula_cell_by_cell():
    alpha = np.array([0.0, 0.3, 0.8, 1.0, 1.0, 0.6])[:, None]  # [6, 1]
    gamma = np.array([1.0, 1.0, 0.5, 1.0, 0.7, 0.0])[:, None]  # [6, 1]; gamma * alpha = 1 in row 3
    ks = np.arange(9)[None, :]  # [1, 9]
    table = expected_tokens_each(alpha, ks, gamma)  # [6, 9]
    assert table.shape == (6, 9)
    for i, k in itertools.product(range(6), range(9)):
        assert table[i, k] == pytest.approx(expected_tokens(alpha[i, 0], k, gamma[i, 0]), rel=1e-12)
    assert table[3, 8] == 9.0 and (table[:, 0] == 1.0).all()


@pytest.mark.parametrize("alpha,k", [(0.1, 2), (0.4, 4), (0.75, 6), (0.9, 3)])
def test_alpha_from_tokens_inverts_expected_tokens(alpha, k):
    assert alpha_from_tokens(expected_tokens(alpha, k), k) == pytest.approx(alpha, abs=1e-6)


def test_alpha_from_tokens_clamps():
    assert alpha_from_tokens(0.7, 4) == 0.0  # fewer than one token per step cannot happen
    assert alpha_from_tokens(9.0, 4) == 1.0
    assert alpha_from_tokens(2.0, 0) == 0.0  # no drafts: nothing to accept


def test_fit_recovers_the_cost_table():
    model = synthetic_model()
    coef = model.coefficients()
    assert coef["d0"] == pytest.approx(D0, rel=1e-6) and coef["d1"] == pytest.approx(D1, rel=1e-6)
    assert coef["v0"] == pytest.approx(V0, rel=1e-6)
    assert coef["v1"] == pytest.approx(V1, rel=1e-6) and coef["v2"] == pytest.approx(V2, rel=1e-6)
    assert model.t_draft(3, 5) == pytest.approx(t_d(3, 5))
    assert model.t_verify(32, 8) == pytest.approx(t_v(32, 8))  # extrapolated
    assert model.t_draft(4, 0) == 0.0


def test_fit_keeps_slopes_non_negative():
    """Noisy costs that fall with batch size must not extrapolate to negative costs."""
    import numpy as np

    x = np.array([[1.0, 1.0, 2.0], [1.0, 2.0, 4.0], [1.0, 4.0, 8.5], [1.0, 8.0, 15.0]])
    y = np.array([0.05, 0.04, 0.045, 0.03])  # decreasing: a negative slope in plain lstsq
    coef = _fit(x, y)
    assert (coef[1:] >= 0).all()
    plain = np.linalg.lstsq(x, y, rcond=None)[0]
    assert (plain[1:] < 0).any()  # the case really needed the constraint


def test_predictions_follow_the_formulas():
    c = 0.003
    model = synthetic_model(overhead=c)
    b, k, alpha = 4, 4, 0.6
    tau = expected_tokens(alpha, k)
    ar, sd, psd = (model.predict(m, b, k, alpha) for m in ("ar", "sd", "psd"))
    assert ar.step_time == pytest.approx(t_v(b, 0)) and ar.tokens_per_second == pytest.approx(b / t_v(b, 0))
    assert sd.step_time == pytest.approx(t_d(b, k) + t_v(b, k))
    assert sd.tokens_per_second == pytest.approx(b * tau / (t_d(b, k) + t_v(b, k)))
    assert psd.step_time == pytest.approx(max(t_d(b, k), t_v(b, k)) + c)
    assert psd.tokens_per_second == pytest.approx(b * tau / (max(t_d(b, k), t_v(b, k)) + c))
    assert (ar.concurrency, sd.concurrency, psd.concurrency) == (b, b, 2 * b)
    # a PSD request is verified every other step
    assert psd.token_latency == pytest.approx(2 * psd.step_time / tau)
    assert sd.token_latency == pytest.approx(sd.step_time / tau)
    assert model.speedup(b, k) == pytest.approx(psd.tokens_per_second / sd.tokens_per_second)
    with pytest.raises(ValueError, match="mode"):
        model.predict("nope", b, k, alpha)


def test_psd_speedup_bound_and_when_psd_wins():
    rng = random.Random(1)
    for _ in range(200):
        td, tv, c = rng.uniform(1e-3, 1), rng.uniform(1e-3, 1), rng.uniform(0, 0.2)
        s = psd_speedup_bound(td, tv, c)
        assert s <= MAX_PSD_SPEEDUP + 1e-12
        assert (s > 1) == psd_wins(td, tv, c)
    assert psd_speedup_bound(0.05, 0.05) == pytest.approx(2.0)  # balanced lanes, no overhead
    assert psd_speedup_bound(0.02, 0.08) == pytest.approx(1 + 0.02 / 0.08)  # 1 + T_d / T_v
    assert psd_speedup_bound(0.02, 0.08, overhead=0.02) == pytest.approx(1.0)  # c = min(T_d, T_v): a tie


def _brute_force_best_k(mode: str, b: int, alpha: float, ks, c: float = 0.0) -> int:
    def tps(k):
        step = t_d(b, k) + t_v(b, k) if mode == "sd" else max(t_d(b, k), t_v(b, k)) + c
        return b * sum(alpha**i for i in range(k + 1)) / step

    return max(ks, key=tps)


@pytest.mark.parametrize("b", [1, 4, 16])
@pytest.mark.parametrize("alpha", [0.3, 0.6, 0.85])
def test_best_k_matches_brute_force(b, alpha):
    model = synthetic_model(overhead=0.001)
    ks = range(1, 11)
    for mode in ("sd", "psd"):
        assert model.best_k(mode, b, alpha, ks).k == _brute_force_best_k(mode, b, alpha, ks, c=0.001)
    assert model.best_k("ar", b, alpha).k == 0


def test_hidden_drafting_favours_longer_drafts():
    """With the draft off the critical path (T_d < T_v), PSD's best k is at least SD's."""
    model = synthetic_model()
    for b, alpha in itertools.product((1, 4, 16), (0.5, 0.7, 0.9)):
        assert model.best_k("psd", b, alpha).k >= model.best_k("sd", b, alpha).k


def test_best_over_modes_and_noisy_fit():
    model = synthetic_model(noise=0.05, seed=3)
    assert model.ready
    best = model.best(8, alpha=0.8)
    cands = [model.predict(m, 8, k, 0.8) for m in ("sd", "psd") for k in (1, 2, 3, 4, 5, 6, 8)]
    cands.append(model.predict("ar", 8, 0, 0.8))
    assert best.tokens_per_second == pytest.approx(max(p.tokens_per_second for p in cands))
    assert model.t_verify(8, 4) == pytest.approx(t_v(8, 4), rel=0.15)  # 5% noise, still close


def test_online_observations_match_table_fit():
    """observe_* (what an adaptive scheduler would call each step) and from_measurements agree."""
    online = CostModel()
    for b, k in itertools.product((1, 3, 8), (2, 5)):
        online.observe_draft(b, k, t_d(b, k))
        online.observe_verify(b, k, t_v(b, k))
        online.observe_verify(b, 0, t_v(b, 0))
    online.observe_draft(4, 0, 1.0)  # ignored: no drafting happened
    assert online.t_draft(6, 3) == pytest.approx(t_d(6, 3))
    assert online.t_verify(6, 3) == pytest.approx(t_v(6, 3))


def test_a_model_without_draft_observations_still_predicts_ar():
    """AR-only calibrations (no drafter) must not break the fit or the report."""
    model = CostModel.from_measurements([{"batch": b, "k": 0, "t_draft": None, "t_verify": t_v(b, 0)} for b in (1, 4)])
    assert model.coefficients()["d0"] == 0.0 and model.coefficients()["d1"] == 0.0
    assert model.predict("ar", 2, 0, 0.0).tokens_per_second == pytest.approx(2 / t_v(2, 0))
    assert CostModel().coefficients() == {"d0": 0.0, "d1": 0.0, "d2": 0.0, "b_knot": None, "d_att": 0.0, "v0": 0.0,
                                          "v1": 0.0, "v2": 0.0, "v3": 0.0, "r_knot": None, "v_att": 0.0, "c": 0.0}


def piecewise_verify(b: int, k: int, knot: float = 8.0, s1: float = 0.004, s2: float = 0.0005) -> float:
    """A CPU-like verification: rows r = b (k + 1) cost s1 each up to the knot, s2 after."""
    r = b * (k + 1)
    return V0 + V1 * b + s1 * min(r, knot) + s2 * max(0.0, r - knot)


def test_piecewise_fit_recovers_knot_and_slopes():
    rng = random.Random(3)
    points = [{"batch": b, "k": k, "t_draft": None, "t_verify": piecewise_verify(b, k) * (1 + 0.002 * rng.uniform(-1, 1))}
              for b, k in itertools.product((1, 2, 4, 8, 16, 32), (0, 1, 2, 4))]
    model = CostModel.from_measurements(points)
    coef = model.coefficients()
    assert coef["r_knot"] == 8.0
    assert coef["v2"] == pytest.approx(0.004, rel=0.05) and coef["v3"] == pytest.approx(0.0005, rel=0.1)
    for b, k in itertools.product((1, 3, 8, 24, 32), (0, 2, 3)):
        assert model.t_verify(b, k) == pytest.approx(piecewise_verify(b, k), rel=0.01)
    # A straight line through the same points is off by far more somewhere.
    line = CostModel.from_measurements([p for p in points if p["batch"] * (p["k"] + 1) > 8])
    assert max(abs(line.t_verify(b, 0) / piecewise_verify(b, 0) - 1) for b in (1, 2)) > 0.2


def test_piecewise_draft_fit_captures_a_convex_batch_cost():
    def per_forward(b: int) -> float:  # flat until the device saturates at b = 8, then linear
        return 0.002 + 0.0001 * min(b, 8) + 0.001 * max(0, b - 8)

    model = CostModel()
    for b, k in itertools.product((1, 2, 4, 8, 12, 16, 24, 32), (1, 3)):
        model.observe_draft(b, k, k * per_forward(b))
    coef = model.coefficients()
    assert coef["b_knot"] == 8.0 and coef["d2"] == pytest.approx(0.001, rel=1e-6)
    for b in (1, 5, 8, 20, 32):
        assert model.t_draft(b, 4) == pytest.approx(4 * per_forward(b), rel=1e-6)


def test_linear_data_keeps_one_line():
    model = synthetic_model(noise=0.01, seed=2)
    coef = model.coefficients()
    assert coef["r_knot"] is None and coef["b_knot"] is None
    assert coef["v3"] == coef["v2"] and coef["d2"] == coef["d1"]
    assert model.t_verify(8, 4) == pytest.approx(t_v(8, 4), rel=0.05)


def test_an_online_fit_stands_until_new_points_are_a_sixteenth_of_the_window():
    """Online users predict every step: a fit is redone once the points observed since are
    REFIT_SHARE of those it was made from, at once while there are few."""
    model = CostModel(window=256)
    model.observe_verify(1, 0, t_v(1, 0))
    model.observe_verify(8, 0, t_v(8, 0))
    assert model.t_verify(4, 0) == pytest.approx(t_v(4, 0))  # few points: every one refits
    for _ in range(254):
        model.observe_verify(8, 0, t_v(8, 0))
    model.t_verify(4, 0)  # fitted on a full window
    before = model.t_verify(16, 0)
    slower = 3 * t_v(16, 0)
    needed = int(CostModel.REFIT_SHARE * 256)
    for _ in range(needed - 1):
        model.observe_verify(16, 0, slower)
    assert model.t_verify(16, 0) == before  # fewer new points than the share: the fit stands
    model.observe_verify(16, 0, slower)
    assert model.t_verify(16, 0) > before  # the share reached: refitted with them


# Attention terms of the synthetic law with context: per (row x context position), seconds.
VA, DA = 4e-6, 1e-6


def t_v_ctx(b: int, k: int, L: int) -> float:
    return t_v(b, k) + VA * b * (k + 1) * L


def t_d_ctx(b: int, k: int, L: int) -> float:
    return t_d(b, k) + k * DA * b * L


def test_fit_separates_attention_from_batch_cost_and_predicts_a_longer_context():
    """Calibrated at two contexts, as the bench does, the fit recovers the attention terms
    and predicts a context it never saw; without contexts (L = 0 everywhere) the terms are 0."""
    points = [{"batch": b, "k": k, "context": L, "t_draft": t_d_ctx(b, k, L) if k else None,
               "t_verify": t_v_ctx(b, k, L)}
              for b, k, L in itertools.product((1, 2, 4, 8, 16), (0, 2, 4), (60, 250))]
    model = CostModel.from_measurements(points)
    coef = model.coefficients()
    assert coef["v_att"] == pytest.approx(VA, rel=1e-6) and coef["d_att"] == pytest.approx(DA, rel=1e-6)
    for b, k in ((16, 2), (8, 4), (3, 1)):
        assert model.t_verify(b, k, 600) == pytest.approx(t_v_ctx(b, k, 600), rel=1e-6)
        assert model.t_draft(b, k, 600) == pytest.approx(t_d_ctx(b, k, 600), rel=1e-6)
    sd = model.predict("sd", 16, 2, 0.5, context=600)
    assert sd.step_time == pytest.approx(t_d_ctx(16, 2, 600) + t_v_ctx(16, 2, 600), rel=1e-6)
    assert model.predict("ar", 16, 0, 0.5, context=600).step_time == pytest.approx(t_v_ctx(16, 0, 600), rel=1e-6)
    plain = synthetic_model().coefficients()
    assert plain["v_att"] == 0.0 and plain["d_att"] == 0.0
