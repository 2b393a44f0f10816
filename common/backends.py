"""Backends: how the API finds an engine pair without knowing which one runs it.

Backends register under the ``minedraft.backends`` entry-point group (each adapter
package declares its own) or programmatically with ``register_backend``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any, Protocol

from .protocols import Drafter, Target
from .types import InvalidInputError


@dataclass
class EngineSpec:
    """Everything a backend needs to build a target and (optionally) a drafter."""

    target: Any
    draft: Any = None
    dtype: str = "auto"
    device: str = "cpu"
    draft_device: str | None = None
    tokenizer: Any = None
    allow_pickle: bool = False
    trust_remote_code: bool = False
    max_batch_size: int = 16
    options: dict[str, Any] = field(default_factory=dict)


class Tokenizer(Protocol):
    def encode(self, text: str) -> list[int]: ...

    def decode(self, ids: list[int]) -> str: ...


@dataclass
class EnginePair:
    target: Target
    drafter: Drafter | None
    tokenizer: Any | None  # anything with encode/decode, or None (token ids only)
    eos_token_ids: tuple[int, ...] = ()
    info: dict[str, Any] = field(default_factory=dict)  # model names, dtypes, devices for reports
    # What modes learn about these engines and keep across schedulers (flex's measured
    # costs), owned by the pair rather than by the process: see ``create_scheduler``.
    memory: dict[Any, Any] = field(default_factory=dict, repr=False)


class Backend(Protocol):
    name: str

    def build(self, spec: EngineSpec) -> EnginePair: ...


_BACKENDS: dict[str, Callable[[], Backend]] = {}


def register_backend(name: str, factory: Callable[[], Backend]) -> None:
    _BACKENDS[name] = factory


def available_backends() -> list[str]:
    names = set(_BACKENDS)
    names.update(ep.name for ep in entry_points(group="minedraft.backends"))
    return sorted(names)


def get_backend(name: str) -> Backend:
    if name in _BACKENDS:
        return _BACKENDS[name]()
    for ep in entry_points(group="minedraft.backends"):
        if ep.name == name:
            return ep.load()()
    raise InvalidInputError(f"backend must be one of {available_backends()}, got {name!r}")
