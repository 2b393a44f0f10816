"""The cost model: MineDraft's theory made executable.

From measured step costs and acceptance it predicts tokens/s of AR, SD and PSD and the
best draft length. Notation (docs/theory.md derives it):

- ``T_d(b, k)``: drafting k tokens for b requests = k sequential draft forwards,
  ``T_d = k * (d0 + d1 * b)``.
- ``T_v(b, k)``: one target forward over b requests with k + 1 positions each,
  ``T_v = v0 + v1 * b + v2 * b * (k + 1)``. AR is ``T_v(b, 0)``.
- ``E[tau](alpha, k) = (1 - alpha^(k+1)) / (1 - alpha)``: tokens emitted per request per
  verification under i.i.d. acceptance alpha.
- AR: ``b / T_v(b, 0)``. SD: ``b * E[tau] / (T_d + T_v)``.
- PSD, two sub-batches of b: one is verified per step while the other is drafted, so
  ``b * E[tau] / (max(T_d, T_v) + c)`` with c the per-step overhead.

Hence PSD / SD = (T_d + T_v) / (max(T_d, T_v) + c) <= 2, reached when T_d = T_v and c = 0.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from .verification import expected_tokens_per_step

MODES = ("ar", "sd", "psd")


@dataclass
class Prediction:
    mode: str
    batch: int
    k: int
    step_time: float
    tokens_per_step: float
    tokens_per_second: float


class CostModel:
    """Least-squares fits of draft and verify cost over recent observations."""

    def __init__(self, window: int = 256, overhead: float = 0.0) -> None:
        self._draft: deque[tuple[int, int, float]] = deque(maxlen=window)  # (batch, k, seconds)
        self._verify: deque[tuple[int, int, float]] = deque(maxlen=window)
        self.overhead = overhead  # PSD per-step overhead c, seconds
        self._draft_coef: np.ndarray | None = None
        self._verify_coef: np.ndarray | None = None

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
            rows = [(1.0, b) for b, kk, _ in self._draft]
            per_step = [s / kk for b, kk, s in self._draft]
            self._draft_coef = _fit(np.array(rows), np.array(per_step))
        d0, d1 = self._draft_coef
        return k * max(d0 + d1 * batch, 1e-9)

    def t_verify(self, batch: int, k: int) -> float:
        if self._verify_coef is None:
            rows = [(1.0, b, b * (kk + 1)) for b, kk, _ in self._verify]
            self._verify_coef = _fit(np.array(rows), np.array([s for *_, s in self._verify]))
        v0, v1, v2 = self._verify_coef
        return max(v0 + v1 * batch + v2 * batch * (k + 1), 1e-9)

    # -- predictions -------------------------------------------------------------------------
    def predict(self, mode: str, batch: int, k: int, alpha: float) -> Prediction:
        if mode == "ar":
            step, tokens = self.t_verify(batch, 0), 1.0
        elif mode == "sd":
            step, tokens = self.t_draft(batch, k) + self.t_verify(batch, k), expected_tokens_per_step(alpha, k)
        elif mode == "psd":
            step = max(self.t_draft(batch, k), self.t_verify(batch, k)) + self.overhead
            tokens = expected_tokens_per_step(alpha, k)
        else:
            raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
        return Prediction(mode, batch, 0 if mode == "ar" else k, step, tokens, batch * tokens / step)

    def best(self, batch: int, alpha: float, ks: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 8),
             modes: tuple[str, ...] = MODES) -> Prediction:
        """The mode and k with the highest predicted tokens/s at this batch size."""
        candidates = []
        for mode in modes:
            for k in (0,) if mode == "ar" else ks:
                candidates.append(self.predict(mode, batch, k, alpha))
        return max(candidates, key=lambda p: p.tokens_per_second)


def psd_speedup_bound(t_draft: float, t_verify: float, overhead: float = 0.0) -> float:
    """PSD over SD at equal k and acceptance: (T_d + T_v) / (max(T_d, T_v) + c)."""
    return (t_draft + t_verify) / (max(t_draft, t_verify) + overhead)


def _fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Non-negative-ish least squares: plain lstsq, negative slopes clipped to zero and the
    intercept refitted, so that sparse observations (one batch size) still extrapolate sanely."""
    if len(y) == 0:
        return np.zeros(x.shape[1] if x.ndim == 2 else 1)
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    if (coef[1:] < 0).any():
        coef[1:] = np.clip(coef[1:], 0.0, None)
        coef[0] = float(np.mean(y - x[:, 1:] @ coef[1:]))
    return coef
