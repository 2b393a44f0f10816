"""What flex's clean steps measured, per (mode, batch-size bucket): the realized-rate
correction, the noise of the predictions and the measured tokens/s.

The per-cell costs (``minedraft.rules.measured_cells``) time the forwards; a step also pays
what they do not see (the first steps after a switch of shapes and models running slower,
per-step work outside the forwards, the lanes contending). So each (mode, bucket) keeps
decayed sums, at weight ``weight`` a step, of its clean steps'

- predicted and measured seconds: their ratio, the **realized ratio**, multiplies the mode's
  predicted tokens/s (a ratio of sums, so one slow step weighs by its length);
- log(measured / predicted) seconds, first and second moments, and the sum of the squared
  weights behind them (1 / the effective number of steps): the **noise** of a comparison
  between two modes (``FlexPolicy.switch_noise``);
- tokens and seconds, at ``RATE_WEIGHT``: the **measured rate**, against which a switch
  between modes is judged.

Kept per bucket because what a mode's cells miss differs with the batch (on a CPU, SD's
extra rows cost more than predicted at 16 requests, not at 1). Statistics trusted only
while fresh: a (mode, bucket) not stepped for ``stale_after`` decisions starts afresh at its
next step (``_restart_if_stale``).
"""

from __future__ import annotations

import math

RATE_WEIGHT = 0.2  # weight of a step in a mode's measured tokens/s (decayed sums)

Key = tuple[str, int]  # (mode, batch-size bucket)


def batch_bucket(num_running: int) -> int:
    """Batch sizes 1, 2-3, 4-7, 8-15, ... share a bucket of step statistics."""
    return max(num_running, 1).bit_length()


class StepStatistics:
    """Decayed statistics of clean steps per (mode, bucket); ``weight`` 0: no correction."""

    def __init__(self, weight: float, stale_after: int) -> None:
        self.weight = weight
        self.stale_after = stale_after
        self.realized: dict[Key, float] = {}  # predicted over measured seconds
        self._predicted_seconds: dict[Key, float] = {}
        self._measured_seconds: dict[Key, float] = {}
        self._log_ratio: dict[Key, tuple[float, float]] = {}  # moments of log(measured / predicted)
        self._weight_sq: dict[Key, float] = {}  # sum of the squared weights behind them
        self._rates: dict[Key, tuple[float, float]] = {}  # decayed tokens and seconds
        self._updated_at: dict[Key, int] = {}  # decision count at each key's last step

    def observe(self, key: Key, now: int, expected_seconds: float | None, seconds: float,
                tokens: int | None = None) -> None:
        """A clean step of ``key`` at decision ``now``, predicted at ``expected_seconds``, took
        ``seconds`` and emitted ``tokens``."""
        w = self.weight
        self._restart_if_stale(key, now, expected_seconds)
        if tokens is not None and seconds > 0:
            t, sec = self._rates.get(key, (tokens, seconds))
            self._rates[key] = (t + RATE_WEIGHT * (tokens - t), sec + RATE_WEIGHT * (seconds - sec))
        if not (expected_seconds and seconds > 0 and w > 0):
            return
        predicted, measured = self._predicted_seconds.get(key, 0.0), self._measured_seconds.get(key, 0.0)
        self._predicted_seconds[key] = predicted = predicted + w * (expected_seconds - predicted)
        self._measured_seconds[key] = measured = measured + w * (seconds - measured)
        self.realized[key] = predicted / measured
        r = math.log(seconds / expected_seconds)
        m1, m2 = self._log_ratio.get(key, (r, r * r))
        self._log_ratio[key] = (m1 + w * (r - m1), m2 + w * (r * r - m2))
        # The first step weighs 1; each later one w, the older ones shrinking by 1 - w.
        self._weight_sq[key] = (1 - w) ** 2 * self._weight_sq[key] + w * w if key in self._weight_sq else 1.0

    def _restart_if_stale(self, key: Key, now: int, expected_seconds: float | None) -> None:
        """A key whose statistics were last updated ``stale_after`` decisions ago or more
        starts them afresh: its correction from none (predicted = measured, the step's
        ``expected_seconds`` as the prior step), learnt at the usual weight from this step
        on, and its noise and measured rate from this step alone. Decayed per step, a stale
        correction outlived the spell that set it. After a minute in which another process
        shared the two cores, AR's correction at 4 requests was left at about 0.35 (its
        steps had run 2.5-3x over their prediction); its probes, one step in 64 decisions,
        each moved it a fifth of the way, so AR was priced at 18-25 tok/s where it ran at
        about 70, and flex ran PSD on 138 of 182 steps of the next trial at 4 in flight, at
        about half of SD's rate (equal requests in flight and cores). The restart is from no
        correction rather than from the probe's step alone: a single step (the first after
        a switch of shapes runs slow) set AR's correction to 0.68 that way."""
        last = self._updated_at.get(key)
        self._updated_at[key] = now
        if last is None or now - last < self.stale_after:
            return
        for stats in (self.realized, self._log_ratio, self._weight_sq, self._rates):
            stats.pop(key, None)
        if expected_seconds:
            self._predicted_seconds[key] = self._measured_seconds[key] = expected_seconds
        else:
            self._predicted_seconds.pop(key, None)
            self._measured_seconds.pop(key, None)

    def realized_ratio(self, key: Key) -> float:
        """Predicted over measured step time (1: none yet)."""
        return self.realized.get(key, 1.0)

    def measured_rate(self, key: Key, now: int) -> float | None:
        """Measured tokens/s of the recent clean steps, if any within ``stale_after`` decisions."""
        found = self._rates.get(key)
        if found is None or now - self._updated_at[key] > self.stale_after:
            return None
        return found[0] / found[1]

    def noise(self, key: Key) -> float:
        """Standard deviation of log(measured / predicted) step time (0 before two steps)."""
        m1, m2 = self._log_ratio.get(key, (0.0, 0.0))
        return math.sqrt(max(m2 - m1 * m1, 0.0))

    def weight_sq(self, key: Key) -> float:
        """Sum of the squared weights behind the mean log ratio: 1 / the effective number of
        steps (1 for a key with none)."""
        return self._weight_sq.get(key, 1.0)
