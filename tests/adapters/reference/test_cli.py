"""`minedraft generate` end to end on a tiny model directory with its own tokenizer."""

from __future__ import annotations

import json

from minedraft.cli import main


def _run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_generate_modes_agree(model_dir, capsys):
    texts = {}
    for mode in ("ar", "sd", "psd"):
        code, out, _ = _run(capsys, "generate", "--target", str(model_dir), "--draft", str(model_dir), "--mode", mode,
                            "--dtype", "float64", "--max-new-tokens", "12", "--json", "w3 w5 w7", "w11")
        assert code == 0
        rows = [json.loads(line) for line in out.splitlines()]
        assert [r["finish_reason"] for r in rows] and all(r["error"] is None for r in rows)
        texts[mode] = [r["token_ids"] for r in rows]
    assert texts["ar"] == texts["sd"] == texts["psd"]


def test_generate_reports_bad_input_with_exit_code_2(model_dir, capsys):
    code, _, err = _run(capsys, "generate", "--target", str(model_dir), "--draft", str(model_dir), "--mode", "sd",
                        "-k", "0", "w3")
    assert code == 2
    assert "num_speculative_tokens must be an int >= 1, got 0" in err
    code, _, err = _run(capsys, "generate", "--target", str(model_dir / "missing.gguf"), "--mode", "ar", "w3")
    assert code == 2 and "does not exist" in err
