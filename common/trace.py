"""Per-step traces: what ran where and when, and what it produced.

The benchmark turns these into tables, lane timelines and a Chrome/Perfetto trace.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .lanes import BusyInterval


@dataclass
class StepRecord:
    step: int
    mode: str  # "ar", "sd", "psd", ...
    start: float
    end: float
    overlapped: bool = False  # drafting of one sub-batch ran during verification of the other
    verify_group: int = 0  # sub-batch verified this step (0 or 1; 0 for non-PSD)
    verify_batch: int = 0  # requests verified
    draft_batch: int = 0  # requests drafted this step (on the draft lane)
    proposed: int = 0  # draft tokens verified
    verify_width: int = 0  # longest draft verified: the target scored [verify_batch, verify_width + 1]
    verify_context: int = 0  # longest committed sequence verified (prompt + output tokens, before the draft)
    draft_context: int = 0  # longest committed sequence drafted for
    accepted: int = 0  # draft tokens accepted
    emitted: int = 0  # tokens committed (accepted + recovered/bonus, after stop truncation)
    draft_time: float = 0.0  # seconds the draft lane was busy for this step
    verify_time: float = 0.0  # seconds the target lane was busy for this step
    k: int = 0
    bytes_crossed: int = 0  # bytes handed from one lane to the other (cooperative verification)
    running: int = 0  # sequences in flight: both sub-batches under PSD, particles under SMC (0: not recorded)
    # The draft lane also fed context the drafter had not seen (a prompt, or tokens committed
    # while it idled): its draft time is partly a prefill, not drafting.
    draft_prefill: bool = False

    @property
    def duration(self) -> float:
        return self.end - self.start


@dataclass
class Trace:
    steps: list[StepRecord] = field(default_factory=list)
    intervals: list[BusyInterval] = field(default_factory=list)

    def add(self, record: StepRecord) -> None:
        self.steps.append(record)

    def summary(self) -> dict[str, float]:
        steps = self.steps
        if not steps:
            return {"steps": 0}
        proposed = sum(s.proposed for s in steps)
        accepted = sum(s.accepted for s in steps)
        verified = sum(s.verify_batch for s in steps)
        return {
            "steps": len(steps),
            "overlapped_share": sum(s.overlapped for s in steps) / len(steps),
            "acceptance_rate": accepted / proposed if proposed else 0.0,
            "tokens_per_target_step": sum(s.emitted for s in steps) / verified if verified else 0.0,
            "mean_step_time": sum(s.duration for s in steps) / len(steps),
            "mean_draft_time": sum(s.draft_time for s in steps) / len(steps),
            "mean_verify_time": sum(s.verify_time for s in steps) / len(steps),
            "bytes_crossed": float(sum(s.bytes_crossed for s in steps)),
        }

    def to_chrome(self, path: str | Path, origin: float | None = None) -> None:
        """Write a Chrome/Perfetto trace (open in ui.perfetto.dev or chrome://tracing)."""
        t0 = origin if origin is not None else min([s.start for s in self.steps] + [i.start for i in self.intervals] + [0.0])
        lanes = {"draft": 1, "target": 2, "scheduler": 0}
        events: list[dict] = []
        for s in self.steps:
            events.append(
                {
                    "name": f"{s.mode} step {s.step}",
                    "ph": "X",
                    "pid": 0,
                    "tid": 0,
                    "ts": (s.start - t0) * 1e6,
                    "dur": s.duration * 1e6,
                    "args": {k: v for k, v in asdict(s).items() if k not in ("start", "end")},
                }
            )
        for iv in self.intervals:
            events.append(
                {
                    "name": iv.label,
                    "ph": "X",
                    "pid": 0,
                    "tid": lanes.get(iv.lane, 3),
                    "ts": (iv.start - t0) * 1e6,
                    "dur": (iv.end - iv.start) * 1e6,
                }
            )
        meta = [
            {"name": "thread_name", "ph": "M", "pid": 0, "tid": tid, "args": {"name": f"{name} lane"}}
            for name, tid in lanes.items()
        ]
        Path(path).write_text(json.dumps({"traceEvents": meta + events}))
