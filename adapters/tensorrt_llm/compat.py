"""Which TensorRT-LLM this adapter runs on, and the lazy imports of its private APIs.

Nothing here imports ``tensorrt_llm`` at module import time: the adapter, its docs and
its tests load without it. Every entry point that needs it calls
``require_tensorrt_llm()`` first, which fails with the supported release named.

The adapter relies on private ``tensorrt_llm._torch`` APIs (the ``Drafter`` base class,
``BaseResourceManager``, ``LlmRequest`` fields, the sampler's treatment of draft logits)
that change between releases. It is built for one release, ``PINNED_RELEASE``: the
version is gated, and the ``Drafter`` constructor must have that release's parameters
(``tests/adapters/tensorrt_llm/upstream_signatures_v1.2.1.json``).
"""

from __future__ import annotations

import inspect
import logging
import os
import re
from typing import Any

import torch

logger = logging.getLogger(__name__)

PINNED_RELEASE = "1.2.1"
SUPPORTED_VERSIONS = "==1.2.1"  # post releases (1.2.1.postN) and local builds (1.2.1+x) included
ALLOW_UNTESTED_ENV = "MINEDRAFT_TRTLLM_ALLOW_UNTESTED"

# tensorrt_llm/_torch/speculative/drafter.py at 1.2.1: Drafter.__init__(max_draft_len,
# max_total_draft_tokens, max_concurrency, draft_len_schedule); pad_draft_tokens_for_cuda_graph
# pads every generation request to _static_max_total_draft_tokens, which the constructor sets.
DRAFTER_INIT = ("max_draft_len", "max_total_draft_tokens", "max_concurrency", "draft_len_schedule")


class UnsupportedTensorRTLLMError(ImportError):
    """TensorRT-LLM is missing, or a version/API this adapter was not built for."""


def _supported_message() -> str:
    return f"minedraft's TensorRT-LLM adapter supports tensorrt_llm {PINNED_RELEASE} only"


def parse_version(version: str) -> tuple[int, int, int]:
    match = re.match(r"^\s*v?(\d+)\.(\d+)\.(\d+)(?:\.post\d+)?(?:\+[\w.]+)?\s*$", str(version))
    if not match:
        raise UnsupportedTensorRTLLMError(f"cannot read the tensorrt_llm version {version!r} as a release; "
                                          f"{_supported_message()}")
    return int(match.group(1)), int(match.group(2)), int(match.group(3))


def untested_allowed() -> bool:
    return os.environ.get(ALLOW_UNTESTED_ENV) == "1"


def check_version(version: str | None) -> tuple[int, int, int] | None:
    """The (major, minor, patch) of the pinned release; raises for anything else (release
    candidates included) unless MINEDRAFT_TRTLLM_ALLOW_UNTESTED=1 says to try anyway, in
    which case None is returned and the drafter verifies what it relies on at run time."""
    if version is None:
        raise UnsupportedTensorRTLLMError(f"tensorrt_llm has no __version__; {_supported_message()}")
    try:
        parsed = parse_version(version)
    except UnsupportedTensorRTLLMError:
        parsed = None
    if parsed == tuple(int(x) for x in PINNED_RELEASE.split(".")):
        return parsed
    if untested_allowed():
        logger.warning("tensorrt_llm %s is not %s; %s=1: trying it. Rejection-sampling draft logits are passed "
                       "only if the sampler's draft-q semantics verify.", version, PINNED_RELEASE, ALLOW_UNTESTED_ENV)
        return None
    raise UnsupportedTensorRTLLMError(
        f"tensorrt_llm {version} is not supported: {_supported_message()}. Install {PINNED_RELEASE}, or set "
        f"{ALLOW_UNTESTED_ENV}=1 to try this one at your own risk (its private Drafter/LlmRequest/sampler APIs "
        "may differ; the Drafter constructor is still checked)"
    )


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


