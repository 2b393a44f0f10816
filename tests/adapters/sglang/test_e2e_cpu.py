"""MINEDRAFT decoding inside real SGLang 0.5.23 on CPU: SGLang's own scheduler, model
runner, KV pools and STANDALONE worker, with the CPU test harness (cpu_harness/) standing
in for sgl-kernel's CPU build. Greedy outputs of AR, STANDALONE and MINEDRAFT must be
identical token for token (float32).

Target and draft: SmolLM2-135M-Instruct (the draft is the target itself, the only model
here that SGLang's STANDALONE can load with the target's vocabulary). More requests than
``max_running_requests``, so requests join and leave the running batch mid-run; one
request is aborted while it runs. One engine process per mode.

The checkpoint: the ``model`` fixture (conftest.py).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sglang")

HARNESS = Path(__file__).parent / "cpu_harness"
MAX_RUNNING = 3

QUESTIONS = [  # chat prompts: short answers that end on EOS
    "Say hello.", "What is 2 + 2?", "Name a colour.", "What is the capital of France?",
    "Give one word for happy.", "Is the sky blue? Answer yes or no.",
]
TEXTS = [  # plain continuations of different lengths
    "The capital of France is", "Once upon a time", "def fibonacci(n):",
    "The three primary colours are red,", "In 1969, the first humans landed on",
    "Water boils at a temperature of", "A list of fruits: apple, banana,",
    "The quick brown fox jumps over the lazy dog. The quick brown fox jumps over the",
    "import numpy as np\nimport torch\n\nx =", "Monday, Tuesday, Wednesday,",
]


@pytest.fixture(scope="module")
def requests(model) -> list[dict]:
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(model)
    reqs = []
    for i, q in enumerate(QUESTIONS):
        text = tok.apply_chat_template([{"role": "user", "content": q}], add_generation_prompt=True, tokenize=False)
        ids = tok(text, add_special_tokens=False)["input_ids"]
        reqs.append({"rid": f"chat{i}", "input_ids": ids, "max_new_tokens": 40})
    for i, t in enumerate(TEXTS):
        # 7 and 13 are not multiples of the verify block (K = 2 or 4): the budget runs out
        # inside a block of accepted tokens.
        reqs.append({"rid": f"text{i}", "input_ids": tok(t)["input_ids"], "max_new_tokens": (7, 13, 24)[i % 3]})
    reqs.append({"rid": "aborted", "input_ids": tok("Tell me a very long story about")["input_ids"],
                 "max_new_tokens": 64})
    assert len(reqs) >= 16 and len({len(r["input_ids"]) for r in reqs}) >= 8
    return reqs


def _run(tmp_path, model, requests, mode, num_steps=3, env=None) -> dict:
    spec = {"model": model, "mode": mode, "num_steps": num_steps, "max_running_requests": MAX_RUNNING,
            "requests": requests, "abort": {"rid": "aborted", "after_chunks": 3}, "env": env or {}}
    spec_path, out_path = tmp_path / f"{mode}{num_steps}.json", tmp_path / f"{mode}{num_steps}.out.json"
    spec_path.write_text(json.dumps(spec))
    proc = subprocess.run([sys.executable, str(HARNESS / "run_engine.py"), str(spec_path), str(out_path)],
                          capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, proc.stderr[-6000:]
    return json.loads(out_path.read_text())


@pytest.fixture(scope="module")
def reference(tmp_path_factory, model, requests) -> dict:
    return _run(tmp_path_factory.mktemp("ar"), model, requests, "AR")


def _finished(result: dict) -> dict:
    return {rid: out for rid, out in result["outputs"].items() if rid != "aborted"}


def test_ar_reference_covers_eos_budget_and_abort(reference, requests):
    outs = reference["outputs"]
    assert outs["aborted"]["finish_reason"]["type"] == "abort"
    kinds = [o["finish_reason"]["type"] for o in _finished(reference).values()]
    assert "stop" in kinds and "length" in kinds  # some stop on EOS, some on max_new_tokens
    budget = {r["rid"]: r["max_new_tokens"] for r in requests}
    for rid, out in _finished(reference).items():
        if out["finish_reason"]["type"] == "length":
            assert len(out["output_ids"]) == budget[rid]


@pytest.mark.parametrize("mode, num_steps, lanes", [("MINEDRAFT", 3, "threads"), ("MINEDRAFT", 1, "sequential"),
                                                     ("STANDALONE", 3, None)])
def test_speculative_greedy_outputs_equal_ar(tmp_path, model, requests, reference, mode, num_steps, lanes):
    result = _run(tmp_path, model, requests, mode, num_steps, env={"MINEDRAFT_SGLANG_LANES": lanes} if lanes else None)
    assert result["outputs"]["aborted"]["finish_reason"]["type"] == "abort"
    want, got = _finished(reference), _finished(result)
    assert set(got) == set(want)
    for rid in want:
        assert got[rid]["output_ids"] == want[rid]["output_ids"], rid
        assert got[rid]["finish_reason"] == want[rid]["finish_reason"], rid
    if mode == "MINEDRAFT":
        stats = result["worker_stats"]
        # The PSD path ran inside SGLang's scheduler: split calls, stored drafts verified.
        assert stats["calls"] > 0 and stats["overlapped"] > 0 and stats["stored_drafts_used"] > 0, stats
