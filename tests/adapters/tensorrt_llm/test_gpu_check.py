"""scripts/trtllm_gpu_check.py fails fast, naming what is missing, where it cannot run."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

import trtllm_standins as trt

SCRIPT = Path(__file__).parents[3] / "scripts" / "trtllm_gpu_check.py"
ARGS = ["--target", "/models/t", "--draft", "/models/d"]


def _load():
    spec = importlib.util.spec_from_file_location("trtllm_gpu_check", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_without_tensorrt_llm_or_a_gpu_it_names_both_and_exits_2():
    """Here: no tensorrt_llm, no GPU (run as the user would)."""
    assert "tensorrt_llm" not in sys.modules
    out = subprocess.run([sys.executable, str(SCRIPT), *ARGS], capture_output=True, text=True, timeout=120)
    assert out.returncode == 2, out.stderr
    assert "FAILED: cannot run the TensorRT-LLM GPU check" in out.stderr
    assert "no CUDA GPU is visible" in out.stderr and "tensorrt_llm is not installed" in out.stderr
    assert out.stdout == ""


def test_with_the_pinned_release_but_no_gpu_it_names_the_gpu(monkeypatch, capsys):
    trt.install(monkeypatch)
    monkeypatch.setattr("torch.cuda.is_available", lambda: False)
    assert _load().main(ARGS) == 2
    err = capsys.readouterr().err
    assert "no CUDA GPU is visible" in err and "tensorrt_llm" not in err.split("check:")[1]


def test_with_another_release_it_names_the_pinned_one(monkeypatch, capsys):
    trt.install(monkeypatch, version="1.3.0rc1")
    monkeypatch.setattr("torch.cuda.is_available", lambda: True)
    assert _load().main(ARGS) == 2
    assert "tensorrt_llm 1.3.0rc1 is not supported" in capsys.readouterr().err


def test_missing_arguments_are_usage_errors():
    with pytest.raises(SystemExit) as exc:
        _load().main(["--target", "/models/t"])
    assert exc.value.code == 2
