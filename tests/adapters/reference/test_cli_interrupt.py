"""Ctrl-C during `minedraft generate`: the requests in flight are cancelled (their engine
state freed), the command exits 130 and prints one line, no traceback. The interrupt is
injected into the generate loop in-process, after one step."""

from __future__ import annotations

import pytest

import minedraft.api as api
from minedraft.cli import main
from minedraft.types import FinishReason


@pytest.mark.parametrize("mode", ["ar", "psd"])  # inline lanes, and a target lane in its own thread
def test_ctrl_c_cancels_requests_in_flight_and_exits_130(model_dir, capsys, monkeypatch, mode):
    made = []
    real = api.create_scheduler

    def interrupted_after_one_step(*args, **kwargs):
        scheduler = real(*args, **kwargs)
        step = scheduler.step

        def step_once_then_interrupt():
            if scheduler.trace.steps:
                raise KeyboardInterrupt
            return step()

        scheduler.step = step_once_then_interrupt
        made.append(scheduler)
        return scheduler

    monkeypatch.setattr(api, "create_scheduler", interrupted_after_one_step)
    code = main(["generate", "--target", str(model_dir), "--draft", str(model_dir), "--mode", mode,
                 "--dtype", "float64", "--max-new-tokens", "40", "w3 w5 w7", "w11"])
    out = capsys.readouterr()
    assert code == 130
    assert out.err.strip().splitlines()[-1] == "minedraft generate: interrupted"
    assert "Traceback" not in out.err + out.out and "KeyboardInterrupt" not in out.err
    (scheduler,) = made
    requests = list(scheduler.requests.values())
    assert len(requests) == 2
    assert [r.finish_reason for r in requests] == [FinishReason.CANCELLED] * 2
    assert all(len(r.output_ids) < 40 for r in requests)
    for engine in (scheduler.target, scheduler.drafter):
        if engine is not None:
            assert not engine.runner.slot_of  # KV slots freed
