"""Header checks for weights files: a truncated or overwritten file fails here, naming
itself, rather than deep inside a loader. Imports nothing else of the adapter, so every
loader (target, draft, embedded cache) can use it without an import circle."""

from __future__ import annotations

import os
from collections.abc import Iterable

from minedraft.types import InvalidInputError


def check_safetensors(paths: Iterable[str | os.PathLike], field_name: str, hint: str = "re-download or re-save it") -> None:
    """Each file's header must parse and its tensors must fit in the file: a truncated or
    overwritten weights file fails here, naming itself, rather than deep inside a loader.
    Reads the headers only."""
    from safetensors import SafetensorError, safe_open

    for path in paths:
        try:
            with safe_open(str(path), framework="pt"):
                pass
        except (SafetensorError, OSError) as exc:
            raise InvalidInputError(
                f"{field_name}: weights file {str(path)!r} is corrupt or truncated ({exc}); {hint}"
            ) from exc
