"""SGLang's active forward context, made per thread (for the ``threads`` lane).

SGLang 0.5.23 keeps the forward context (which attention backend a model's layers use) in
a module-level global, ``sglang.srt.model_executor.forward_context._current``; its
docstring says to migrate it to a per-thread value "if worker threads ever share a
process". The ``threads`` lane does exactly that: the draft model forwards on a second
thread while the target verifies on the scheduler's thread, and each thread must see its
own backend.

:func:`make_forward_context_per_thread` swaps the code of the four functions that read or
write ``_current`` (``set_forward_context``, ``has_forward_context``,
``get_forward_context`` and the body of the ``forward_context`` context manager) for
versions that keep it in a ``threading.local``. The function objects stay the same, so
every module that imported them by name gets the per-thread behaviour. It refuses (and
changes nothing) when any other function of that module touches ``_current``: then SGLang
has changed and the patch would be incomplete.
"""

from __future__ import annotations

import threading
import types
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from sglang.srt.model_executor import forward_context as _module
from sglang.srt.model_executor.forward_context import set_forward_context


class _PerThread(threading.local):
    current: Any = None  # each thread starts without a context


# The replacement code below runs with the SGLang module's globals, so every name it reads
# exists there too: this object (installed under the same name), ``replace`` and
# ``set_forward_context``.
_minedraft_state = _PerThread()
_PATCHED_FLAG = "_minedraft_forward_context_per_thread"


def _set(ctx: Any) -> Any:
    prev, _minedraft_state.current = _minedraft_state.current, ctx
    return prev


def _has() -> bool:
    return _minedraft_state.current is not None


def _get() -> Any:
    assert _minedraft_state.current is not None, (
        "no forward context active — call forward_context(...) or set_forward_context(...) "
        "before reading get_forward_context()."
    )
    return _minedraft_state.current


def _scope(ctx: Any, *, forward_batch: Any = None) -> Iterator[None]:
    current = _minedraft_state.current
    if forward_batch is not None:
        ctx = replace(ctx, moe_num_token_non_padded=forward_batch.moe_num_token_non_padded)
    elif ctx.moe_num_token_non_padded is None and current is not None:
        ctx = replace(ctx, moe_num_token_non_padded=current.moe_num_token_non_padded)
    prev = set_forward_context(ctx)
    try:
        yield
    finally:
        set_forward_context(prev)


def _targets(module: types.ModuleType) -> dict[str, types.FunctionType]:
    return {"set_forward_context": module.set_forward_context, "has_forward_context": module.has_forward_context,
            "get_forward_context": module.get_forward_context, "forward_context": module.forward_context.__wrapped__}


def make_forward_context_per_thread(module: types.ModuleType = _module) -> None:
    """Make SGLang's active forward context per thread (idempotent, process-wide).
    ``module``: SGLang's forward_context module (a parameter for tests)."""
    if getattr(module, _PATCHED_FLAG, False):
        return
    targets = _targets(module)
    functions = {name: obj for name, obj in vars(module).items()
                 if isinstance(obj, types.FunctionType) and obj.__module__ == module.__name__}
    functions["forward_context"] = targets["forward_context"]  # the generator inside the wrapper
    readers = sorted(name for name, fn in functions.items() if "_current" in fn.__code__.co_names)
    if readers != sorted(targets):
        raise RuntimeError(
            "MINEDRAFT_SGLANG_LANES=threads needs sglang.srt.model_executor.forward_context to keep its "
            f"state only in the functions {sorted(targets)}, but these read _current: {readers}; this "
            "SGLang release is not supported by the threads lane (use inline)"
        )
    if module is not _module:
        raise RuntimeError(f"the per-thread forward context replaces {_module.__name__}, not {module.__name__}")
    _minedraft_state.current = module._current  # the scheduler thread keeps what it had
    module._minedraft_state = _minedraft_state
    for name, replacement in (("set_forward_context", _set), ("has_forward_context", _has),
                              ("get_forward_context", _get), ("forward_context", _scope)):
        targets[name].__code__ = replacement.__code__
    setattr(module, _PATCHED_FLAG, True)
