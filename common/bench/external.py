"""Results of another serving engine in the bench's schema, for ``minedraft compare``.

A backend that is not driven by ``minedraft bench`` (SGLang's own scheduler, a TensorRT-LLM
executor) measures its trials itself and hands them here as :class:`ExternalTrial` records;
:func:`results_document` turns them into a results document that ``schema.validate``
accepts, with the bench's vocabulary and conventions:

- modes by what they schedule: an engine's plain decoding is ``ar`` (k = 0), its serial
  speculative decoding ``sd``, MineDraft ``psd`` (see ``ENGINE_MODES`` for SGLang's names);
- ``concurrency`` is the requests in flight; ``batch_size`` is what one verification
  holds: all of them for ``ar``/``sd``, one sub-batch (concurrency / 2) for ``psd``;
- rows are medians over the repetitions of one (mode, batch_size, k) (``metrics.result_rows``),
  and every ratio is paired at equal requests in flight (``analysis.ratios``).

Nothing here imports an engine: the records are plain numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..types import InvalidInputError
from . import analysis, schema
from .metrics import result_rows, trial_metrics

# An engine's name for a decoding algorithm -> the bench's mode.
ENGINE_MODES: dict[str, str] = {"AR": "ar", "NONE": "ar", "STANDALONE": "sd", "MINEDRAFT": "psd"}
_SPLITS = {"ar": 1, "sd": 1, "psd": 2}  # sub-batches the requests in flight are split into


@dataclass
class ExternalTrial:
    """One timed round of one engine configuration: ``concurrency`` requests in flight."""

    mode: str  # the bench's mode (ar, sd, psd) or an engine's name from ENGINE_MODES
    k: int  # draft tokens per request per round (0 for ar)
    concurrency: int  # requests in flight
    rep: int  # repetition index
    token_counts: Sequence[int]  # output tokens per request
    latencies: Sequence[float]  # s, per request, from the round's start
    ttfts: Sequence[float]  # s, per request, from the round's start
    wall_time: float  # s, the round
    threads_total: int | None = None  # intra-op threads in use in total
    lanes: str = "inline"  # the draft lane (bench vocabulary: inline, threads, cuda_streams)
    proposed: int | None = None  # draft tokens proposed in the round (None: not reported)
    accepted: int | None = None  # of which accepted
    errors: int = 0
    extra: Mapping[str, Any] = field(default_factory=dict)  # kept under the trial's "engine"


def _mode(name: str) -> str:
    mode = ENGINE_MODES.get(name.upper(), name.lower())
    if mode not in _SPLITS:
        raise InvalidInputError(f"trial mode must be one of {sorted(_SPLITS)} or {sorted(ENGINE_MODES)}, got {name!r}")
    return mode


def trial_record(trial: ExternalTrial, order: int) -> dict[str, Any]:
    """One trial in the schema's ``TRIAL`` form."""
    mode = _mode(trial.mode)
    if trial.concurrency < 1 or trial.concurrency % _SPLITS[mode]:
        raise InvalidInputError(f"trial concurrency must be a positive multiple of {_SPLITS[mode]} for {mode}, "
                                f"got {trial.concurrency!r}")
    if (mode == "ar") != (trial.k == 0) or trial.k < 0:
        raise InvalidInputError(f"trial k must be 0 for ar and positive otherwise, got k={trial.k!r} for {mode}")
    if not (len(trial.token_counts) == len(trial.latencies) == len(trial.ttfts) > 0):
        raise InvalidInputError("trial token_counts, latencies and ttfts must be non-empty and of one length, got "
                                f"{len(trial.token_counts)}, {len(trial.latencies)}, {len(trial.ttfts)}")
    record: dict[str, Any] = {
        "mode": mode, "kind": "scheduler", "batch_size": trial.concurrency // _SPLITS[mode], "k": trial.k,
        "concurrency": trial.concurrency, "rep": trial.rep, "order": order, "num_requests": len(trial.token_counts),
        "lanes": trial.lanes, "intra_op_threads": None, "threads_total": trial.threads_total,
        "matches_reference": None, "errors": trial.errors, "engine": dict(trial.extra),
    }
    record.update(trial_metrics(None, trial.token_counts, trial.latencies, trial.ttfts, [], trial.wall_time))
    if trial.proposed:
        record["acceptance_rate"] = (trial.accepted or 0) / trial.proposed
    return record


def results_document(trials: Sequence[ExternalTrial], *, backend: str, label: str, command: str,
                     engines: Mapping[str, Any], config: Mapping[str, Any] | None = None,
                     notes: Sequence[str] = (), created: str | None = None) -> dict[str, Any]:
    """A validated results document from an engine's own trials (no cost model: no
    calibration ran)."""
    if not trials:
        raise InvalidInputError("results_document needs at least one trial, got none")
    records = [trial_record(t, i) for i, t in enumerate(trials)]
    rows = result_rows(records)
    results: dict[str, Any] = {
        "schema": schema.SCHEMA_NAME, "schema_version": schema.SCHEMA_VERSION, "created": created or schema.now_iso(),
        "label": label, "command": command, "hardware": schema.hardware_info(), "versions": schema.versions_info(),
        "config": {"backend": backend, **(config or {})}, "engines": dict(engines),
        "conditions": {"loadavg_end": schema.loadavg()}, "trials": records, "results": rows, "cost_model": None,
        "cooperative_verification": None, "files": {}, "notes": list(notes),
    }
    results["ratios"] = analysis.ratios(rows)
    return schema.validate(results)
