"""One Chrome/Perfetto trace for a whole bench run (open in ui.perfetto.dev or
chrome://tracing): a process per trial of the last repetition, with a scheduler track (one
slice per step, its StepRecord as arguments) and a track per lane (busy intervals)."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from ..trace import Trace

_TIDS = {"scheduler": 0, "draft": 1, "target": 2}


def chrome_events(traces: dict[tuple[str, int, int], Trace], origin: float) -> list[dict]:
    events: list[dict] = []
    for pid, ((mode, b, k), trace) in enumerate(sorted(traces.items(), key=lambda kv: _first(kv[1]))):
        events.append({"name": "process_name", "ph": "M", "pid": pid, "tid": 0,
                       "args": {"name": f"{mode} b={b} k={k}"}})
        for name, tid in _TIDS.items():
            events.append({"name": "thread_name", "ph": "M", "pid": pid, "tid": tid, "args": {"name": f"{name} lane"}})
        for s in trace.steps:
            events.append({
                "name": f"step {s.step}" + (" (overlapped)" if s.overlapped else ""), "ph": "X", "pid": pid,
                "tid": 0, "ts": (s.start - origin) * 1e6, "dur": s.duration * 1e6,
                "args": {key: v for key, v in asdict(s).items() if key not in ("start", "end")},
            })
        for iv in trace.intervals:
            events.append({"name": iv.label, "ph": "X", "pid": pid, "tid": _TIDS.get(iv.lane, 3),
                           "ts": (iv.start - origin) * 1e6, "dur": (iv.end - iv.start) * 1e6})
    return events


def _first(trace: Trace) -> float:
    return min([s.start for s in trace.steps] + [iv.start for iv in trace.intervals] + [float("inf")])


def write_chrome(traces: dict[tuple[str, int, int], Trace], path: str | Path, origin: float) -> None:
    Path(path).write_text(json.dumps({"traceEvents": chrome_events(traces, origin), "displayTimeUnit": "ms"}))
