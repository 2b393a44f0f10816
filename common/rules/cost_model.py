"""The cost model: MineDraft's theory made executable.

From measured step costs and acceptance it predicts tokens/s of AR, SD and PSD and the
best draft length. Notation (docs/theory.md derives it):

- ``T_d(b, k, L)``: drafting k tokens for b requests whose longest committed sequence is L
  = k sequential draft forwards, ``T_d = k * (f(b) + d_att * b * L)`` with f linear in b, or
  piecewise linear with one knot.
- ``T_v(b, k, L)``: one target forward over b requests with k + 1 positions each (plus the
  acceptance rule), ``T_v = v0 + v1 * b + g(r) + v_att * r * L`` with r = b (k + 1) the rows
  verified and g linear in r, or piecewise linear with one knot (``CostModel``). AR is
  ``T_v(b, 0, L)``. The attention terms: with padded attention every row attends over the
  longest sequence's cached positions (L = 0 where the context is unknown: no such term).
- ``E[tau](alpha, k) = (1 - alpha^(k+1)) / (1 - alpha)``: tokens emitted per request per
  verification under i.i.d. acceptance alpha.
- AR: ``b / T_v(b, 0)``. SD: ``b * E[tau] / (T_d + T_v)``.
- PSD, two sub-batches of b (concurrency 2b): one is verified per step while the other is
  drafted, so ``b * E[tau] / (max(T_d, T_v) + c)`` with c the per-step overhead.

Hence PSD / SD = (T_d + T_v) / (max(T_d, T_v) + c) <= 2, reached when T_d = T_v and c = 0;
PSD wins exactly when c < min(T_d, T_v).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import asdict, dataclass

import numpy as np

MODES = ("ar", "sd", "psd")
MAX_PSD_SPEEDUP = 2.0  # two lanes: at best both are busy all the time


@dataclass
class Prediction:
    mode: str
    batch: int  # requests per verification (per sub-batch under PSD)
    k: int
    step_time: float  # seconds per scheduler step
    tokens_per_step: float  # tokens emitted per verified request per step (E[tau])
    tokens_per_second: float
    concurrency: int = 0  # requests in flight: 2 * batch under PSD, batch otherwise
    token_latency: float = 0.0  # seconds between two tokens of one running request (mean)

    def to_dict(self) -> dict[str, float | int | str]:
        return asdict(self)


def expected_tokens(alpha: float, k: int, gamma: float = 1.0) -> float:
    """E[tau]: tokens emitted per verification of one request with draft cap k, i.i.d.
    acceptance alpha and, after each drafted token, drafting continuing with probability
    gamma (a confidence stop; 1 without one): ``1 + alpha * sum_{j<k} (gamma alpha)^j``,
    which for gamma = 1 is ``(1 - alpha^(k+1)) / (1 - alpha)``. The one home of this
    formula (``expected_tokens_each`` for arrays): the cost model, the flex policy and the
    distillation report all use it."""
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must be in [0, 1], got {alpha!r}")
    return float(expected_tokens_each(np.float64(alpha), k, np.float64(gamma)))


def expected_tokens_each(alpha: np.ndarray, k: int | np.ndarray, gamma: np.ndarray) -> np.ndarray:
    """``expected_tokens`` elementwise, broadcasting alpha, k and gamma against each other
    (e.g. alpha, gamma [n, 1] and k [1, m] give [n, m]): the flex policy prices every draft
    length over every running request at each step. The geometric sum
    ``sum_{j<k} x^j = (1 - x^k) / (1 - x)`` is k where x = gamma alpha is 1."""
    x = gamma * alpha
    near_one = np.abs(1.0 - x) < 1e-12
    denominator = np.where(near_one, 1.0, 1.0 - x)
    return 1.0 + alpha * np.where(near_one, k, (1.0 - x**k) / denominator)


def alpha_from_tokens(tokens_per_step: float, k: int, tol: float = 1e-9) -> float:
    """Invert E[tau]: the i.i.d. acceptance alpha whose E[tau](alpha, k) equals the measured
    tokens per verification (clamped to [0, 1]; E[tau] is increasing in alpha)."""
    if k <= 0 or tokens_per_step <= 1.0:
        return 0.0
    if tokens_per_step >= k + 1:
        return 1.0
    lo, hi = 0.0, 1.0
    while hi - lo > tol:
        mid = (lo + hi) / 2
        if expected_tokens(mid, k) < tokens_per_step:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def psd_speedup_bound(t_draft: float, t_verify: float, overhead: float = 0.0) -> float:
    """PSD over SD at equal k and acceptance: (T_d + T_v) / (max(T_d, T_v) + c)."""
    return (t_draft + t_verify) / (max(t_draft, t_verify) + overhead)


def psd_wins(t_draft: float, t_verify: float, overhead: float = 0.0) -> bool:
    """PSD beats SD (same sub-batch size, k and alpha) exactly when c < min(T_d, T_v)."""
    return overhead < min(t_draft, t_verify)


class CostModel:
    """Least-squares fits of draft and verify cost over recent observations.

    Forms (seconds), each fitted with non-negative slopes, L the longest committed sequence
    of the batch (the positions padded attention runs over; 0 where unknown):

    - per draft forward over b requests: ``d0 + d1 b + d_att b L``, or, when the data ask
      for it, piecewise ``d0 + d1 min(b, B) + d2 max(0, b - B) + d_att b L`` with a knot B;
    - verification of b requests with k draft tokens each, r = b (k + 1) rows:
      ``v0 + v1 b + v2 r + v_att r L``, or piecewise
      ``v0 + v1 b + v2 min(r, R) + v3 max(0, r - R) + v_att r L``.

    Attention cost is what makes long generations slower per token: on 2 CPU cores the
    embedded target verifies 16 requests drafting 2 in about 60 ms at L = 64 and 150-190 ms
    at L = 512 (docs/theory.md). Observations without a context (L = 0) leave the term at 0.

    A CPU matrix product costs little per extra row until the rows fill the vector units
    (concave), a GPU forward little until the device saturates (convex); one line through
    both regimes mispredicts both. The knot is chosen among the observed sizes by least
    squares and kept only if it beats the straight line on the Bayesian information
    criterion (``_fit_piecewise``)."""

    REFIT_SHARE = 1 / 16  # refit once new observations are this share of those fitted (at least 1)

    def __init__(self, window: int = 256, overhead: float = 0.0) -> None:
        self._draft: deque[tuple[int, float, float, int]] = deque(maxlen=window)  # (batch, k, seconds, context)
        self._verify: deque[tuple[int, float, float, int]] = deque(maxlen=window)
        self.overhead = overhead  # PSD per-step overhead c, seconds
        self._draft_fit: Piecewise | None = None
        self._verify_fit: Piecewise | None = None
        # Observations since each fit. A fit costs a knot search of least-squares solves, and
        # an online user (flex) asks for predictions every step: refitting after every new
        # point costs more than the point changes, so a fit stands until the new points are
        # REFIT_SHARE of the window it was made from.
        self._pending = {"draft": 0, "verify": 0}

    @classmethod
    def from_measurements(cls, points: Iterable[dict], overhead: float = 0.0) -> CostModel:
        """A model fitted to calibration points ``{"batch", "k", "t_draft", "t_verify"}`` and
        optionally ``"context"`` (``t_draft`` may be None or 0 where only the target was
        timed, e.g. k = 0)."""
        model = cls(window=100_000, overhead=overhead)
        for p in points:
            context = int(p.get("context") or 0)
            if p.get("t_draft"):
                model.observe_draft(int(p["batch"]), int(p["k"]), float(p["t_draft"]), context)
            if p.get("t_verify"):
                model.observe_verify(int(p["batch"]), int(p["k"]), float(p["t_verify"]), context)
        return model

    # -- observations --------------------------------------------------------------------
    def observe_draft(self, batch: int, k: float, seconds: float, context: int = 0) -> None:
        """``k`` draft forwards for ``batch`` requests, the longest ``context`` tokens long."""
        if batch > 0 and k > 0 and seconds > 0:
            self._draft.append((batch, k, seconds, context))
            self._pending["draft"] += 1

    def observe_verify(self, batch: int, k: float, seconds: float, context: int = 0) -> None:
        """``k``: the verified width, the longest draft (0 for AR); ``context``: the longest
        committed sequence verified."""
        if batch > 0 and seconds > 0:
            self._verify.append((batch, k, seconds, context))
            self._pending["verify"] += 1

    def _refit_due(self, kind: str, observed: int) -> bool:
        return self._pending[kind] >= max(1.0, self.REFIT_SHARE * observed)

    @property
    def ready(self) -> bool:
        return len(self._verify) >= 2 and len(self._draft) >= 2

    @property
    def observations(self) -> tuple[int, int]:
        """(draft calls, verifications) the fits are made from."""
        return len(self._draft), len(self._verify)

    # -- costs -----------------------------------------------------------------------------
    def _draft_model(self) -> Piecewise:
        if self._draft_fit is None or self._refit_due("draft", len(self._draft)):
            batches = np.array([b for b, *_ in self._draft], dtype=float)
            per_forward = np.array([s / kk for _, kk, s, _ in self._draft], dtype=float)
            attention = np.array([b * ctx for b, _, _, ctx in self._draft], dtype=float)
            self._draft_fit = _fit_piecewise(attention.reshape(-1, 1), batches, per_forward)
            self._pending["draft"] = 0
        return self._draft_fit

    def _verify_model(self) -> Piecewise:
        if self._verify_fit is None or self._refit_due("verify", len(self._verify)):
            batches = np.array([b for b, *_ in self._verify], dtype=float)
            rows = np.array([b * (kk + 1) for b, kk, *_ in self._verify], dtype=float)
            seconds = np.array([s for _, _, s, _ in self._verify], dtype=float)
            attention = rows * np.array([ctx for *_, ctx in self._verify], dtype=float)
            self._verify_fit = _fit_piecewise(np.column_stack([batches, attention]), rows, seconds)
            self._pending["verify"] = 0
        return self._verify_fit

    def t_draft(self, batch: int, k: float, context: int = 0) -> float:
        if k == 0:
            return 0.0
        return k * max(self._draft_model()(np.array([batch * context], dtype=float), batch), 1e-9)

    def t_verify(self, batch: int, k: float, context: int = 0) -> float:
        rows = batch * (k + 1)
        return max(self._verify_model()(np.array([batch, rows * context], dtype=float), rows), 1e-9)

    def coefficients(self) -> dict[str, float | None]:
        """The fitted constants (seconds), for reports: per draft forward d0 + d1 min(b, b_knot)
        + d2 max(0, b - b_knot) + d_att b L; verification v0 + v1 b + v2 min(r, r_knot)
        + v3 max(0, r - r_knot) + v_att r L with r = b (k + 1) rows and L the context (a knot of
        None: one slope, d2 = d1 and v3 = v2); PSD overhead c."""
        d, v = self._draft_model(), self._verify_model()
        return {"d0": d.intercept, "d1": d.slopes[0], "d2": d.slopes[1], "b_knot": d.knot,
                "d_att": float(d.linear[0]), "v0": v.intercept, "v1": float(v.linear[0]),
                "v2": v.slopes[0], "v3": v.slopes[1], "r_knot": v.knot, "v_att": float(v.linear[1]),
                "c": float(self.overhead)}

    # -- predictions -------------------------------------------------------------------------
    def predict(self, mode: str, batch: int, k: int, alpha: float, context: int = 0) -> Prediction:
        """Steady state at a context of ``context`` committed tokens (the longest sequence)."""
        t_draft, t_verify = self.t_draft(batch, k, context), self.t_verify(batch, 0 if mode == "ar" else k, context)
        if mode == "ar":
            step, tokens = t_verify, 1.0
        elif mode == "sd":
            step, tokens = t_draft + t_verify, expected_tokens(alpha, k)
        elif mode == "psd":
            step = max(t_draft, t_verify) + self.overhead
            tokens = expected_tokens(alpha, k)
        else:
            raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
        # Under PSD a request is verified every other step: twice the step per token round.
        rounds = 2.0 if mode == "psd" else 1.0
        return Prediction(
            mode, batch, 0 if mode == "ar" else k, step, tokens, batch * tokens / step,
            concurrency=2 * batch if mode == "psd" else batch, token_latency=rounds * step / tokens,
        )

    def speedup(self, batch: int, k: int, context: int = 0) -> float:
        """Predicted PSD / SD tokens/s at the same sub-batch size, k and acceptance."""
        return psd_speedup_bound(self.t_draft(batch, k, context), self.t_verify(batch, k, context), self.overhead)

    def best_k(self, mode: str, batch: int, alpha: float,
               ks: Iterable[int] = (1, 2, 3, 4, 5, 6, 8), context: int = 0) -> Prediction:
        """The draft length with the highest predicted tokens/s for one mode."""
        if mode == "ar":
            return self.predict("ar", batch, 0, alpha, context)
        return max((self.predict(mode, batch, k, alpha, context) for k in ks), key=lambda p: p.tokens_per_second)

    def best(self, batch: int, alpha: float, ks: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 8),
             modes: tuple[str, ...] = MODES, context: int = 0) -> Prediction:
        """The mode and k with the highest predicted tokens/s at this batch size."""
        candidates = []
        for mode in modes:
            for k in (0,) if mode == "ar" else ks:
                candidates.append(self.predict(mode, batch, k, alpha, context))
        return max(candidates, key=lambda p: p.tokens_per_second)


@dataclass
class Piecewise:
    """``intercept + linear . x + slopes[0] min(z, knot) + slopes[1] max(0, z - knot)``
    (no knot: ``slopes[1] == slopes[0]``, one line in z)."""

    intercept: float
    linear: np.ndarray  # coefficients of the extra features x
    slopes: tuple[float, float]
    knot: float | None

    def __call__(self, x: np.ndarray, z: float) -> float:
        extra = float(np.dot(self.linear, x)) if len(self.linear) else 0.0
        if self.knot is None:
            return self.intercept + extra + self.slopes[0] * z
        return self.intercept + extra + self.slopes[0] * min(z, self.knot) + self.slopes[1] * max(0.0, z - self.knot)


MAX_KNOTS = 8  # candidate knots tried per refit (quantiles of the observed sizes)


def _design(x: np.ndarray, z: np.ndarray, knot: float | None) -> np.ndarray:
    cols = [np.ones(len(z)), *x.T]
    cols += [z] if knot is None else [np.minimum(z, knot), np.maximum(0.0, z - knot)]
    return np.column_stack(cols)


def _fit_piecewise(x: np.ndarray, z: np.ndarray, y: np.ndarray) -> Piecewise:
    """Fit y ~ 1 + x + (piecewise linear in z), non-negative slopes. The knot is an interior
    observed value of z; it is kept if n log(SSE / n) + p log n (BIC) drops by more than 2
    against the straight line, so exact or nearly linear data keep one line."""
    n_x = x.shape[1]
    if len(y) == 0:
        return Piecewise(0.0, np.zeros(n_x), (0.0, 0.0), None)

    def solve(knot: float | None) -> tuple[np.ndarray, float]:
        a = _design(x, z, knot)
        coef = _fit(a, y)
        return coef, float(np.sum((a @ coef - y) ** 2))

    coef, sse = solve(None)
    best = (coef, sse, None)
    values = np.unique(z)
    interior = values[1:-1]
    if len(interior) and len(values) >= 4 and sse > 1e-12 * float(np.sum(y**2)):
        picks = interior if len(interior) <= MAX_KNOTS else np.unique(np.quantile(interior, np.linspace(0, 1, MAX_KNOTS), method="nearest"))
        n = len(y)

        def bic(s: float, p: int) -> float:
            return n * np.log(max(s, 1e-300) / n) + p * np.log(n)

        base = bic(sse, 2 + n_x)
        for knot in picks:
            c, s = solve(float(knot))
            if bic(s, 3 + n_x) < base - 2.0 and s < best[1]:
                best = (c, s, float(knot))
    coef, _, knot = best
    slope = float(coef[1 + n_x])
    slopes = (slope, slope) if knot is None else (slope, float(coef[2 + n_x]))
    return Piecewise(float(coef[0]), coef[1:1 + n_x].astype(float), slopes, knot)


def _fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Least squares with non-negative slopes (the intercept is free): an active-set loop
    that drops the most negative slope and refits, so that sparse or noisy observations
    (one batch size, one k) still extrapolate sanely instead of predicting costs that fall
    as work grows."""
    n = x.shape[1]
    if len(y) == 0:
        return np.zeros(n)
    active = list(range(n))
    while True:
        sol, *_ = np.linalg.lstsq(x[:, active], y, rcond=None)
        coef = np.zeros(n)
        coef[active] = sol
        negative = [j for j in active[1:] if coef[j] < 0]
        if not negative:
            return coef
        active.remove(min(negative, key=lambda j: coef[j]))
