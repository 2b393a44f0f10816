"""Fixtures of the reference-adapter tests."""

from __future__ import annotations

import pytest

from conftest import tiny_llama

WORDS = ["[UNK]", "[EOS]"] + [f"w{i}" for i in range(94)]  # the tokenizer's vocabulary: "w3 w5" -> 2 tokens


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    """A tiny random-init Llama saved as safetensors with a word-level tokenizer: a model
    directory the CLI can load like any checkpoint."""
    from tokenizers import Tokenizer
    from tokenizers.models import WordLevel
    from tokenizers.pre_tokenizers import Whitespace
    from transformers import PreTrainedTokenizerFast

    path = tmp_path_factory.mktemp("tiny")
    tiny_llama(vocab=len(WORDS), seed=0).save_pretrained(path)
    backend = Tokenizer(WordLevel({w: i for i, w in enumerate(WORDS)}, unk_token="[UNK]"))
    backend.pre_tokenizer = Whitespace()
    PreTrainedTokenizerFast(tokenizer_object=backend, unk_token="[UNK]", eos_token="[EOS]").save_pretrained(path)
    return path
