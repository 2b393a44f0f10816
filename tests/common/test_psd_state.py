"""PSD bookkeeping for per-call engines: the split rule and the stamped draft store."""

from __future__ import annotations

import pytest

from minedraft.psd_state import DraftStore, SplitPlan, plan_split
from minedraft.types import InvalidInputError


def _store(entries: dict[str, int]) -> DraftStore:
    store: DraftStore = DraftStore()
    for key, stamp in entries.items():
        store.put(key, stamp, f"draft-of-{key}")
    return store


def test_cold_batch_is_halved_and_first_half_drafted_sequentially():
    plan = plan_split(["a", "b", "c", "d", "e"], [5, 6, 7, 8, 9], DraftStore())
    assert plan.first == [0, 1, 2] and plan.second == [3, 4]
    assert plan.draft_first == [0, 1, 2] and plan.draft_second == [3, 4]
    assert plan.overlapped and plan.stored_rows == []


def test_steady_state_needs_no_sequential_draft():
    # b and d were drafted during the previous call from their current committed lengths.
    store = _store({"b": 11, "d": 13})
    plan = plan_split(["a", "b", "c", "d"], [10, 11, 12, 13], store)
    assert plan == SplitPlan(first=[1, 3], second=[0, 2], draft_first=[], draft_second=[0, 2])
    assert plan.stored_rows == [1, 3]


def test_stale_draft_is_dropped_and_never_reused():
    store = _store({"a": 10, "b": 11})
    # a committed two more tokens outside PSD (e.g. a fallback step): its draft is stale.
    plan = plan_split(["a", "b"], [12, 11], store)
    assert plan.first == [1] and plan.second == [0] and plan.draft_second == [0]
    assert "a" not in store and store.stats.stale == 1
    assert store.take("b", 11) == "draft-of-b" and store.take("b", 11) is None


def test_requests_that_left_the_batch_are_evicted_unless_told_otherwise():
    store = _store({"gone": 3, "b": 4})
    plan_split(["b"], [4], store, evict_missing=False)
    assert "gone" in store
    plan_split(["b"], [4], store)
    assert "gone" not in store and store.stats.evicted == 1


def test_small_imbalance_within_slack_avoids_a_sequential_draft():
    keys = [f"r{i}" for i in range(8)]
    stamps = list(range(8))
    store = _store({keys[i]: i for i in (0, 2, 4)})  # 3 stored, target 4: deficit 1
    plan = plan_split(keys, stamps, store, slack=1)
    assert plan.first == [0, 2, 4] and plan.draft_first == []
    assert plan.draft_second == [1, 3, 5, 6, 7]
    # A deficit past the slack pulls rows without drafts into `first`.
    store = _store({keys[i]: i for i in (0, 2)})  # deficit 2 > slack 1
    plan = plan_split(keys, stamps, store, slack=1)
    assert plan.first == [0, 1, 2, 3] and plan.draft_first == [1, 3]


def test_surplus_stored_rows_move_to_second_with_their_drafts():
    keys = ["a", "b", "c", "d"]
    store = _store({"a": 1, "b": 2, "c": 3, "d": 4})
    plan = plan_split(keys, [1, 2, 3, 4], store)
    assert plan.first == [0, 1] and plan.second == [2, 3]
    assert plan.draft_first == [] and plan.draft_second == []
    assert plan.stored_rows == [0, 1, 2, 3]


def test_single_request_is_a_plain_speculative_step():
    plan = plan_split(["only"], [7], DraftStore())
    assert plan.first == [0] and plan.second == [] and plan.draft_first == [0]
    assert not plan.overlapped
    assert plan_split([], [], DraftStore()) == SplitPlan([], [])


def test_every_row_lands_in_exactly_one_sub_batch():
    keys = [f"r{i}" for i in range(9)]
    store = _store({keys[i]: i for i in (1, 5, 6, 8)})
    plan = plan_split(keys, list(range(9)), store, slack=0)
    assert sorted(plan.first + plan.second) == list(range(9))
    assert not set(plan.first) & set(plan.second)
    assert set(plan.draft_first) <= set(plan.first) and set(plan.draft_second) <= set(plan.second)
    assert len(plan.first) - len(plan.second) in (0, 1)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(keys=["a", "a"], stamps=[1, 2]), "unique"),
        (dict(keys=["a"], stamps=[1, 2]), "stamps"),
        (dict(keys=["a"], stamps=[1], slack=-1), "slack"),
    ],
)
def test_bad_input_names_the_field(kwargs, message):
    with pytest.raises(InvalidInputError, match=message):
        plan_split(store=DraftStore(), **kwargs)


def test_store_rejects_bad_stamp_without_storing():
    store: DraftStore = DraftStore()
    with pytest.raises(InvalidInputError, match="stamp"):
        store.put("a", -1, "x")
    assert len(store) == 0
