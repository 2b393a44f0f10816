"""What one ``minedraft bench`` run measures, validated before anything is loaded."""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field
from typing import Any

from ..types import InvalidInputError
from ..validation import require_int, require_ints, require_number

DEFAULT_TARGET = "smollm2"
DEFAULT_DRAFT = "smollm2-draft"


def usable_cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


@dataclass
class BenchConfig:
    target: Any = DEFAULT_TARGET
    draft: Any = DEFAULT_DRAFT
    backend: str = "reference"
    modes: tuple[str, ...] = ("ar", "sd", "psd")
    batch_sizes: tuple[int, ...] = (1, 4, 8)  # requests per verification (per sub-batch under PSD)
    ks: tuple[int, ...] = (4,)
    repeats: int = 2
    requests_per_batch: int = 2  # requests per trial = this x batch size (PSD fills both sub-batches)
    max_new_tokens: int = 64
    # Output lengths drawn per request from [N (1 - s), N (1 + s)] (like vLLM's random dataset's
    # range ratio); 0: every request asks for exactly N, so AR's requests finish together.
    max_new_tokens_spread: float = 0.0
    temperature: float = 0.0
    seed: int = 0
    dtype: str = "auto"
    device: str = "cpu"
    draft_device: str | None = None
    allow_pickle: bool = False
    trust_remote_code: bool = False
    # Intra-op threads of the inline modes (AR, SD) and the peers. 1 by default, like each PSD
    # lane: PSD then uses one more core than SD, as MineDraft uses one more GPU. 2 gives SD
    # the same cores as PSD, but on a shared machine OpenMP threads that wait for a
    # preempted sibling make every step several times slower (docs/benchmarks.md).
    sequential_threads: int = 1
    lane_threads: int = 1  # intra-op threads per lane for the overlapping modes (PSD)
    peers: bool = True
    cooperative: bool = True
    calibrate: bool = True
    calibration_reps: int = 5
    warmup: bool = True
    # Flex learns its costs online. Before its timed trials, one untimed full-length flex
    # trial per (b, k) lets the policy learn, as a long-running server does once; that
    # trial's tokens/s is still reported (flex_bar "cold"), so the learning cost stays visible.
    flex_learning: bool = True
    chat: bool = True  # wrap built-in prompts in the target's chat template
    keep_steps: bool = True  # per-step columns in the results file
    timeline_batch: int | None = None
    timeline_steps: int = 6
    out_dir: str = "minedraft-bench"
    label: str | None = None
    progress: bool = True
    preset: str = "default"
    scheduler_options: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.modes = tuple(self.modes)
        self.batch_sizes = tuple(sorted(set(self.batch_sizes)))
        self.ks = tuple(sorted(set(self.ks)))
        for name in ("batch_sizes", "ks"):
            require_ints(name, getattr(self, name), 1)
        for name in ("repeats", "requests_per_batch", "max_new_tokens", "calibration_reps", "lane_threads",
                     "sequential_threads",
                     "timeline_steps"):
            require_int(name, getattr(self, name), 1)
        require_number("temperature", self.temperature, 0)
        require_number("max_new_tokens_spread", self.max_new_tokens_spread, 0, 1, high_open=True)
        if not self.modes:
            raise InvalidInputError("modes must name at least one mode, got []")
        self._check_modes()

    def _check_modes(self) -> None:
        from ..schedulers import SCHEDULERS

        unknown = [m for m in self.modes if m not in SCHEDULERS]
        if unknown:
            raise InvalidInputError(f"modes must be among {sorted(SCHEDULERS)}, got {unknown!r}")
        if len(set(self.modes)) != len(self.modes):
            raise InvalidInputError(f"modes must not repeat, got {list(self.modes)!r}")
        for name, value in self.scheduler_options.items():
            if not any(name in SCHEDULERS[m].options_class.field_names() for m in self.modes):
                raise InvalidInputError(f"{name} is not an option of any mode of this run {list(self.modes)!r}, "
                                        f"got {name}={value!r}")
        for mode in self.modes:  # the values, as each mode that takes them will see them
            SCHEDULERS[mode].options_class.build(mode, self.options_for(mode))

    def options_for(self, mode: str) -> dict[str, Any]:
        """The scheduler options that ``mode`` takes (a run's options may serve several modes)."""
        from ..schedulers import SCHEDULERS

        names = SCHEDULERS[mode].options_class.field_names()
        return {k: v for k, v in self.scheduler_options.items() if k in names}

    @property
    def needs_draft(self) -> bool:
        from ..schedulers import SCHEDULERS

        return any(SCHEDULERS[m].needs_drafter for m in self.modes)

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        for key in ("target", "draft"):
            if out[key] is not None and not isinstance(out[key], str):
                out[key] = type(out[key]).__name__  # an in-memory model
        out["usable_cores"] = usable_cores()
        return out


PRESETS: dict[str, dict[str, Any]] = {
    # about a minute on 2 CPU cores with the embedded pair
    "quick": dict(batch_sizes=(1, 4), ks=(4,), repeats=1, max_new_tokens=32, calibration_reps=3),
    # the PSD issue's sweep: PSD against SD at sub-batch sizes 1..16 and k in {2, 4, 6}
    "psd": dict(modes=("sd", "psd"), batch_sizes=(1, 4, 8, 16), ks=(2, 4, 6), repeats=1, max_new_tokens=32,
                peers=False),
}
