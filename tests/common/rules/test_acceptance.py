"""Flex's acceptance estimates: per-request rates shrunk towards a global one."""

from __future__ import annotations

import random

import pytest

from minedraft.rules.acceptance import AcceptanceTracker, RequestObservation, expected_forwards
from minedraft.rules.cost_model import expected_tokens


def test_acceptance_estimate_recovers_alpha_and_shrinks_per_request():
    rng = random.Random(0)
    tracker = AcceptanceTracker(decay=1.0, prior_alpha=0.5, prior_weight=4.0)
    for _ in range(400):
        items = []
        for rid, alpha in (("good", 0.9), ("bad", 0.2)):
            n = 0
            while n < 4 and rng.random() < alpha:
                n += 1
            items.append(RequestObservation(rid, verified=4, accepted=n))
        tracker.observe(items)
    assert tracker.alpha("good") == pytest.approx(0.9, abs=0.03)
    assert tracker.alpha("bad") == pytest.approx(0.2, abs=0.03)
    assert tracker.alpha("bad") < tracker.alpha() < tracker.alpha("good")  # global in between
    assert tracker.alpha("new") == tracker.alpha()  # unseen requests start at the global estimate
    tracker.forget("good")
    assert tracker.alpha("good") == tracker.alpha()


def test_the_global_acceptance_window_counts_verifications_not_steps():
    """A run of good drafts, then 32 rejected verifications: as 32 steps of one request or
    as one step of 32 requests, the global estimate ends the same with a window (64
    verifications), while decayed once per step one request's 32 rejections wipe out the
    good run (about 10 verifications remembered at 1 in flight) and one step of 32 hardly
    dents it."""
    def after(window: float | None, per_step: int) -> float:
        tracker = AcceptanceTracker(decay=0.9, global_window=window)
        for i in range(256 // per_step):
            tracker.observe([RequestObservation(f"g{i}-{j}", 4, 4) for j in range(per_step)])
        for i in range(32 // per_step):
            tracker.observe([RequestObservation(f"b{i}-{j}", 4, 0) for j in range(per_step)])
        return tracker.alpha()

    assert after(64, 1) == pytest.approx(after(64, 32), abs=0.02)
    assert 0.75 < after(64, 1) < 0.9
    assert after(None, 1) < 0.3 and after(None, 32) > 0.75


def test_confidence_stops_shorten_the_modelled_drafts():
    tracker = AcceptanceTracker(decay=1.0)
    for _ in range(100):  # asked for 6, stopped after 2: continuation gamma = 1 / 2
        tracker.observe([RequestObservation("r", verified=2, accepted=2, requested=6, drafted=2)])
    gamma = tracker.gamma("r")
    assert gamma == pytest.approx(0.5, abs=0.02)
    assert tracker.gamma("other") < 1.0 and AcceptanceTracker().gamma("x") == 1.0
    one = expected_forwards([gamma], 6)
    assert one == pytest.approx(sum(gamma**j for j in range(6)))  # one request: its expected length
    many = expected_forwards([gamma] * 16, 6)
    assert one < many < 6  # a batch drafts (and is verified) until its longest stops
    # Fewer expected tokens and less verify work than with the same cap and no stop.
    assert expected_tokens(0.8, 6, gamma) < expected_tokens(0.8, 6, 1.0)
