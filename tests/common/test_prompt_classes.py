"""Held-out prompt classes for acceptance per class: stored with their source, loaded
deterministically, raw classes never chat-templated."""

from __future__ import annotations

import re

import pytest

from minedraft.backends import EnginePair
from minedraft.bench.prompt_classes import PROMPT_CLASSES, class_entries, class_prompts
from minedraft.bench.workload import prompt_ids
from minedraft.types import InvalidInputError


def test_raw_classes_name_their_source_and_no_machine_path():
    for name in ("text", "code"):
        entries = class_entries(name)
        assert len(entries) >= 16 and len({e["prompt"] for e in entries}) == len(entries)
        for e in entries:
            assert e["package"].startswith("python 3.") and e["file"].endswith(".py") and e["object"]
            assert "/" not in e["file"] and not re.search(r"/(tmp|work|root|home|usr)/", e["prompt"] + e["file"])
    assert all(e["object"].startswith("def ") for e in class_entries("code"))
    # held out from the chat set: no prompt of one class appears in another
    chat, _ = class_prompts("chat", 400)
    assert not set(chat) & {e["prompt"] for e in class_entries("text") + class_entries("code")}


def test_class_prompts_cycle_and_reject_unknown_classes():
    texts, source = class_prompts("code", 30)
    assert texts[24:] == texts[:6] and source.endswith(":code")
    with pytest.raises(InvalidInputError, match="prompt_class must be one of"):
        class_prompts("poetry", 2)
    assert PROMPT_CLASSES == {"chat": True, "text": False, "code": False}


class _Tok:
    chat_template = "yes"

    def apply_chat_template(self, messages, tokenize, add_generation_prompt):
        return "<chat>" + messages[0]["content"]

    def encode(self, text, add_special_tokens=True):
        return [ord(c) % 50 + 2 for c in text[:12]]


def test_only_chat_prompts_are_templated():
    engines = EnginePair(target=None, drafter=None, tokenizer=_Tok())
    _, chat = prompt_ids(engines, 2, chat=True, seed=0, prompt_class="chat")
    ids, code = prompt_ids(engines, 2, chat=True, seed=0, prompt_class="code")
    assert chat["chat_template"] and not code["chat_template"] and code["prompt_class"] == "code"
    assert ids[0] == _Tok().encode(class_entries("code")[0]["prompt"])
