"""Stop conditions on model-free engines: which one fired (``stop_reason``) and the
detokenized window that finds stop strings, for tokens smaller than a character."""

from __future__ import annotations

import pytest

from minedraft import RequestState, SamplingParams, SchedulerConfig, create_scheduler

from conftest import run_to_end
from fake_engines import FakeDrafter, FakeTarget, ar_continuation

PARROT = "\U0001f99c"  # 4 UTF-8 bytes


def _byte_level(ids: list[int]) -> str:
    """Every token is one byte of a run of parrots: a window decodes its whole ones."""
    return PARROT * (len(ids) // 4)


def _run(mode: str, params: SamplingParams, detokenize=None) -> RequestState:
    config = SchedulerConfig(num_speculative_tokens=3, lanes="inline", detokenize=detokenize)
    sched = create_scheduler(mode, FakeTarget(), None if mode == "ar" else FakeDrafter(wrong_every=3), config)
    req = RequestState(prompt_ids=[1, 2], params=params)
    run_to_end(sched, [req], max_steps=500)
    return req


@pytest.mark.parametrize("mode", ["ar", "sd", "psd"])
def test_a_stop_string_of_many_byte_tokens_is_found(mode):
    # 12 parrots are 48 one-byte tokens: a window sized in characters (12 + 16 tokens)
    # never holds them all and the request ran to its length.
    params = SamplingParams(temperature=0.0, max_new_tokens=200, stop=[PARROT * 12])
    req = _run(mode, params, _byte_level)
    assert (len(req.output_ids), req.finish_reason.value, req.stop_reason) == (48, "stop", PARROT * 12)


@pytest.mark.parametrize("mode", ["ar", "sd"])
def test_stop_reason_names_the_stop_token_id_or_nothing(mode):
    expected = ar_continuation([1, 2], 40)
    stop_id = expected[5]
    req = _run(mode, SamplingParams(temperature=0.0, max_new_tokens=40, stop_token_ids=[stop_id]))
    assert (req.output_ids, req.stop_reason) == (expected[:expected.index(stop_id) + 1], stop_id)
    req = _run(mode, SamplingParams(temperature=0.0, max_new_tokens=7))
    assert (req.finish_reason.value, req.stop_reason) == ("length", None)
