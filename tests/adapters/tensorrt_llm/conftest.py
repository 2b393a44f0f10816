"""Fixtures for the TensorRT-LLM adapter tests: stand-in tensorrt_llm modules, tiny models."""

from __future__ import annotations

import copy
import os
import sys

import pytest
import torch

sys.path.append(os.path.dirname(__file__))  # trtllm_standins (after tests/, whose conftest is the shared one)

import trtllm_standins  # noqa: E402


@pytest.fixture(params=["1.0", "1.2"])
def trtllm(request, monkeypatch):
    """A fake tensorrt_llm of each interface generation, removed after the test."""
    return trtllm_standins.install(monkeypatch, request.param)


@pytest.fixture
def trtllm_12(monkeypatch):
    return trtllm_standins.install(monkeypatch, "1.2")


@pytest.fixture(scope="session")
def trt_models():
    from conftest import tiny_llama

    target = tiny_llama(layers=2, hidden=64, seed=0)
    unrelated = tiny_llama(layers=1, hidden=32, seed=1)
    close = copy.deepcopy(target)  # agrees with the target's argmax on about 2/3 of positions
    torch.manual_seed(123)
    with torch.no_grad():
        for p in close.parameters():
            p.add_(torch.randn_like(p) * 0.002)
    return target, unrelated, close
