"""Acceptance estimates behind flex's draft caps and draft-length prices.

Under i.i.d. acceptance the number of accepted drafts of a verification is a truncated
geometric; its maximum-likelihood rate is accepted / (accepted + first rejections). Counts
are exponentially decayed per request, twice: fast (``decay``) for the per-request caps,
which must react within a few verifications, and slowly (``steady_decay``) for pricing the
draft lengths, which a short streak of accepted drafts must not move; both are shrunk
towards a global decayed estimate (``request_prior_weight`` pseudo-observations), which is
itself shrunk towards ``prior_alpha`` (``prior_weight``) and spans about ``global_window``
drafted verifications at any batch size (the names are ``FlexSettings``' fields). The
confidence stop is modelled the same way: after each drafted token drafting continues with
probability gamma (1 without a threshold). Then, for a draft cap k:

- expected tokens per verification ``E_i(k) = 1 + alpha * sum_{j<k} (gamma alpha)^j``;
- expected width ``W(k) = sum_{j=1..k} (1 - prod_i (1 - gamma_i^(j-1)))``, the longest draft
  of the batch: the drafter runs until its longest request stops, and the target scores
  the batch as a padded ``[batch, width + 1]`` rectangle, so both cost by W, not by the
  mean draft length (docs/flex.md has the measurement).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from .cost_model import expected_tokens_each


@dataclass(frozen=True)
class RequestObservation:
    """One request's share of a verification (``requested``/``drafted``: None when nothing
    was drafted for it, e.g. under AR)."""

    request_id: str
    verified: int  # draft tokens verified
    accepted: int
    requested: int | None = None  # draft length asked of the drafter
    drafted: int | None = None  # draft length it returned (shorter after a confidence stop)


@dataclass
class _Counts:
    hits: float = 0.0  # accepted tokens / drafting continued
    misses: float = 0.0  # first rejections / confidence stops

    def add(self, hits: float, misses: float, decay: float) -> None:
        self.hits = decay * self.hits + hits
        self.misses = decay * self.misses + misses

    def rate(self, prior: float, weight: float) -> float:
        return (self.hits + weight * prior) / (self.hits + self.misses + weight)


class AcceptanceTracker:
    """Running per-request and global estimates of acceptance alpha and continuation gamma."""

    def __init__(self, decay: float = 0.9, prior_alpha: float = 0.5, prior_weight: float = 4.0,
                 request_prior_weight: float | None = None, idle_decay: float = 1.0,
                 global_window: float | None = None, steady_decay: float | None = None) -> None:
        self.decay, self.prior_alpha, self.prior_weight = decay, prior_alpha, prior_weight
        self.steady_decay = decay if steady_decay is None else steady_decay
        self.idle_decay, self.global_window = idle_decay, global_window
        self.request_prior_weight = prior_weight if request_prior_weight is None else request_prior_weight
        self.global_alpha, self.global_gamma = _Counts(), _Counts()
        self.alphas: dict[str, _Counts] = {}  # fast: behind the per-request draft caps
        self.steady: dict[str, _Counts] = {}  # slow: behind the price of each draft length
        self.gammas: dict[str, _Counts] = {}
        # Rates as computed since the last observation (the global prior enters every one).
        self._memo: dict[tuple[str, str | None, int], float] = {}
        self.stops_seen = False  # any confidence stop observed: else every gamma is exactly 1

    def observe(self, items: Iterable[RequestObservation]) -> None:
        """One verification step's requests: the global counts decay by 1 - 1 / global_window
        per request verified with a draft (without a window, once per step). A request
        verified without a draft (capped at 0, or an AR step) brings no new evidence, and its
        own counts decay all the same: its estimate drifts back to the global one, so a
        request judged on a short streak of rejections drafts again once the global rate
        says it is worth it, instead of never. (The global counts decay only by
        ``idle_decay`` while nothing is drafted, slowly: a draft bad for everyone stays off
        for long, and an estimate left low by a bad spell recovers in time.)"""
        self._memo.clear()
        a_hits = a_misses = g_hits = g_misses = 0.0
        a_seen = g_seen = 0
        for it in items:
            if it.verified > 0:
                a_seen += 1
                miss = float(it.accepted < it.verified)
                self.alphas.setdefault(it.request_id, _Counts()).add(it.accepted, miss, self.decay)
                self.steady.setdefault(it.request_id, _Counts()).add(it.accepted, miss, self.steady_decay)
                a_hits, a_misses = a_hits + it.accepted, a_misses + miss
            elif it.request_id in self.alphas:
                self.alphas[it.request_id].add(0.0, 0.0, self.decay)
                self.steady[it.request_id].add(0.0, 0.0, self.steady_decay)
            if it.requested and it.drafted:
                stop = float(it.drafted < it.requested)
                self.stops_seen = self.stops_seen or bool(stop)
                g_seen += 1
                self.gammas.setdefault(it.request_id, _Counts()).add(it.drafted - 1, stop, self.decay)
                g_hits, g_misses = g_hits + it.drafted - 1, g_misses + stop
        if a_hits or a_misses:
            self.global_alpha.add(a_hits, a_misses, self._global_decay(a_seen))
        else:
            self.global_alpha.add(0.0, 0.0, self.idle_decay)
        if g_hits or g_misses:
            self.global_gamma.add(g_hits, g_misses, self._global_decay(g_seen))

    def _global_decay(self, verifications: int) -> float:
        if self.global_window is None:
            return self.decay
        return (1.0 - 1.0 / self.global_window) ** verifications

    def alpha(self, request_id: str | None = None, steady: bool = False) -> float:
        """The request's acceptance rate (None: the global one); ``steady``: from the slowly
        decayed counts."""
        key = ("steady" if steady else "alpha", request_id, 0)
        if key not in self._memo:
            prior = self.global_alpha.rate(self.prior_alpha, self.prior_weight)
            counts = (self.steady if steady else self.alphas).get(request_id) if request_id is not None else None
            self._memo[key] = prior if counts is None else counts.rate(prior, self.request_prior_weight)
        return self._memo[key]

    def gamma(self, request_id: str | None = None) -> float:
        key = ("gamma", request_id, 0)
        if key not in self._memo:
            # No stop ever observed means no threshold: gamma = 1 exactly.
            prior = self.global_gamma.rate(1.0, self.prior_weight)
            counts = self.gammas.get(request_id) if request_id is not None else None
            self._memo[key] = prior if counts is None else counts.rate(prior, self.request_prior_weight)
        return self._memo[key]

    def forget(self, request_id: str) -> None:
        self.alphas.pop(request_id, None)
        self.steady.pop(request_id, None)
        self.gammas.pop(request_id, None)
        self._memo.clear()


def expected_forwards(gammas: Sequence[float], k: int, caps: Sequence[int] | None = None) -> float:
    """E[max_i drafted length]: the draft forwards of a batch that runs until its longest
    stops, and the width its verification scores (request i drafts at most ``caps[i]``
    tokens, default k)."""
    caps = caps if caps is not None else [k] * len(gammas)
    total = 0.0
    for j in range(1, k + 1):
        total += 1.0 - math.prod(1.0 - (g ** (j - 1) if j <= c else 0.0) for g, c in zip(gammas, caps))
    return total


class RunningBatch:
    """The running requests of one decision as arrays: row i is request ``ids[i]``, rows
    ``[0, split)`` the sub-batch verified next and ``[split, n)`` the other. A decision
    prices some 15 candidates, most of them 2-4 times (with and without per-request caps),
    over every running request; read per request and per candidate, that took 1.3-1.4 ms a
    decision at 32 in flight (1.3% of a step). Caps are [n] integer arrays here."""

    def __init__(self, acceptance: AcceptanceTracker, groups: tuple[Sequence[str], Sequence[str]],
                 longest: int) -> None:
        self.ids = [*groups[0], *groups[1]]
        self.split = len(groups[0])
        self.stops_seen = acceptance.stops_seen
        gamma = np.array([acceptance.gamma(r) for r in self.ids])[:, None]  # [n, 1]
        steady = np.array([acceptance.alpha(r, steady=True) for r in self.ids])[:, None]  # [n, 1] prices lengths
        fast = np.array([acceptance.alpha(r) for r in self.ids])[:, None]  # [n, 1] behind the caps
        lengths = np.arange(longest + 1)[None, :]  # [1, longest + 1]
        self.gamma = gamma[:, 0]  # [n]
        # [n, longest + 1] E_i(j) for every cap j <= longest, from either estimate
        self.table = expected_tokens_each(steady, lengths, gamma)
        self.fast_table = expected_tokens_each(fast, lengths, gamma)
        self.rows = np.arange(len(self.ids))  # [n]

    def __len__(self) -> int:
        return len(self.ids)

    def caps(self, k: int, caps: dict[str, int] | None) -> np.ndarray:
        """[n] per-request caps <= k (absent from ``caps``: k)."""
        if caps is None:
            return np.full(len(self.ids), k)
        return np.array([min(k, caps.get(r, k)) for r in self.ids])

    def tokens(self, cap: np.ndarray) -> float:
        """Expected tokens of one verification of every request at its cap ([n])."""
        return float(self.table[self.rows, cap].sum())

    def width(self, cap: np.ndarray, gamma: np.ndarray) -> float:
        """Expected longest draft of requests capped at ``cap`` ([m]) with continuation
        rates ``gamma`` ([m]): the draft forwards run and the width verified."""
        longest = int(cap.max(initial=0))
        if longest == 0 or not self.stops_seen:
            return float(longest)  # no confidence stop ever: every drafter drafts its cap
        drafting = cap > 0  # [m]
        return expected_forwards(gamma[drafting].tolist(), longest, cap[drafting].tolist())
