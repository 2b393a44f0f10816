"""A corrupt or truncated weights file fails with an InvalidInputError that names the file
and says what is wrong, before anything else is built, not with a loader's traceback."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import torch

from minedraft.adapters.reference import draft_models, embedded
from minedraft.adapters.reference.loading import load_causal_lm
from minedraft.api import LLM
from minedraft.cli import main
from minedraft.types import InvalidInputError

from conftest import tiny_llama


def _truncate(path: Path, keep: float = 0.5) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * keep)])


@pytest.fixture
def truncated_dir(tmp_path):
    path = tmp_path / "model"
    tiny_llama().save_pretrained(path)
    _truncate(path / "model.safetensors")
    return path


def test_truncated_target_weights_name_the_file(truncated_dir):
    weights = str(truncated_dir / "model.safetensors")
    with pytest.raises(InvalidInputError, match="corrupt or truncated") as err:
        LLM(str(truncated_dir), mode="ar")
    assert weights in str(err.value) and str(err.value).startswith("target:")
    with pytest.raises(InvalidInputError, match="incomplete metadata"):
        load_causal_lm(truncated_dir, field_name="target")


def test_truncated_weights_through_the_cli_exit_2_without_a_traceback(truncated_dir, capsys):
    code = main(["generate", "--target", str(truncated_dir), "--mode", "ar", "w1"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert "corrupt or truncated" in err and str(truncated_dir / "model.safetensors") in err


def test_truncated_draft_weights_name_the_file(tmp_path, truncated_dir):
    # a transformers draft directory, and a minedraft draft (the shipped one, cut short)
    with pytest.raises(InvalidInputError, match="draft: weights file .* is corrupt or truncated"):
        draft_models.load_draft_model(truncated_dir, dtype=torch.float32, device="cpu")
    draft = tmp_path / "draft"
    draft.mkdir()
    shutil.copy(embedded.WEIGHTS_DIR / "config.json", draft)
    (draft / draft_models.WEIGHTS_NAME).write_bytes(
        (embedded.WEIGHTS_DIR / draft_models.WEIGHTS_NAME).read_bytes()[:100_000])
    with pytest.raises(InvalidInputError, match="corrupt or truncated") as err:
        draft_models.load_draft_model(draft, dtype=torch.float32, device="cpu", target=torch.nn.Linear(1, 1))
    assert str(draft / draft_models.WEIGHTS_NAME) in str(err.value)


def test_overwritten_safetensors_header_is_reported(tmp_path):
    path = tmp_path / "model"
    tiny_llama().save_pretrained(path)
    (path / "model.safetensors").write_bytes(b"not a safetensors file at all" * 10)
    with pytest.raises(InvalidInputError, match="corrupt or truncated.*header"):
        load_causal_lm(path)


def test_corrupt_gguf_files_name_the_file(tmp_path):
    import gguf
    import numpy as np

    garbage = tmp_path / "garbage.gguf"
    garbage.write_bytes(b"GGUF\x03\x00")
    with pytest.raises(InvalidInputError, match="is not a GGUF file") as err:
        load_causal_lm(garbage, field_name="target")
    assert str(garbage) in str(err.value)

    whole = tmp_path / "whole.gguf"
    writer = gguf.GGUFWriter(str(whole), "llama")
    writer.add_block_count(1)
    writer.add_tensor("token_embd.weight", np.zeros((96, 64), dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(whole.read_bytes()[:-4096])
    with pytest.raises(InvalidInputError, match="could not be read.*truncated or corrupt") as err:
        load_causal_lm(cut, field_name="target")
    assert str(cut) in str(err.value)


def test_a_broken_draft_config_is_named(tmp_path):
    import json

    draft = tmp_path / "draft"
    draft.mkdir()
    shutil.copy(embedded.WEIGHTS_DIR / draft_models.WEIGHTS_NAME, draft)
    config = json.loads((embedded.WEIGHTS_DIR / "config.json").read_text())
    load = lambda: draft_models.load_draft_model(draft, dtype=torch.float32, device="cpu",  # noqa: E731
                                                 target=torch.nn.Linear(1, 1))
    for text, message in [("{", r"config.json' cannot be read as JSON"),
                          (json.dumps({**config, "num_layers": "1"}), r"draft config num_layers must be an int >= 1, got '1'"),
                          (json.dumps({**config, "hidden_size": 64}), r"draft weights in .* do not match its config")]:
        (draft / "config.json").write_text(text)
        with pytest.raises(InvalidInputError, match=message):
            load()
