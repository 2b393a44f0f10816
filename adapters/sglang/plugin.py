"""The ``sglang.srt.plugins`` entry point: registers ``--speculative-algorithm MINEDRAFT``.

SGLang calls ``register()`` in the launcher, in every scheduler process and in the other
processes it spawns, before server arguments are parsed; a failing plugin is only logged
there, so every failure path below says what to do in its message.
"""

from __future__ import annotations

import logging
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from .config import ALGORITHM, SUPPORTED_SGLANG_VERSIONS, check_sglang_version, validate_server_args

logger = logging.getLogger(__name__)


def installed_sglang_version() -> str | None:
    try:
        return version("sglang")
    except PackageNotFoundError:
        return None


def _validate(server_args: Any) -> None:
    # The version check runs here, when a user asks for MINEDRAFT, rather than in
    # register(): SGLang users who merely have minedraft installed are never affected.
    check_sglang_version(installed_sglang_version())
    validate_server_args(server_args)


def _worker_factory(server_args: Any) -> type:
    from .worker import MineDraftWorker  # imports SGLang's GPU worker modules

    return MineDraftWorker


def register() -> None:
    """Register MINEDRAFT with SGLang's speculative-algorithm registry (idempotent)."""
    installed = installed_sglang_version()
    try:
        from sglang.srt.speculative.spec_info import SpeculativeAlgorithm
        from sglang.srt.speculative.spec_registry import get_spec
    except ImportError as exc:
        raise RuntimeError(
            f"minedraft: --speculative-algorithm {ALGORITHM} needs sglang "
            f"{' / '.join(SUPPORTED_SGLANG_VERSIONS)} (with a speculative-algorithm registry); "
            f"installed: {installed}. pip install 'minedraft[sglang]'"
        ) from exc
    if get_spec(ALGORITHM) is not None:
        return
    from .spec import MineDraftSpecAlgo

    try:
        SpeculativeAlgorithm.register(
            ALGORITHM,
            supports_overlap=False,
            validate_server_args=_validate,
            spec_class=MineDraftSpecAlgo,
        )(_worker_factory)
    except TypeError as exc:  # the spec class lacks a predicate a newer SGLang added
        raise RuntimeError(
            f"minedraft: cannot register {ALGORITHM} with sglang {installed} "
            f"(supported: {' / '.join(SUPPORTED_SGLANG_VERSIONS)}): {exc}"
        ) from exc
    logger.info("minedraft: registered --speculative-algorithm %s", ALGORITHM)
