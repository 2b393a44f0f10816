"""Fixtures for the TensorRT-LLM adapter tests: stand-in tensorrt_llm modules, tiny models."""

from __future__ import annotations

import copy
import os
import sys

import pytest
import torch

sys.path.append(os.path.dirname(__file__))  # trtllm_standins (after tests/, whose conftest is the shared one)

import trtllm_standins  # noqa: E402


@pytest.fixture
def trtllm(monkeypatch):
    """A fake tensorrt_llm 1.2.1 (the pinned release), removed after the test."""
    return trtllm_standins.install(monkeypatch)


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
