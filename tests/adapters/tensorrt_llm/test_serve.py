"""``minedraft serve-trtllm --config file.yaml``: validation that names bad fields, the
entry point, and the LLM/OpenAIServer that trtllm-serve's own ``launch_server`` builds
from it (through the tensorrt_llm 1.2.1 stand-ins); the shipped extra_llm_api_options
YAML against the stand-ins' argument validation."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import yaml

from minedraft import InvalidInputError
from minedraft.adapters.tensorrt_llm.serve import build_llm_args, load_serve_config, parse_serve_config, serve
from minedraft.cli import build_parser, main

import trtllm_standins as trt
from conftest import build_pair

GOOD = {"model": "/models/target", "draft": {"model": "/models/draft"}}
EXAMPLE = Path(__file__).parents[3] / "adapters" / "tensorrt_llm" / "examples" / "extra_llm_api_options.yaml"


def _write(tmp_path, text: str):
    path = tmp_path / "psd.yaml"
    path.write_text(textwrap.dedent(text))
    return path


def test_full_file_resolves(tmp_path):
    path = _write(tmp_path, """
        model: /models/target
        num_speculative_tokens: 5
        draft: {model: /models/draft, backend: reference, dtype: bfloat16, device: "cuda:1"}
        psd: {on_miss: skip, lane: thread, timeout: 30}  # an alias of threads
        llm: {max_batch_size: 32, kv_cache_config: {free_gpu_memory_fraction: 0.8}}
        server: {host: 0.0.0.0, port: 8123}
    """)
    cfg = load_serve_config(path)
    assert cfg.num_speculative_tokens == 5 and cfg.draft.device == "cuda:1" and cfg.draft.dtype == "bfloat16"
    assert cfg.psd.on_miss == "skip" and cfg.psd.lane == "threads" and cfg.server.port == 8123
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
    ({"psd": {"lane": 3}}, "psd.lane must be a string"),
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
    assert "1.2.1 only" in capsys.readouterr().err
    bad = _write(tmp_path, "model: /m/t\ndraft: {model: /m/d}\nserver: {prot: 1}\n")
    assert main(["serve-trtllm", "--config", str(bad), "--check"]) == 2
    assert "unknown field server.prot" in capsys.readouterr().err


def _tiny_backend(close):
    from minedraft.backends import register_backend

    class TinyServeBackend:
        name = "tiny-serve-draft"

        def build(self, spec):
            return build_pair(close, close)  # stands for loading spec.target from disk

    register_backend("tiny-serve-draft", TinyServeBackend)


SERVED = {
    "model": "/models/target", "num_speculative_tokens": 3,
    "draft": {"model": "/models/draft", "backend": "tiny-serve-draft", "device": "cpu"},
    "psd": {"lane": "inline"},
    "llm": {"max_batch_size": 8, "kv_cache_config": {"free_gpu_memory_fraction": 0.5}},
    "server": {"host": "127.0.0.1", "port": 8011},
}


def test_serve_runs_trtllm_serves_launch_server(trtllm, trt_models):
    """The OpenAIServer is built by trtllm-serve's launch_server, with the arguments it
    requires (server_role and metadata_server_cfg have no defaults upstream); the LLM
    gets trtllm-serve's defaults, the llm mapping over them, and the PSD config."""
    _tiny_backend(trt_models[2])
    serve(parse_serve_config(SERVED))
    llm, server = trt.LLM.instances[-1], trt.OpenAIServer.instances[-1]
    assert llm.model == "/models/target"
    kwargs = llm.kwargs
    assert kwargs["disable_overlap_scheduler"] is True and kwargs["max_batch_size"] == 8
    assert kwargs["kv_cache_config"].free_gpu_memory_fraction == 0.5  # the YAML over trtllm-serve's 0.9
    assert isinstance(kwargs["scheduler_config"], trt.SchedulerConfig)  # trtllm-serve's own default
    assert kwargs["backend"] == "pytorch" and kwargs["postprocess_tokenizer_dir"] == "/models/target"
    spec = kwargs["speculative_config"]
    assert spec.max_draft_len == 3 and isinstance(spec.drafter, trtllm.drafter_base)
    assert spec.drafter.core_drafter is None  # the draft model loads lazily, in the executor process
    assert server.llm is llm and server.model == "/models/target" and server.served == ("127.0.0.1", 8011)
    assert server.server_role is None
    # The drafter the executor gets builds its draft model through the registry on first use.
    spec.drafter.prepare_draft_tokens(trt.ScheduledRequests(), None)
    assert spec.drafter.core_drafter is not None
    spec.drafter.shutdown()
    cfg = parse_serve_config(SERVED)
    assert build_llm_args(cfg)["speculative_config"].drafter is not spec.drafter  # a fresh one per LLM


def test_the_shipped_extra_llm_api_options_pass_the_llm_validation(trtllm, trt_models, tmp_path):
    _tiny_backend(trt_models[2])
    options = yaml.safe_load(EXAMPLE.read_text())
    assert "speculative_config" not in options
    config = tmp_path / "psd.yaml"
    config.write_text(yaml.safe_dump({k: v for k, v in SERVED.items() if k != "llm"}))
    cfg = load_serve_config(config, EXAMPLE)
    assert cfg.llm == options
    serve(cfg)
    kwargs = trt.LLM.instances[-1].kwargs
    assert isinstance(kwargs["cuda_graph_config"], trt.CudaGraphConfig) and kwargs["cuda_graph_config"].enable_padding
    assert kwargs["kv_cache_config"].free_gpu_memory_fraction == 0.8 and kwargs["max_num_tokens"] == 8192
    kwargs["speculative_config"].drafter.shutdown()
    # The same validation rejects what a real LLM would: a misspelt field, a misspelt nested field.
    for bad, name in [({"max_batch_sise": 8}, "max_batch_sise"), ({"cuda_graph_config": {"padding": True}}, "padding")]:
        path = tmp_path / "bad.yaml"
        path.write_text(yaml.safe_dump({**options, **bad}))
        with pytest.raises(ValueError, match=name):
            serve(load_serve_config(config, path))
    with pytest.raises(InvalidInputError, match="extra_llm_api_options.*mapping"):
        (tmp_path / "list.yaml").write_text("- 1\n")
        load_serve_config(config, tmp_path / "list.yaml")
