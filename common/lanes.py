"""Execution lanes: where the drafter and the target run, so that PSD can overlap them.

A lane executes submitted callables in order and hands back futures. Engines never see
lanes; the PSD scheduler submits engine calls to them.

- ``inline``: run in the caller's thread (sequential SD, tests).
- ``threads``: one worker thread per lane. torch releases the GIL inside ops, so two
  model forwards on two CPU cores overlap (measured ~1.8x here for two 110M models).
  torch's intra-op thread count is process-global, so it is set once, to
  ``intra_op_threads``, before the lanes start, and restored when they close.
- ``cuda_streams``: worker threads that each issue their work on their own CUDA stream of
  one GPU and synchronise that stream before handing the result back.
- ``devices``: worker threads; the backend places draft and target on different devices
  (e.g. ``cuda:1`` and ``cuda:0``), so no stream juggling is needed.

These four names are the one lane vocabulary of every backend. Older spellings that users
could have typed (``sequential``, ``thread``, ``stream``, ``cuda_stream``) are accepted as
aliases by :func:`canonical_lane`.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

import torch

from .validation import InvalidInputError

LANE_KINDS = ("inline", "threads", "cuda_streams", "devices")
LANE_ALIASES = {"sequential": "inline", "thread": "threads", "stream": "cuda_streams", "cuda_stream": "cuda_streams"}


def canonical_lane(name: str, field: str = "lanes") -> str:
    """The canonical lane kind for ``name`` (an alias or a kind); ``field`` names it in errors."""
    key = name.strip().lower() if isinstance(name, str) else name
    kind = LANE_ALIASES.get(key, key)
    if kind not in LANE_KINDS:
        aliases = ", ".join(f"{a!r} for {k!r}" for a, k in LANE_ALIASES.items())
        raise InvalidInputError(f"{field} must be one of {LANE_KINDS} (or an alias: {aliases}), got {name!r}")
    return kind


def require_lanes_available(kind: str, field: str = "lanes") -> None:
    """Refuse a lane kind this machine cannot run (CUDA streams without CUDA), before
    anything is built on it."""
    if canonical_lane(kind, field) == "cuda_streams" and not torch.cuda.is_available():
        raise InvalidInputError(f"{field}='cuda_streams' needs CUDA, but torch.cuda.is_available() is False")


@dataclass
class BusyInterval:
    lane: str
    label: str
    start: float
    end: float


class Lane:
    """Base lane: runs work inline and records busy intervals for the trace."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.intervals: list[BusyInterval] = []
        self._lock = threading.Lock()

    def submit(self, label: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        self._run(future, label, fn, args, kwargs)
        return future

    def _run(self, future: Future, label: str, fn: Callable[..., Any], args: tuple, kwargs: dict) -> None:
        start = time.perf_counter()
        try:
            result = self._call(fn, args, kwargs)
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting scheduler
            future.set_exception(exc)
        else:
            future.set_result(result)
        finally:
            with self._lock:
                self.intervals.append(BusyInterval(self.name, label, start, time.perf_counter()))

    def _call(self, fn: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
        return fn(*args, **kwargs)

    def close(self) -> None:
        pass


class ThreadLane(Lane):
    """A lane with its own worker thread."""

    def __init__(self, name: str, stream: Any = None) -> None:
        super().__init__(name)
        self._stream = stream
        self._queue: queue.Queue = queue.Queue()
        self._thread = threading.Thread(target=self._loop, name=f"minedraft-{name}-lane", daemon=True)
        self._thread.start()

    def submit(self, label: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        if not self._thread.is_alive():
            future.set_exception(RuntimeError(f"lane {self.name!r} is closed"))
            return future
        self._queue.put((future, label, fn, args, kwargs))
        return future

    def _loop(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            self._run(*item)

    def _call(self, fn: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
        if self._stream is None:
            return fn(*args, **kwargs)
        with torch.cuda.stream(self._stream):
            result = fn(*args, **kwargs)
        # The consumer runs on another stream: make the results visible before handing them over.
        self._stream.synchronize()
        return result

    def close(self) -> None:
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join(timeout=30)


class LanePair:
    """The draft lane and the target lane of one scheduler."""

    def __init__(self, kind: str = "inline", intra_op_threads: int | None = None, device: str = "cuda") -> None:
        kind = canonical_lane(kind)
        self.kind = kind
        self._saved_threads: int | None = None
        if kind == "inline":
            self.draft: Lane = Lane("draft")
            self.target: Lane = Lane("target")
            return
        if intra_op_threads is not None:
            self._saved_threads = torch.get_num_threads()
            torch.set_num_threads(intra_op_threads)
        if kind == "cuda_streams":
            require_lanes_available(kind)
            self.draft = ThreadLane("draft", torch.cuda.Stream(device=device))
            self.target = ThreadLane("target", torch.cuda.Stream(device=device))
        else:
            self.draft = ThreadLane("draft")
            self.target = ThreadLane("target")

    @property
    def concurrent(self) -> bool:
        return self.kind != "inline"

    def intervals(self) -> list[BusyInterval]:
        return sorted(self.draft.intervals + self.target.intervals, key=lambda iv: iv.start)

    def close(self) -> None:
        self.draft.close()
        self.target.close()
        if self._saved_threads is not None:
            torch.set_num_threads(self._saved_threads)
            self._saved_threads = None
