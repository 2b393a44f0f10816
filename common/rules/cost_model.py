"""The cost model: MineDraft's theory made executable.

From measured step costs and acceptance it predicts tokens/s of AR, SD and PSD and the
best draft length. Notation (docs/theory.md derives it):

- ``T_d(b, k)``: drafting k tokens for b requests = k sequential draft forwards,
  ``T_d = k * (d0 + d1 * b)``.
- ``T_v(b, k)``: one target forward over b requests with k + 1 positions each (plus the
  acceptance rule), ``T_v = v0 + v1 * b + v2 * b * (k + 1)``. AR is ``T_v(b, 0)``.
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


def geometric_sum(x: float, n: int) -> float:
    """sum_{j<n} x^j."""
    return float(n) if abs(1.0 - x) < 1e-12 else (1.0 - x**n) / (1.0 - x)


def expected_tokens(alpha: float, k: int, gamma: float = 1.0) -> float:
    """E[tau]: tokens emitted per verification of one request with draft cap k, i.i.d.
    acceptance alpha and, after each drafted token, drafting continuing with probability
    gamma (a confidence stop; 1 without one): ``1 + alpha * sum_{j<k} (gamma alpha)^j``,
    which for gamma = 1 is ``(1 - alpha^(k+1)) / (1 - alpha)``. The one home of this
    formula: the cost model, the flex policy and the distillation report all use it."""
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must be in [0, 1], got {alpha!r}")
    return 1.0 + alpha * geometric_sum(gamma * alpha, k)


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
    """Least-squares fits of draft and verify cost over recent observations."""

    def __init__(self, window: int = 256, overhead: float = 0.0) -> None:
        self._draft: deque[tuple[int, int, float]] = deque(maxlen=window)  # (batch, k, seconds)
        self._verify: deque[tuple[int, int, float]] = deque(maxlen=window)
        self.overhead = overhead  # PSD per-step overhead c, seconds
        self._draft_coef: np.ndarray | None = None
        self._verify_coef: np.ndarray | None = None

    @classmethod
    def from_measurements(cls, points: Iterable[dict], overhead: float = 0.0) -> CostModel:
        """A model fitted to calibration points ``{"batch", "k", "t_draft", "t_verify"}``
        (``t_draft`` may be None or 0 where only the target was timed, e.g. k = 0)."""
        model = cls(window=100_000, overhead=overhead)
        for p in points:
            if p.get("t_draft"):
                model.observe_draft(int(p["batch"]), int(p["k"]), float(p["t_draft"]))
            if p.get("t_verify"):
                model.observe_verify(int(p["batch"]), int(p["k"]), float(p["t_verify"]))
        return model

    # -- observations --------------------------------------------------------------------
    def observe_draft(self, batch: int, k: int, seconds: float) -> None:
        if batch > 0 and k > 0 and seconds > 0:
            self._draft.append((batch, k, seconds))
            self._draft_coef = None

    def observe_verify(self, batch: int, k: int, seconds: float) -> None:
        """``k`` draft tokens per request on average (0 for AR)."""
        if batch > 0 and seconds > 0:
            self._verify.append((batch, k, seconds))
            self._verify_coef = None

    @property
    def ready(self) -> bool:
        return len(self._verify) >= 2 and len(self._draft) >= 2

    # -- costs -----------------------------------------------------------------------------
    def t_draft(self, batch: int, k: int) -> float:
        if k == 0:
            return 0.0
        if self._draft_coef is None:
            rows = np.array([(1.0, b) for b, _, _ in self._draft], dtype=float).reshape(-1, 2)
            per_step = np.array([s / kk for _, kk, s in self._draft], dtype=float)
            self._draft_coef = _fit(rows, per_step)
        d0, d1 = self._draft_coef
        return k * max(d0 + d1 * batch, 1e-9)

    def t_verify(self, batch: int, k: int) -> float:
        if self._verify_coef is None:
            rows = np.array([(1.0, b, b * (kk + 1)) for b, kk, _ in self._verify], dtype=float).reshape(-1, 3)
            self._verify_coef = _fit(rows, np.array([s for *_, s in self._verify], dtype=float))
        v0, v1, v2 = self._verify_coef
        return max(v0 + v1 * batch + v2 * batch * (k + 1), 1e-9)

    def coefficients(self) -> dict[str, float]:
        """The fitted constants (seconds), for reports: T_d = k (d0 + d1 b),
        T_v = v0 + v1 b + v2 b (k + 1), PSD overhead c."""
        self.t_draft(1, 1), self.t_verify(1, 0)  # fit lazily
        d0, d1 = (float(x) for x in self._draft_coef)  # type: ignore[union-attr]
        v0, v1, v2 = (float(x) for x in self._verify_coef)  # type: ignore[union-attr]
        return {"d0": d0, "d1": d1, "v0": v0, "v1": v1, "v2": v2, "c": float(self.overhead)}

    # -- predictions -------------------------------------------------------------------------
    def predict(self, mode: str, batch: int, k: int, alpha: float) -> Prediction:
        if mode == "ar":
            step, tokens = self.t_verify(batch, 0), 1.0
        elif mode == "sd":
            step, tokens = self.t_draft(batch, k) + self.t_verify(batch, k), expected_tokens(alpha, k)
        elif mode == "psd":
            step = max(self.t_draft(batch, k), self.t_verify(batch, k)) + self.overhead
            tokens = expected_tokens(alpha, k)
        else:
            raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
        # Under PSD a request is verified every other step: twice the step per token round.
        rounds = 2.0 if mode == "psd" else 1.0
        return Prediction(
            mode, batch, 0 if mode == "ar" else k, step, tokens, batch * tokens / step,
            concurrency=2 * batch if mode == "psd" else batch, token_latency=rounds * step / tokens,
        )

    def speedup(self, batch: int, k: int) -> float:
        """Predicted PSD / SD tokens/s at the same sub-batch size, k and acceptance."""
        return psd_speedup_bound(self.t_draft(batch, k), self.t_verify(batch, k), self.overhead)

    def best_k(self, mode: str, batch: int, alpha: float,
               ks: Iterable[int] = (1, 2, 3, 4, 5, 6, 8)) -> Prediction:
        """The draft length with the highest predicted tokens/s for one mode."""
        if mode == "ar":
            return self.predict("ar", batch, 0, alpha)
        return max((self.predict(mode, batch, k, alpha) for k in ks), key=lambda p: p.tokens_per_second)

    def best(self, batch: int, alpha: float, ks: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 8),
             modes: tuple[str, ...] = MODES) -> Prediction:
        """The mode and k with the highest predicted tokens/s at this batch size."""
        candidates = []
        for mode in modes:
            for k in (0,) if mode == "ar" else ks:
                candidates.append(self.predict(mode, batch, k, alpha))
        return max(candidates, key=lambda p: p.tokens_per_second)


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
