"""Mode options: what one mode takes beyond the ``SchedulerConfig`` every mode shares.

Each scheduler names its options class (``Scheduler.options_class``, a frozen dataclass
whose fields all have defaults and whose ``__post_init__`` validates them), so that one
path serves every entry point: ``LLM(..., mode="tree", tree_branches=2)``, the generated
CLI flags (``--tree-branches 2``) and ``minedraft bench``. ``ModeOptions.build`` turns a
dict of given options into the mode's instance, and refuses an option the mode does not
take rather than ignoring it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from ..types import InvalidInputError
from ..validation import require_int, require_number


@dataclass(frozen=True)
class ModeOptions:
    """Base of every mode's options (a mode without options uses it as is)."""

    # CLI flags are ``--{cli_prefix}-{field}`` for the fields a class declares itself
    # (``--{field}`` without a prefix), so that generic names cannot collide between modes.
    cli_prefix: ClassVar[str] = ""

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    @classmethod
    def taken_from(cls, options: Mapping[str, Any]) -> dict[str, Any]:
        """The entries of ``options`` that this class takes (a run's options may serve several modes)."""
        names = cls.field_names()
        return {k: v for k, v in options.items() if k in names}

    @classmethod
    def build(cls, mode: str, given: ModeOptions | Mapping[str, Any] | None = None) -> ModeOptions:
        """The options of ``mode`` from an instance, a dict of field values or None (defaults)."""
        if given is None:
            return cls()
        if isinstance(given, ModeOptions):
            if not isinstance(given, cls):
                raise InvalidInputError(f"mode {mode!r} takes {cls.__name__}, got {type(given).__name__}")
            return given
        if not isinstance(given, Mapping):
            raise InvalidInputError(f"options of mode {mode!r} must be a {cls.__name__} or a dict, got {given!r}")
        names = cls.field_names()
        for name, value in given.items():
            if name not in names:
                takes = ", ".join(names) if names else "no options"
                raise InvalidInputError(
                    f"{name} is not an option of mode {mode!r} (it takes: {takes}), got {name}={value!r}"
                )
        return cls(**given)


@dataclass(frozen=True)
class DraftOptions(ModeOptions):
    """Chain drafting (``sd``)."""

    # Confidence-adaptive draft length: a request stops drafting once the running product of
    # its draft max-probabilities falls below this (FlexDraft's cumulative_product rule).
    draft_confidence_threshold: float | None = None

    def __post_init__(self) -> None:
        require_number("draft_confidence_threshold", self.draft_confidence_threshold, 0.0, 1.0,
                       low_open=True, high_open=True, optional=True)


@dataclass(frozen=True)
class PSDOptions(DraftOptions):
    """MineDraft's two sub-batches (``psd``): drafter slack spent on extra proposals."""

    extra_proposals: int = 0  # draft k + e per request, verify within the budget
    verify_budget: int | None = None  # tokens per verification; default k * sub-batch size

    def __post_init__(self) -> None:
        super().__post_init__()
        require_int("extra_proposals", self.extra_proposals, 0)
        require_int("verify_budget", self.verify_budget, 1, optional=True)
