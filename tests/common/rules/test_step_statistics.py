"""Flex's per (mode, batch-size bucket) statistics of clean steps."""

from __future__ import annotations

import math

import pytest

from minedraft.rules.step_statistics import StepStatistics, batch_bucket


def test_batch_sizes_share_a_bucket_per_power_of_two():
    assert [batch_bucket(n) for n in (0, 1, 2, 3, 4, 7, 8, 31, 32)] == [1, 1, 2, 2, 3, 3, 4, 5, 6]


def test_realized_ratio_noise_and_rate_are_decayed_sums_of_the_steps():
    stats, key = StepStatistics(weight=0.5, stale_after=64), ("sd", 2)
    assert stats.realized_ratio(key) == 1.0 and stats.noise(key) == 0.0 and stats.weight_sq(key) == 1.0
    stats.observe(key, 1, expected_seconds=0.1, seconds=0.2, tokens=4)
    stats.observe(key, 2, expected_seconds=0.1, seconds=0.1, tokens=2)
    # predicted 0.05 -> 0.075, measured 0.1 -> 0.1: a ratio of sums, not a mean of ratios
    assert stats.realized_ratio(key) == pytest.approx(0.075 / 0.1)
    r = math.log(2.0)  # log ratios log 2 then 0, the moments starting from the first
    m1, m2 = r + 0.5 * (0 - r), r * r + 0.5 * (0 - r * r)
    assert stats.noise(key) == pytest.approx(math.sqrt(m2 - m1 * m1))
    assert stats.weight_sq(key) == pytest.approx(0.25 * 1.0 + 0.25)
    # tokens 4 -> 3.6, seconds 0.2 -> 0.18 at RATE_WEIGHT 0.2
    assert stats.measured_rate(key, 2) == pytest.approx(3.6 / 0.18)
    assert stats.realized_ratio(("ar", 2)) == 1.0  # another key is untouched


def test_a_stale_key_restarts_from_no_correction_and_its_rate_expires():
    stats, key = StepStatistics(weight=0.2, stale_after=8), ("ar", 3)
    for now in range(1, 6):
        stats.observe(key, now, expected_seconds=0.05, seconds=0.15, tokens=4)  # 3x over
    assert stats.realized_ratio(key) < 0.5 and stats.measured_rate(key, 5 + 8) is not None
    assert stats.measured_rate(key, 5 + 9) is None  # not stepped for more than stale_after
    stats.observe(key, 5 + 8, expected_seconds=0.05, seconds=0.075, tokens=4)  # 1.5x over
    # afresh: predicted = measured = 0.05 as the prior step, then this one at weight 0.2
    assert stats.realized_ratio(key) == pytest.approx(0.05 / (0.05 + 0.2 * 0.025))
    assert stats.noise(key) == 0.0 and stats.weight_sq(key) == 1.0
    assert stats.measured_rate(key, 13) == pytest.approx(4 / 0.075)


def test_weight_zero_keeps_no_correction_but_still_measures_the_rate():
    stats, key = StepStatistics(weight=0.0, stale_after=64), ("psd", 4)
    stats.observe(key, 1, expected_seconds=0.1, seconds=0.3, tokens=6)
    assert stats.realized_ratio(key) == 1.0 and stats.measured_rate(key, 1) == pytest.approx(20.0)
