"""Server arguments and environment options of ``--speculative-algorithm MINEDRAFT``.

Nothing here imports SGLang: the rules read plain attributes, so they run on SGLang's
``ServerArgs``, on the recorder SGLang hands to plugin hooks, or on a namespace in tests.

SGLang runs a plugin algorithm's hooks in this order while resolving server arguments:
``validate_server_args`` (reject bad combinations, change nothing), then
``handle_server_args`` (fill in defaults; attribute writes are recorded by SGLang).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from minedraft.lanes import canonical_lane
from minedraft.types import InvalidInputError

logger = logging.getLogger(__name__)

ALGORITHM = "MINEDRAFT"
# SGLang releases whose worker internals this adapter was written and tested against.
SUPPORTED_SGLANG_VERSIONS = ("0.5.23",)
ENV_ALLOW_UNTESTED = "MINEDRAFT_SGLANG_ALLOW_UNTESTED"
ENV_LANES = "MINEDRAFT_SGLANG_LANES"
ENV_DRAFT_DEVICE = "MINEDRAFT_SGLANG_DRAFT_DEVICE"
ENV_SLACK = "MINEDRAFT_SGLANG_SLACK"
ENV_STATS_FILE = "MINEDRAFT_SGLANG_STATS_FILE"
ENV_LANE_THREADS = "MINEDRAFT_SGLANG_LANE_THREADS"

# Lane kinds the SGLang worker runs (minedraft.lanes vocabulary; its aliases are accepted).
# "devices" is not among them: SGLang's draft worker shares the target's KV allocator.
LANES = ("cuda_streams", "threads", "inline")
DEFAULT_LANES = {"cuda": "cuda_streams", "cpu": "inline"}  # by device type, when unset
DEFAULT_NUM_STEPS = 3  # draft tokens per request per round; SGLang's num_draft_tokens = steps + 1
DEFAULT_MAX_RUNNING_REQUESTS = 48  # what SGLang picks for STANDALONE


@dataclass(frozen=True)
class WorkerOptions:
    """Options read from the environment of the scheduler process."""

    # "cuda_streams": draft on a second CUDA stream of the target GPU; "threads": draft on a
    # second thread (CPU: each lane with its own intra-op threads); "inline": same schedule,
    # no overlap. None (unset): cuda_streams on a CUDA device, inline on CPU.
    lanes: str | None = None
    # threads lane: torch intra-op threads of each lane during a PSD call (None: half of
    # the process's, at least 1), so both lanes together use the cores STANDALONE would.
    lane_threads: int | None = None
    draft_device: str = "same"  # only the target's GPU is supported in this release
    slack: int = 1  # sub-batch imbalance tolerated before a sequential draft (plan_split)
    stats_file: str | None = None  # where the worker writes its counters after each call


def options_from_env(environ: Mapping[str, str] | None = None) -> WorkerOptions:
    env = os.environ if environ is None else environ
    raw_lanes = env.get(ENV_LANES, "").strip()
    if not raw_lanes:
        return _rest_of_options(env, None)
    try:
        lanes = canonical_lane(raw_lanes, field=ENV_LANES)
    except ValueError as exc:
        raise InvalidInputError(str(exc)) from None
    if lanes not in LANES:
        raise InvalidInputError(
            f"{ENV_LANES}={raw_lanes!r} is not supported by the SGLang adapter (one of {LANES}): "
            "SGLang's draft worker shares the target's KV allocator and request-to-token table, "
            "so the draft cannot run on another device"
        )
    return _rest_of_options(env, lanes)


def _rest_of_options(env: Mapping[str, str], lanes: str | None) -> WorkerOptions:
    device = env.get(ENV_DRAFT_DEVICE, "same").strip().lower() or "same"
    if device != "same":
        raise InvalidInputError(
            f"{ENV_DRAFT_DEVICE} must be 'same' (the draft model runs on the target's GPU, "
            f"overlapped on a second CUDA stream), got {device!r}: a separate draft GPU is not "
            "supported by the SGLang adapter in this release, because SGLang's draft worker "
            "shares the target's KV allocator and request-to-token table on the target GPU"
        )
    slack = _int_env(env, ENV_SLACK, 1, minimum=0)
    stats_file = env.get(ENV_STATS_FILE, "").strip() or None
    lane_threads = _int_env(env, ENV_LANE_THREADS, None, minimum=1)
    return WorkerOptions(lanes=lanes, draft_device=device, slack=slack, stats_file=stats_file,
                         lane_threads=lane_threads)


def write_stats(path: str, counters: Mapping[str, int], store_stats: Any) -> None:
    """The worker's counters as one JSON object, replaced atomically (readers never see a
    half-written file)."""
    payload = dict(counters)
    payload.update({f"store_{k}": v for k, v in dataclasses.asdict(store_stats).items()})
    tmp = f"{path}.tmp"
    with open(tmp, "w") as f:
        json.dump(payload, f, sort_keys=True)
    os.replace(tmp, path)


def _int_env(env: Mapping[str, str], name: str, default: int | None, *, minimum: int) -> int | None:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = minimum - 1
    if value < minimum:
        raise InvalidInputError(f"{name} must be an int >= {minimum}, got {raw!r}")
    return value


def check_sglang_version(installed: str | None, environ: Mapping[str, str] | None = None) -> None:
    """Raise a clear error unless ``installed`` is a tested SGLang release."""
    env = os.environ if environ is None else environ
    if installed in SUPPORTED_SGLANG_VERSIONS:
        return
    if env.get(ENV_ALLOW_UNTESTED, "") == "1":
        logger.warning(
            "minedraft: running --speculative-algorithm %s on untested sglang %s (tested: %s) "
            "because %s=1", ALGORITHM, installed, ", ".join(SUPPORTED_SGLANG_VERSIONS), ENV_ALLOW_UNTESTED,
        )
        return
    raise RuntimeError(
        f"--speculative-algorithm {ALGORITHM} supports sglang {' / '.join(SUPPORTED_SGLANG_VERSIONS)}, "
        f"but sglang {installed} is installed. Install a supported release "
        f"(pip install 'minedraft[sglang]'), or set {ENV_ALLOW_UNTESTED}=1 to try anyway."
    )


def _get(args: Any, name: str, default: Any = None) -> Any:
    return getattr(args, name, default)


def decode_graphs_on(args: Any) -> bool:
    """Whether SGLang captures decode CUDA graphs: the resolved ``cuda_graph_config``'s
    decode backend (0.5.23; the deprecated ``--disable-cuda-graph`` is only one of the
    flags it resolves), else that flag where no config was resolved."""
    config = _get(args, "cuda_graph_config")
    decode = config.get("decode") if isinstance(config, Mapping) else getattr(config, "decode", None)
    backend = decode.get("backend") if isinstance(decode, Mapping) else getattr(decode, "backend", None)
    if backend is not None:
        return backend != "disabled"
    return not _get(args, "disable_cuda_graph", False)


def validate_server_args(args: Any, environ: Mapping[str, str] | None = None) -> None:
    """Reject combinations MINEDRAFT cannot run, all problems in one message."""
    problems: list[str] = []
    if not _get(args, "speculative_draft_model_path"):
        problems.append(
            "--speculative-draft-model-path is required: MINEDRAFT drafts with a separate small "
            "model that shares the target's vocabulary"
        )
    topk = _get(args, "speculative_eagle_topk")
    if topk not in (None, 1):
        problems.append(f"--speculative-eagle-topk must be 1 (MINEDRAFT drafts chains), got {topk!r}")
    steps = _get(args, "speculative_num_steps")
    tokens = _get(args, "speculative_num_draft_tokens")
    if steps is not None and (not isinstance(steps, int) or steps < 1):
        problems.append(f"--speculative-num-steps must be an int >= 1, got {steps!r}")
    if tokens is not None and (not isinstance(tokens, int) or tokens < 2):
        problems.append(
            f"--speculative-num-draft-tokens must be an int >= 2 (it counts the draft tokens plus "
            f"the last committed one), got {tokens!r}"
        )
    elif steps is not None and tokens is not None and isinstance(steps, int) and tokens != steps + 1:
        problems.append(
            f"--speculative-num-draft-tokens ({tokens}) must equal --speculative-num-steps + 1 "
            f"({steps + 1}) with chain drafts; give only one of them"
        )
    unsupported = {
        "speculative_use_rejection_sampling": "--speculative-use-rejection-sampling (needs EAGLE draft "
        "distributions; MINEDRAFT verifies with SGLang's STANDALONE kernels)",
        "speculative_use_block_verification": "--speculative-use-block-verification",
        "speculative_adaptive": "--speculative-adaptive",
        "enable_multi_layer_eagle": "--enable-multi-layer-eagle",
        "enable_dp_attention": "--enable-dp-attention",
        # Captured per forward by STANDALONE's verify; the merged sub-batch results carry neither.
        "enable_return_routed_experts": "--enable-return-routed-experts",
        "enable_return_indexer_topk": "--enable-return-indexer-topk",
    }
    for field, flag in unsupported.items():
        if _get(args, field):
            problems.append(f"{flag} is not supported with MINEDRAFT")
    # SGLang 0.5.23 resolves --enable-dp-attention into --attn-dp-size (and clears the flag).
    attn_dp = _get(args, "attn_dp_size", 1) or 1
    if attn_dp != 1:
        problems.append(f"--attn-dp-size must be 1 with MINEDRAFT (attention data parallelism), got {attn_dp!r}")
    pp_size = _get(args, "pp_size", 1) or 1
    if pp_size != 1:
        problems.append(f"--pp-size must be 1 with MINEDRAFT, got {pp_size!r}")
    disagg = _get(args, "disaggregation_mode")
    if disagg not in (None, "null"):
        problems.append(f"--disaggregation-mode must be 'null' with MINEDRAFT, got {disagg!r}")
    if _get(args, "speculative_token_map"):
        problems.append("--speculative-token-map is not supported with MINEDRAFT")
    try:
        options = options_from_env(environ)
    except InvalidInputError as exc:
        problems.append(str(exc))
    else:
        tp_size = _get(args, "tp_size", 1) or 1
        if options.lanes == "threads" and tp_size != 1:
            problems.append(f"{ENV_LANES}=threads needs --tp-size 1 (the draft thread runs outside SGLang's "
                            f"tensor-parallel context), got {tp_size!r}")
    if problems:
        raise InvalidInputError(f"--speculative-algorithm {ALGORITHM}: " + "; ".join(problems))


def handle_server_args(args: Any) -> None:
    """Fill in MINEDRAFT's defaults (after ``validate_server_args`` accepted the args)."""
    args.speculative_eagle_topk = 1
    steps = _get(args, "speculative_num_steps")
    tokens = _get(args, "speculative_num_draft_tokens")
    if steps is None and tokens is None:
        steps = DEFAULT_NUM_STEPS
    elif steps is None:
        steps = tokens - 1
    args.speculative_num_steps = steps
    args.speculative_num_draft_tokens = steps + 1
    if _get(args, "max_running_requests") is None:
        args.max_running_requests = DEFAULT_MAX_RUNNING_REQUESTS
    if not _get(args, "disable_overlap_schedule"):
        # Drafts made for the next call write draft KV up to 2 * num_draft_tokens past the
        # committed length; SGLang reserves exactly that much only when kv_committed_len is
        # current, i.e. with the synchronous scheduler.
        args.disable_overlap_schedule = True
        logger.warning("%s runs with the synchronous scheduler: overlap schedule disabled.", ALGORITHM)
    if _get(args, "enable_mixed_chunk"):
        args.enable_mixed_chunk = False
        logger.warning("%s does not support mixed chunked prefill: disabled.", ALGORITHM)