def _import(module: str, name: str) -> Any:
    require_tensorrt_llm()
    try:
        return getattr(__import__(module, fromlist=[name]), name)
    except (ImportError, AttributeError) as exc:
        raise UnsupportedTensorRTLLMError(f"{module}.{name} is missing ({exc}); {_supported_message()}") from exc


def drafter_base() -> type:
    """The installed ``Drafter`` ABC (tensorrt_llm/_torch/speculative/drafter.py)."""
    return _import("tensorrt_llm._torch.speculative.drafter", "Drafter")


def resource_manager_base() -> type:
    """``BaseResourceManager`` (tensorrt_llm/_torch/pyexecutor/resource_manager.py)."""
    return _import("tensorrt_llm._torch.pyexecutor.resource_manager", "BaseResourceManager")


def check_drafter_constructor(base: type) -> None:
    """Refuse a ``Drafter`` whose constructor is not the pinned release's."""
    params = tuple(p for p in inspect.signature(base.__init__).parameters if p != "self")
    if params != DRAFTER_INIT:
        raise UnsupportedTensorRTLLMError(
            f"unknown tensorrt_llm Drafter constructor ({', '.join(params) or 'no parameters'}; {PINNED_RELEASE} has "
            f"{', '.join(DRAFTER_INIT)}); {_supported_message()}"
        )


def init_drafter_base(base: type, obj: Any, max_draft_len: int) -> None:
    """Run the pinned base constructor: drafts are padded to ``max_total_draft_tokens``
    (= k, linear drafts), speculation at every batch size (``max_concurrency=None``), one
    fixed length (``draft_len_schedule=None``: the two sub-batches share one padding target)."""
    check_drafter_constructor(base)
    base.__init__(obj, max_draft_len=max_draft_len, max_total_draft_tokens=max_draft_len, max_concurrency=None,
                  draft_len_schedule=None)


def draft_q_is_softmax() -> bool:
    """Whether the installed sampler turns ``py_draft_logits`` into q = softmax(logits)
    when ``py_draft_use_greedy_sampling`` is set, checked on a probe tensor.

    ``TorchSampler._process_draft_tokens_rejection_sampling`` takes q from
    ``sample(("greedy", None), py_draft_logits)``, i.e. from
    ``sampling_utils.greedy_search_sampling_batch``: the softmax in some file versions, a
    one-hot of the argmax in others. Only the former recovers the drafter's q; with the
    latter, passing logits would change the output distribution of sampled requests, so
    the drafter passes none (TorchSampler then accepts a draft iff it equals the target's
    own sample, which is lossless for any sampler)."""
    try:
        fn = _import("tensorrt_llm._torch.pyexecutor.sampling_utils", "greedy_search_sampling_batch")
        logits = torch.tensor([[0.5, -1.0, 2.0, 0.0]])  # [1, vocab]
        _, probs = fn(logits, return_probs=True)
        ok = probs is not None and torch.allclose(probs.float().cpu(), torch.softmax(logits, -1), atol=1e-6)
    except Exception as exc:  # noqa: BLE001 - anything unexpected means: do not rely on it
        logger.warning("cannot verify the sampler's draft-logit semantics (%s): passing no draft logits", exc)
        return False
    if not ok:
        logger.warning("this tensorrt_llm's sampler does not take q = softmax(py_draft_logits): passing no draft "
                       "logits (sampled requests are accepted by token match)")
    return bool(ok)


def serve_entry_points() -> tuple[Any, Any, Any]:
    """trtllm-serve's own ``get_llm_args``, ``update_llm_args_with_extra_dict`` and
    ``launch_server`` (tensorrt_llm/commands/serve.py, tensorrt_llm/llmapi/llm_utils.py)."""
    return (_import("tensorrt_llm.commands.serve", "get_llm_args"),
            _import("tensorrt_llm.llmapi.llm_utils", "update_llm_args_with_extra_dict"),
            _import("tensorrt_llm.commands.serve", "launch_server"))
