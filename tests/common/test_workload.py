"""The bench's prompt texts: the built-in bench set, cycled past its size, and a clear error,
never a substitute set, when that set cannot be loaded."""

from __future__ import annotations

import pytest

from minedraft import prompts
from minedraft.bench import workload
from minedraft.types import InvalidInputError


@pytest.fixture
def heldout_file(monkeypatch):
    """Point the held-out set at another file; the real one is read again afterwards."""

    def use(path):
        monkeypatch.setattr(prompts, "_HELDOUT_FILE", path)
        prompts._heldout.cache_clear()

    yield use
    monkeypatch.undo()
    prompts._heldout.cache_clear()


def test_bench_texts_are_the_bench_prompts_cycled_past_the_set():
    texts, source = workload.prompt_texts(8)
    assert texts == prompts.bench_prompts(8) and source == "minedraft.prompts.bench_prompts"
    n = len(prompts.heldout_prompts())
    texts, _ = workload.prompt_texts(n + 3)
    assert texts[n:] == texts[:3] and texts[:n] == prompts.bench_prompts(n)


@pytest.mark.parametrize("content", [None, "", '{"not": "a list"}', '["fine", ""]'])
def test_bench_refuses_a_prompt_set_it_cannot_load(heldout_file, tmp_path, content):
    path = tmp_path / "heldout_prompts.json"
    if content is not None:
        path.write_text(content)
    heldout_file(path)
    with pytest.raises(InvalidInputError, match="could not be loaded") as err:
        workload.prompt_texts(4)
    assert str(path) in str(err.value)
