"""Measured step costs per exact shape, which flex prices from before the linear fits.

The linear fits extrapolate badly where cost is not linear in the positions verified: on a
CPU a target forward over 1 row can cost half one over 2 to 4 rows (matrix products with
few rows), so a fit through AR steps and k = 2 verifications underestimates k = 1 and
overestimates k = 0. The policy therefore also keeps an exponential average of the
measured seconds per exact cell (family, verify, batch, rounded width; or family, draft,
batch: seconds per draft forward, since drafting k tokens is k forwards of one shape, so
every draft length feeds the one cell and a single slow call at a rarely run k cannot
price that k out) and predicts from a cell once it has two observations (``cell_min_obs``
0: the fit alone). A cell's first observation is provisional, replaced by the second: the
first call of a shape pays one-off costs, so it prices its shape from above only. A cell
not settled borrows the correction of the nearest settled batch size at the same length:
the fit times measured / fitted there (the shape of the nonlinearity, e.g. one row cheap
and two expensive, carries over between batch sizes); with none, its own provisional
observation, else the nearest provisional cell's correction, else the fit alone. A
mispredicted candidate gets chosen, measured and corrected, so the choice converges on
what was timed. Warm-up plans run each length twice in a row, so that a mode starts from
settled cells. Cells age: every ``CELL_AGE`` decisions without an update weigh as one more
observation, as the host's speed drifts.
"""

from __future__ import annotations

import math

NEAR_BATCH = 1.5  # batch sizes within this factor count as observed


def near_batch(a: int, b: int) -> bool:
    """Whether batch sizes ``a`` and ``b`` are within ``NEAR_BATCH`` of each other."""
    return max(a, b) / min(a, b) <= NEAR_BATCH


CELL_TOLERANCE = 0.25  # a mean length within this of an integer falls in that integer's cell
PROVISIONAL = 1  # a cell's first observations until this many: replaced by the next (MeasuredCells.add)
CELL_AGE = 64  # decisions without an update that age a cell's value by one more observation


class MeasuredCells:
    """Running averages of measured seconds per exact cell (family, "draft" or "verify",
    batch, length); a fractional length (confidence stops) has a cell only near an integer."""

    def __init__(self, weight: float = 0.3) -> None:
        self.weight = weight
        self.seconds: dict[tuple[str, str, int, int], float] = {}
        self.counts: dict[tuple[str, str, int, int], int] = {}
        # The batch sizes measured per (family, kind, length): the lookups across batch sizes
        # run in every decision, and a run fills a cell per family, kind, batch size and length.
        self.batches: dict[tuple[str, str, int], set[int]] = {}
        self.updated: dict[tuple[str, str, int, int], int] = {}  # decision count at the last update

    @staticmethod
    def key(family: str, kind: str, batch: int, length: float) -> tuple[str, str, int, int] | None:
        rounded = round(length)
        return (family, kind, batch, rounded) if abs(length - rounded) <= CELL_TOLERANCE else None

    def add(self, family: str, kind: str, batch: int, length: float, seconds: float, now: int | None = None) -> None:
        """A cell's first observation is provisional: the second replaces it. The first call
        of a shape in a regime pays one-off costs (measured here: a first draft forward of
        23.6 ms against 5-7 ms afterwards, after the thread count changed), and averaged in
        it would hold that length's price up for several observations, or for good when the
        inflated price keeps the length from being run again.

        ``now`` (the policy's decision count) ages the old value: every ``CELL_AGE`` decisions
        without an update count as one more observation since. A shared host's speed drifts
        over minutes, and a cell last timed in a slow spell (82 ms a verification at 4 rows,
        55-60 ms usual) outweighed the probe that timed it again a trial later."""
        key = self.key(family, kind, batch, length)
        if key is None:
            return
        n = self.counts.get(key, 0)
        old = self.seconds.get(key, seconds)
        age = 0 if now is None else max(0, now - self.updated.get(key, now)) / CELL_AGE
        weight = 1.0 - (1.0 - self.weight) ** (1.0 + age)
        self.seconds[key] = seconds if n <= PROVISIONAL else old + weight * (seconds - old)
        self.counts[key] = n + 1
        if now is not None:
            self.updated[key] = now
        self.batches.setdefault((family, kind, key[3]), set()).add(batch)

    def thin(self, family: str, kind: str, batch: int, length: float) -> bool:
        """No cell at this length whose batch is within ``NEAR_BATCH`` of ``batch`` has more
        than its provisional first observation (integer lengths only)."""
        key = self.key(family, kind, batch, length)
        if key is None:
            return False
        return not any(self.counts[family, kind, b, key[3]] >= 2 and near_batch(b, batch)
                       for b in self.batches.get((family, kind, key[3]), ()))

    def get(self, family: str, kind: str, batch: int, length: float, min_obs: int) -> float | None:
        key = self.key(family, kind, batch, length)
        if min_obs < 1 or key is None or self.counts.get(key, 0) < min_obs:
            return None
        return self.seconds[key]

    def nearest(self, family: str, kind: str, batch: int, length: float, min_obs: int) -> tuple[int, float] | None:
        """(batch, seconds) of the measured cell at the same length whose batch is nearest
        ``batch`` in ratio, or None."""
        key = self.key(family, kind, batch, length)
        if min_obs < 1 or key is None:
            return None
        width = key[3]
        found = [(abs(math.log(b / batch)), b, self.seconds[family, kind, b, width])
                 for b in self.batches.get((family, kind, width), ()) if self.counts[family, kind, b, width] >= min_obs]
        return min(found)[1:] if found else None
