"""The threads lane's per-thread forward context in SGLang 0.5.23: each thread sees the
context it set, through the function objects other SGLang modules imported by name."""

from __future__ import annotations

import threading
import types

import pytest

pytest.importorskip("sglang")

from sglang.srt.model_executor import forward_context as fc  # noqa: E402
from sglang.srt.model_executor.runner.eager_runner import get_forward_context as imported_by_name  # noqa: E402

from minedraft.adapters.sglang.forward_context_per_thread import make_forward_context_per_thread  # noqa: E402


class _Backend:
    def __init__(self, name: str) -> None:
        self.name = name


def test_each_thread_sees_its_own_context():
    make_forward_context_per_thread()
    make_forward_context_per_thread()  # idempotent
    target, draft = fc.ForwardContext(attn_backend=_Backend("target")), fc.ForwardContext(attn_backend=_Backend("draft"))
    inside = threading.Event()
    release = threading.Event()
    seen: dict[str, object] = {}

    def draft_thread() -> None:
        seen["start"] = fc.has_forward_context()  # a new thread starts without a context
        with fc.forward_context(draft):
            inside.set()
            release.wait(5)
            seen["draft"] = fc.get_attn_backend().name
        seen["after"] = fc.has_forward_context()

    with fc.forward_context(target):
        worker = threading.Thread(target=draft_thread)
        worker.start()
        assert inside.wait(5)
        # The draft thread is inside its own context right now: the target's is unchanged.
        assert imported_by_name().attn_backend.name == "target"
        assert fc.get_attn_backend().name == "target"
        release.set()
        worker.join(5)
        assert fc.get_forward_context() is target
    assert seen == {"start": False, "draft": "draft", "after": False}
    assert not fc.has_forward_context()
    with pytest.raises(AssertionError, match="no forward context active"):
        fc.get_forward_context()


def test_a_module_with_another_reader_of_the_global_is_refused():
    fake = types.ModuleType(fc.__name__)
    source = (
        "from contextlib import contextmanager\n_current = None\n"
        "def set_forward_context(c):\n    global _current\n    p, _current = _current, c\n    return p\n"
        "def has_forward_context():\n    return _current is not None\n"
        "def get_forward_context():\n    return _current\n"
        "@contextmanager\ndef forward_context(c):\n    p = set_forward_context(c)\n    yield\n    set_forward_context(p)\n"
        "def peek():\n    return _current\n"
    )
    exec(compile(source, "fake_forward_context", "exec"), fake.__dict__)
    with pytest.raises(RuntimeError, match=r"these read _current: .*'peek'"):
        make_forward_context_per_thread(fake)
    assert not hasattr(fake, "_minedraft_state")  # nothing applied
