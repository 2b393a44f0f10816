"""``minedraft serve-trtllm --config file.yaml``: validation that names bad fields, the
entry point, and the LLM/OpenAIServer it builds (through the tensorrt_llm stand-ins)."""

from __future__ import annotations

import textwrap

import pytest

from minedraft import InvalidInputError
from minedraft.adapters.tensorrt_llm.serve import build_llm, load_serve_config, parse_serve_config, serve
from minedraft.cli import build_parser, main

import trtllm_standins as trt
from conftest import build_pair

GOOD = {"model": "/models/target", "draft": {"model": "/models/draft"}}


def _write(tmp_path, text: str):
    path = tmp_path / "psd.yaml"
    path.write_text(textwrap.dedent(text))
    return path


def test_full_file_resolves(tmp_path):
    path = _write(tmp_path, """
        model: /models/target
        num_speculative_tokens: 5
        draft: {model: /models/draft, backend: reference, dtype: bfloat16, device: "cuda:1"}
        psd: {on_miss: skip, lane: thread, timeout: 30}
        llm: {max_batch_size: 32, kv_cache_config: {free_gpu_memory_fraction: 0.8}}
        server: {host: 0.0.0.0, port: 8123}
    """)
    cfg = load_serve_config(path)
    assert cfg.num_speculative_tokens == 5 and cfg.draft.device == "cuda:1" and cfg.draft.dtype == "bfloat16"
    assert cfg.psd.on_miss == "skip" and cfg.psd.lane == "thread" and cfg.server.port == 8123
    assert cfg.llm["kv_cache_config"] == {"free_gpu_memory_fraction": 0.8}
    minimal = parse_serve_config(GOOD)
    assert minimal.num_speculative_tokens == 4 and minimal.draft.backend == "reference" and minimal.llm == {}


@pytest.mark.parametrize("change,message", [
    ({"modle": "x"}, "unknown field modle"),
    ({"model": None}, "model is required"),
    ({"draft": {"backend": "reference"}}, "draft.model is required"),
    ({"draft": {"model": "d", "dtyp": "bf16"}}, "unknown field draft.dtyp"),
    ({"draft": {"model": 3}}, "draft.model must be a string"),
    ({"num_speculative_tokens": "4"}, "num_speculative_tokens must be an integer"),
    ({"num_speculative_tokens": True}, "num_speculative_tokens must be an integer"),
    ({"num_speculative_tokens": 0}, "num_speculative_tokens must be >= 1"),
    ({"psd": {"on_miss": "retry"}}, "psd.on_miss must be one of"),
    ({"psd": {"lane": "gpu"}}, "psd.lane must be one of"),
    ({"psd": {"timeout": -1}}, "psd.timeout must be > 0"),
    ({"server": {"port": 70000}}, "server.port must be in"),
    ({"server": []}, "server must be a mapping"),
    ({"llm": {"speculative_config": {"decoding_type": "Eagle"}}}, "llm.speculative_config cannot be set"),
    ({"llm": {"model": "other"}}, "llm.model cannot be set"),
    ({"llm": {"backend": "tensorrt"}}, "llm.backend cannot be set"),
    ({"llm": {"disable_overlap_scheduler": False}}, "llm.disable_overlap_scheduler cannot be false"),
])
def test_bad_fields_are_named(change, message):
    with pytest.raises(InvalidInputError, match=message):
        parse_serve_config({**GOOD, **change})


def test_bad_files_are_named(tmp_path):
    with pytest.raises(InvalidInputError, match="not valid YAML"):
        load_serve_config(_write(tmp_path, "model: [unclosed\n"))
    with pytest.raises(InvalidInputError, match="cannot read"):
        load_serve_config(tmp_path / "missing.yaml")
    with pytest.raises(InvalidInputError, match="config must be a mapping"):
        load_serve_config(_write(tmp_path, "- a list\n"))


def test_cli_entry_point_check_and_missing_tensorrt_llm(tmp_path, capsys):
    """The subcommand comes from the minedraft.commands entry point (pip install -e)."""
    assert "serve-trtllm" in build_parser()._subparsers._group_actions[0].choices
    path = _write(tmp_path, "model: /m/t\ndraft: {model: /m/d}\n")
    assert main(["serve-trtllm", "--config", str(path), "--check"]) == 0
    assert '"model": "/m/t"' in capsys.readouterr().out
    assert main(["serve-trtllm", "--config", str(path)]) == 2  # no tensorrt_llm here
    assert ">=1.0,<1.3" in capsys.readouterr().err
    bad = _write(tmp_path, "model: /m/t\ndraft: {model: /m/d}\nserver: {prot: 1}\n")
    assert main(["serve-trtllm", "--config", str(bad), "--check"]) == 2
    assert "unknown field server.prot" in capsys.readouterr().err


def test_serve_builds_llm_and_openai_server(trtllm, trt_models, tmp_path):
    from minedraft.backends import register_backend

    target, _, close = trt_models

    class TinyServeBackend:
        name = "tiny-serve-draft"

        def build(self, spec):
            return build_pair(close, close)  # stands for loading spec.target from disk

    register_backend("tiny-serve-draft", TinyServeBackend)
    cfg = parse_serve_config({
        "model": "/models/target", "num_speculative_tokens": 3,
        "draft": {"model": "/models/draft", "backend": "tiny-serve-draft", "device": "cpu"},
        "psd": {"lane": "inline"},
        "llm": {"max_batch_size": 8, "kv_cache_config": {"free_gpu_memory_fraction": 0.5}},
        "server": {"host": "127.0.0.1", "port": 8011},
    })
    serve(cfg)
    llm, server = trt.LLM.instances[-1], trt.OpenAIServer.instances[-1]
    assert llm.model == "/models/target" and llm.shut_down
    kwargs = llm.kwargs
    assert kwargs["disable_overlap_scheduler"] is True and kwargs["max_batch_size"] == 8
    assert kwargs["kv_cache_config"] == trt.KvCacheConfig(free_gpu_memory_fraction=0.5)  # converted, as trtllm-serve does
    spec = kwargs["speculative_config"]
    assert spec.max_draft_len == 3 and isinstance(spec.drafter, trtllm.drafter_base)
    assert spec.drafter.core_drafter is None  # the draft model loads lazily, in the executor process
    assert server.llm is llm and server.model == "/models/target" and server.served == ("127.0.0.1", 8011)
    # The drafter the executor gets builds its draft model through the registry on first use.
    batch = trt.ScheduledRequests()
    spec.drafter.prepare_draft_tokens(batch, None)
    assert spec.drafter.core_drafter is not None
    spec.drafter.shutdown()
    assert build_llm(cfg).kwargs["speculative_config"].drafter is not spec.drafter  # a fresh one per LLM
