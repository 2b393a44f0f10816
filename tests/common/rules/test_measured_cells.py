"""Flex's measured seconds per step shape."""

from __future__ import annotations

import pytest

from minedraft.rules.measured_cells import CELL_AGE, MeasuredCells


def test_a_cell_left_alone_for_long_takes_a_new_observation_at_more_weight():
    """Machine speed drifts over minutes: every ``CELL_AGE`` decisions without an update age a
    cell's value by one more observation, so a probe a trial later mostly replaces it."""
    cells = MeasuredCells(weight=0.3)
    for _ in range(2):
        cells.add("sequential", "verify", 4, 2.0, 0.0825, 0)
    cells.add("sequential", "verify", 4, 2.0, 0.055, 0)  # in the same decision: weight 0.3
    assert cells.seconds["sequential", "verify", 4, 2] == pytest.approx(0.0825 + 0.3 * (0.055 - 0.0825))
    before = cells.seconds["sequential", "verify", 4, 2]
    cells.add("sequential", "verify", 4, 2.0, 0.055, 5 * CELL_AGE)  # five ages later: 1 - 0.7^6
    assert cells.seconds["sequential", "verify", 4, 2] == pytest.approx(before + (1 - 0.7**6) * (0.055 - before))
    untimed = MeasuredCells(weight=0.3)
    for _ in range(3):
        untimed.add("sequential", "verify", 4, 2.0, 0.0825)
    untimed.add("sequential", "verify", 4, 2.0, 0.055)  # no clock: the plain running average
    assert untimed.seconds["sequential", "verify", 4, 2] == pytest.approx(0.0825 + 0.3 * (0.055 - 0.0825))
