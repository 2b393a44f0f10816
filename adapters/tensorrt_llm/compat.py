"""Which TensorRT-LLM this adapter runs on, and the lazy imports of its private APIs.

Nothing here imports ``tensorrt_llm`` at module import time: the adapter, its docs and
its tests load without it. Every entry point that needs it calls
``require_tensorrt_llm()`` first, which fails with the supported versions named.

The adapter relies on private ``tensorrt_llm._torch`` APIs (the ``Drafter`` base class,
``BaseResourceManager``, ``LlmRequest`` fields) that change between releases, so the
version is gated and the ``Drafter`` constructor is feature-detected on top.
"""

from __future__ import annotations

import inspect
import os
import re
from typing import Any

SUPPORTED_VERSIONS = ">=1.0,<1.3"  # 1.0.x, 1.1.x and 1.2.x (pre-releases included)
_LOWEST, _FIRST_UNSUPPORTED = (1, 0), (1, 3)
ALLOW_UNTESTED_ENV = "MINEDRAFT_TRTLLM_ALLOW_UNTESTED"

# The two Drafter constructor signatures the adapter knows (tensorrt_llm/_torch/speculative/drafter.py):
CTOR_1_0 = "max_concurrency"  # 1.0-era: __init__(self, max_concurrency=None)
CTOR_1_2 = "draft_lengths"  # 1.2 and later: __init__(self, max_draft_len, max_total_draft_tokens, max_concurrency, ...)


class UnsupportedTensorRTLLMError(ImportError):
    """TensorRT-LLM is missing, or a version/API this adapter was not built for."""


def _supported_message() -> str:
    return f"minedraft's TensorRT-LLM adapter supports tensorrt_llm {SUPPORTED_VERSIONS} (1.0.x to 1.2.x)"


def parse_version(version: str) -> tuple[int, int]:
    match = re.match(r"^\s*v?(\d+)\.(\d+)", str(version))
    if not match:
        raise UnsupportedTensorRTLLMError(f"cannot read the tensorrt_llm version {version!r}; {_supported_message()}")
    return int(match.group(1)), int(match.group(2))


def check_version(version: str | None) -> tuple[int, int]:
    """The (major, minor) of a supported version; raises for anything else unless the
    environment variable MINEDRAFT_TRTLLM_ALLOW_UNTESTED=1 says to try anyway."""
    if version is None:
        raise UnsupportedTensorRTLLMError(f"tensorrt_llm has no __version__; {_supported_message()}")
    parsed = parse_version(version)
    if not _LOWEST <= parsed < _FIRST_UNSUPPORTED and os.environ.get(ALLOW_UNTESTED_ENV) != "1":
        raise UnsupportedTensorRTLLMError(
            f"tensorrt_llm {version} is not supported: {_supported_message()}. Install a supported release, "
            f"or set {ALLOW_UNTESTED_ENV}=1 to try this one at your own risk (its private Drafter/LlmRequest "
            "APIs may differ)"
        )
    return parsed


def require_tensorrt_llm() -> str:
    """Import tensorrt_llm and check its version; returns the version string."""
    try:
        import tensorrt_llm
    except ImportError as exc:
        raise UnsupportedTensorRTLLMError(
            f"tensorrt_llm is not installed (or failed to import: {exc}); {_supported_message()}. It is not on "
            "PyPI as a wheel: install it from NVIDIA's package index or use the NGC TensorRT-LLM container"
        ) from exc
    version = getattr(tensorrt_llm, "__version__", None)
    check_version(version)
    return str(version)


def drafter_base() -> type:
    """The installed ``Drafter`` ABC (tensorrt_llm/_torch/speculative/drafter.py)."""
    require_tensorrt_llm()
    try:
        from tensorrt_llm._torch.speculative.drafter import Drafter
    except ImportError as exc:
        raise UnsupportedTensorRTLLMError(
            f"tensorrt_llm._torch.speculative.drafter.Drafter is missing ({exc}); {_supported_message()}"
        ) from exc
    return Drafter


def resource_manager_base() -> type:
    """``BaseResourceManager`` (tensorrt_llm/_torch/pyexecutor/resource_manager.py)."""
    require_tensorrt_llm()
    try:
        from tensorrt_llm._torch.pyexecutor.resource_manager import BaseResourceManager
    except ImportError as exc:
        raise UnsupportedTensorRTLLMError(f"BaseResourceManager is missing ({exc}); {_supported_message()}") from exc
    return BaseResourceManager


def constructor_kind(base: type) -> str:
    """Which known ``Drafter.__init__`` the installed base has; raises for an unknown one."""
    params = [p for p in inspect.signature(base.__init__).parameters if p != "self"]
    if "max_draft_len" in params and "max_total_draft_tokens" in params:
        return CTOR_1_2
    if params == ["max_concurrency"]:
        return CTOR_1_0
    raise UnsupportedTensorRTLLMError(
        f"unknown tensorrt_llm Drafter constructor ({', '.join(params) or 'no parameters'}); "
        f"{_supported_message()}"
    )


def init_drafter_base(base: type, obj: Any, max_draft_len: int) -> str:
    """Run the base constructor and set every length field any supported executor reads.

    1.0-era executors pad drafts to ``drafter.max_draft_len``; 1.2-era ones to
    ``_static_max_total_draft_tokens`` and read ``max_total_draft_tokens`` and
    ``draft_len_schedule``. The executor does not copy these from the speculative config
    into a user drafter, so they are set here for both generations.
    """
    kind = constructor_kind(base)
    if kind == CTOR_1_2:
        wanted = {"max_draft_len": max_draft_len, "max_total_draft_tokens": max_draft_len,
                  "max_concurrency": None, "draft_len_schedule": None}
        params = inspect.signature(base.__init__).parameters
        base.__init__(obj, **{k: v for k, v in wanted.items() if k in params})
    else:
        base.__init__(obj, max_concurrency=None)
    obj.max_draft_len = max_draft_len
    obj.max_total_draft_tokens = max_draft_len
    obj._static_max_total_draft_tokens = max_draft_len
    obj.max_concurrency = None  # speculation for every batch size: PSD needs its drafts
    obj.draft_len_schedule = None  # a fixed length: the sub-batches share one padding target
    return kind


def update_llm_args_with_extra_dict() -> Any | None:
    """trtllm-serve's converter of YAML dicts to LLM config objects, where it exists."""
    for module in ("tensorrt_llm.llmapi.llm_args", "tensorrt_llm.llmapi.llm_utils"):
        try:
            mod = __import__(module, fromlist=["update_llm_args_with_extra_dict"])
        except ImportError:
            continue
        fn = getattr(mod, "update_llm_args_with_extra_dict", None)
        if fn is not None:
            return fn
    return None
