"""PSD bookkeeping for engines that hand a worker one running batch per call.

Serving engines such as SGLang call their speculative worker once per step with the whole
running batch, and expect at least one new token for every request of it. PSD fits
inside such a call (see ``minedraft.schedulers.psd`` for the scheduler-driven form):

1. split the batch into two sub-batches, ``first`` and ``second``;
2. verify ``first`` (drafts made during the previous call) while drafting ``second``;
3. verify ``second`` while drafting ``first`` again, for the next call;
4. keep those drafts, keyed by request, until the next call.

This module holds the backend-neutral part: which rows go where (``plan_split``) and the
per-request draft store (``DraftStore``). A stored draft is stamped with the committed
length it was drafted from; when a request comes back with another committed length
(it was verified by a non-PSD path, retracted and re-prefilled, ...), its draft is stale
and is dropped, never verified. Drafts therefore always condition on the committed
prefix, which keeps PSD lossless. Payloads are opaque: a backend stores whatever it needs
to rebuild a verify input (token tensors, lists of ids).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from .types import InvalidInputError

P = TypeVar("P")


@dataclass
class _Entry(Generic[P]):
    stamp: int
    payload: P


@dataclass
class StoreStats:
    stored: int = 0
    reused: int = 0  # drafts handed back for verification
    stale: int = 0  # dropped because the committed length moved
    evicted: int = 0  # dropped because the request left the running batch


class DraftStore(Generic[P]):
    """Drafts kept between steps: request key -> (committed length, payload)."""

    def __init__(self) -> None:
        self._entries: dict[Hashable, _Entry[P]] = {}
        self.stats = StoreStats()

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._entries

    def keys(self) -> list[Hashable]:
        return list(self._entries)

    def put(self, key: Hashable, stamp: int, payload: P) -> None:
        if not isinstance(stamp, int) or stamp < 0:
            raise InvalidInputError(f"DraftStore stamp must be an int >= 0, got {stamp!r}")
        self._entries[key] = _Entry(stamp, payload)
        self.stats.stored += 1

    def valid(self, key: Hashable, stamp: int) -> bool:
        """True if ``key`` holds a draft made from exactly ``stamp`` committed tokens.
        A stale entry is dropped on the spot."""
        entry = self._entries.get(key)
        if entry is None:
            return False
        if entry.stamp != stamp:
            del self._entries[key]
            self.stats.stale += 1
            return False
        return True

    def take(self, key: Hashable, stamp: int) -> P | None:
        """Remove and return the draft of ``key`` if it is valid for ``stamp``."""
        if not self.valid(key, stamp):
            return None
        self.stats.reused += 1
        return self._entries.pop(key).payload

    def discard(self, key: Hashable) -> None:
        self._entries.pop(key, None)

    def retain(self, keys: Iterable[Hashable]) -> int:
        """Drop every entry whose key is not in ``keys``; returns how many were dropped."""
        keep = set(keys)
        gone = [k for k in self._entries if k not in keep]
        for k in gone:
            del self._entries[k]
        self.stats.evicted += len(gone)
        return len(gone)

    def clear(self) -> None:
        self.stats.evicted += len(self._entries)
        self._entries.clear()


@dataclass(frozen=True)
class SplitPlan:
    """How one call splits its batch. All lists hold row indices of the batch, ascending.

    ``first`` is verified first; ``draft_first`` (a subset of it) has no valid stored
    draft and is drafted sequentially before that verification (cold start, newcomers
    pulled in for balance). ``second`` is verified next; ``draft_second`` (a subset of
    it) is drafted concurrently with the verification of ``first``. Rows of either
    sub-batch outside those subsets are verified with their stored drafts.
    """

    first: list[int]
    second: list[int]
    draft_first: list[int] = field(default_factory=list)
    draft_second: list[int] = field(default_factory=list)

    @property
    def overlapped(self) -> bool:
        """Whether drafting overlaps verification in this call (both sub-batches non-empty)."""
        return bool(self.first) and bool(self.second)

    @property
    def stored_rows(self) -> list[int]:
        """Rows verified with a draft taken from the store."""
        fresh = set(self.draft_first) | set(self.draft_second)
        return sorted(r for r in self.first + self.second if r not in fresh)


def plan_split(
    keys: Sequence[Hashable],
    stamps: Sequence[int],
    store: DraftStore,
    *,
    slack: int = 1,
    evict_missing: bool = True,
) -> SplitPlan:
    """Split a running batch for one PSD call.

    ``first`` aims at ceil(n / 2) rows and is filled with the rows that have a valid
    stored draft (MineDraft's rule: a sub-batch keeps its role, no draft is wasted).
    When fewer than that have one, the sub-batches are left unbalanced by up to
    ``slack`` rows; past that, rows without a draft are pulled into ``first`` and drafted
    sequentially, so that a cold batch does not stay a plain SD step for ever. Surplus
    rows with stored drafts go to ``second`` and keep their drafts.

    With ``evict_missing``, drafts of requests absent from ``keys`` are dropped (the
    request finished or was retracted). Pass False for batches that do not carry the
    whole running set.
    """
    if len(keys) != len(stamps):
        raise InvalidInputError(f"plan_split got {len(keys)} keys but {len(stamps)} stamps")
    if len(set(keys)) != len(keys):
        raise InvalidInputError(f"plan_split keys must be unique, got {list(keys)!r}")
    if not isinstance(slack, int) or slack < 0:
        raise InvalidInputError(f"slack must be an int >= 0, got {slack!r}")
    if evict_missing:
        store.retain(keys)
    n = len(keys)
    stored = [i for i in range(n) if store.valid(keys[i], stamps[i])]
    missing = [i for i in range(n) if i not in set(stored)]
    target = (n + 1) // 2
    if len(stored) >= target:
        first = stored[:target]
        pulled: list[int] = []
    else:
        deficit = target - len(stored)
        pulled = missing[:deficit] if (deficit > slack or not stored) else []
        first = sorted(stored + pulled)
    in_first = set(first)
    second = [i for i in range(n) if i not in in_first]
    draft_second = [i for i in second if i in set(missing)]
    return SplitPlan(first=first, second=second, draft_first=sorted(pulled), draft_second=draft_second)
