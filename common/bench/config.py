"""What one ``minedraft bench`` run measures, validated before anything is loaded."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..types import InvalidInputError
from ..validation import require_int, require_ints, require_number, require_out_dir

DEFAULT_TARGET = "smollm2"
DEFAULT_DRAFT = "smollm2-draft"
DEFAULT_IN_FLIGHT = (1, 2, 8, 16)
LANES = 2  # PSD's lanes (draft and target): its sub-batch b holds 2b requests on 2 x lane_threads cores


def usable_cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


@dataclass
class BenchConfig:
    target: Any = DEFAULT_TARGET
    draft: Any = DEFAULT_DRAFT
    backend: str = "reference"
    modes: tuple[str, ...] = ("ar", "sd", "psd")
    # The grid, keyed by load: requests in flight c per trial. AR and SD verify c requests
    # together, and so does flex (its max_batch_size caps both its sub-batches together);
    # PSD holds two sub-batches of c/2 (odd c is skipped for it). Every mode of a group
    # serves the same requests at the same load.
    # None and no batch_sizes: (1, 2, 8, 16).
    in_flight: tuple[int, ...] | None = None
    # The older grid: every mode at the same max_batch_size b (PSD then holds 2b, SD b).
    # Ratios still pair rows at equal requests in flight; unpaired ones are labelled.
    batch_sizes: tuple[int, ...] | None = None
    ks: tuple[int, ...] = (4,)
    repeats: int = 2
    requests_per_batch: int = 2  # requests per trial = this x c (in-flight grid) or x b (batch grid)
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
    # Intra-op threads of the inline modes (AR, SD) and the peers. None: as many as PSD's two
    # lanes use together (2 x lane_threads), so that every mode runs on equal cores. 1 with
    # lane_threads 1 gives PSD one more core than SD, as MineDraft gives it one more GPU;
    # the report then labels its ratios "unequal cores".
    sequential_threads: int | None = None
    lane_threads: int = 1  # intra-op threads per lane for the overlapping modes (PSD)
    peers: bool = True
    cooperative: bool = True
    calibrate: bool = True
    calibration_reps: int = 5
    # Calibrate again before every repetition (one calibration per repetition of the grid),
    # and predict each trial from the calibration just before it: the machine's speed drifts
    # over minutes on a shared host, and one calibration taken first missed the later
    # trials by 10-24% in two of three runs (docs/flex.md). Only with ``calibrate``.
    recalibrate: bool = True
    warmup: bool = True
    # Flex learns its costs online. Before its timed trials, one untimed full-length flex
    # trial per (b, k) lets the policy learn, as a long-running server does once; that
    # trial's tokens/s is still reported (flex_bar "cold"), so the learning cost stays visible.
    flex_learning: bool = True
    chat: bool = True  # wrap built-in prompts in the target's chat template
    # Which held-out prompts (minedraft.bench.prompt_classes): chat, text (raw-text completion,
    # never chat-templated) or code (raw code completion).
    prompt_class: str = "chat"
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
        if self.in_flight is not None and self.batch_sizes is not None:
            raise InvalidInputError(f"give in_flight or batch_sizes, not both; got in_flight={list(self.in_flight)!r} "
                                    f"and batch_sizes={list(self.batch_sizes)!r}")
        if self.in_flight is None and self.batch_sizes is None:
            self.in_flight = DEFAULT_IN_FLIGHT
        for name in ("in_flight", "batch_sizes", "ks"):
            values = getattr(self, name)
            if values is None:
                continue
            require_ints(name, values, 1)
            setattr(self, name, tuple(sorted(set(values))))
        if self.sequential_threads is None and isinstance(self.lane_threads, int) and self.lane_threads >= 1:
            self.sequential_threads = LANES * self.lane_threads
        for name in ("repeats", "requests_per_batch", "max_new_tokens", "calibration_reps", "lane_threads",
                     "sequential_threads",
                     "timeline_steps"):
            require_int(name, getattr(self, name), 1)
        require_number("temperature", self.temperature, 0)
        require_out_dir("out_dir", self.out_dir)
        require_number("max_new_tokens_spread", self.max_new_tokens_spread, 0, 1, high_open=True)
        if not self.modes:
            raise InvalidInputError("modes must name at least one mode, got []")
        from .prompt_classes import PROMPT_CLASSES

        if self.prompt_class not in PROMPT_CLASSES:
            raise InvalidInputError(f"prompt_class must be one of {list(PROMPT_CLASSES)}, got {self.prompt_class!r}")
        self._check_modes()
        if self.in_flight is not None and all(self.batch_for(m, c) is None for m in self.modes for c in self.in_flight):
            raise InvalidInputError(f"in_flight {list(self.in_flight)!r} gives no trial: modes {list(self.modes)!r} "
                                    "with two sub-batches need an even number of requests in flight")

    # -- the grid -----------------------------------------------------------------------------
    def batch_for(self, mode: str, group: int) -> int | None:
        """max_batch_size of ``mode`` in grid group ``group`` (requests in flight, or b);
        None when the mode cannot run there (PSD's two sub-batches of an odd number)."""
        if self.in_flight is None:
            return group
        from ..schedulers import SCHEDULERS

        per_batch = SCHEDULERS[mode].in_flight_per_batch  # PSD: two sub-batches of b
        return group // per_batch if group % per_batch == 0 else None

    @property
    def groups(self) -> tuple[int, ...]:
        return self.in_flight if self.in_flight is not None else self.batch_sizes

    @property
    def grid_batch_sizes(self) -> tuple[int, ...]:
        """Every max_batch_size some trial runs at (calibration, engine capacity)."""
        sizes = {self.batch_for(m, g) for m in self.modes for g in self.groups}
        if self.peers and 1 in self.groups:
            sizes.add(1)  # the peers run at batch 1
        return tuple(sorted(s for s in sizes if s is not None))

    @property
    def equal_cores(self) -> bool | None:
        """AR/SD threads equal to those of PSD's lanes together; None without a lane mode."""
        from ..schedulers import SCHEDULERS

        if not any(SCHEDULERS[m].overlapping for m in self.modes):
            return None
        return self.sequential_threads == LANES * self.lane_threads

    def _check_modes(self) -> None:
        from ..schedulers import SCHEDULERS

        unknown = [m for m in self.modes if m not in SCHEDULERS]
        if unknown:
            raise InvalidInputError(f"modes must be among {sorted(SCHEDULERS)}, got {unknown!r}")
        if len(set(self.modes)) != len(self.modes):
            raise InvalidInputError(f"modes must not repeat, got {list(self.modes)!r}")
        check_mode_options(self.modes, self.scheduler_options)

    def options_for(self, mode: str) -> dict[str, Any]:
        """The scheduler options that ``mode`` takes (a run's options may serve several modes)."""
        from ..schedulers import SCHEDULERS

        return SCHEDULERS[mode].options_class.taken_from(self.scheduler_options)

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
        out["grid_batch_sizes"] = list(self.grid_batch_sizes)
        out["equal_cores"] = self.equal_cores
        return out


PRESETS: dict[str, dict[str, Any]] = {
    # a minute or two on 2 CPU cores with the embedded pair
    "quick": dict(in_flight=(1, 2, 8), ks=(4,), repeats=1, max_new_tokens=32, calibration_reps=3),
    # the PSD issue's sweep: PSD (sub-batches 1..16) against SD at the same requests in flight, k in {2, 4, 6}
    "psd": dict(modes=("sd", "psd"), in_flight=(2, 8, 16, 32), ks=(2, 4, 6), repeats=1, max_new_tokens=32,
                peers=False),
}


def check_mode_options(modes: Sequence[str], options: Mapping[str, Any]) -> None:
    """Every option is taken by some mode of the run, and its value is one each mode that
    takes it accepts: checked before anything runs (a run of several modes must not fail
    after the first)."""
    from ..schedulers import SCHEDULERS

    for name, value in options.items():
        if not any(name in SCHEDULERS[m].options_class.field_names() for m in modes):
            raise InvalidInputError(f"{name} is not an option of any mode of this run {list(modes)!r}, "
                                    f"got {name}={value!r}")
    for mode in modes:  # the values, as each mode that takes them will see them
        SCHEDULERS[mode].options_class.build(mode, SCHEDULERS[mode].options_class.taken_from(options))
