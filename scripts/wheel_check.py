"""Checks an installed (non-editable) minedraft wheel: run it with the venv's python from a
directory outside the repository (scripts/wheel_check.sh does), so only the installed
package can be imported.

- the package is imported from site-packages, not from a source tree;
- every file of the source roots (``common/``, ``adapters/``) is installed, data-only folders
  included, when the sources are given (``--source DIR``; scripts/wheel_check.sh passes them);
- the package data loads (prompt sets, draft weights);
- the ``minedraft.commands`` and ``sglang.srt.plugins`` entry points load;
- ``minedraft --help`` and a short ``minedraft generate`` in every registered mode run
  (the modes come from the installed package's scheduler registry) on a tiny random-init
  model with its own tokenizer, written to a temporary directory; the exact modes' greedy
  tokens must equal ar's.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from importlib.metadata import entry_points
from pathlib import Path

WORDS = ["[UNK]", "[EOS]"] + [f"w{i}" for i in range(94)]


def check_installed_copy() -> None:
    import minedraft

    where = Path(minedraft.__file__).resolve()
    site = Path(sysconfig.get_paths()["purelib"]).resolve()
    if site not in where.parents:
        sys.exit(f"minedraft was imported from {where}, not from the installed wheel under {site}")
    print(f"ok: minedraft imported from the installed wheel ({where.parent.name}/ in site-packages)")


def check_every_file_ships(source: Path) -> None:
    """The wheel holds everything an editable install would: each file under ``common/`` and
    ``adapters/`` of the sources it was built from, at its package path."""
    import minedraft
    import minedraft.adapters

    installed = {"common": Path(minedraft.__file__).parent, "adapters": Path(minedraft.adapters.__file__).parent}
    missing = []
    for root, dest in installed.items():
        for path in (source / root).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                if not (dest / path.relative_to(source / root)).is_file():
                    missing.append(str(path.relative_to(source)))
    if missing:
        sys.exit(f"the wheel lacks {len(missing)} source file(s): {sorted(missing)[:10]}")
    print(f"ok: every file under common/ and adapters/ of {source.name}/ is installed")


def check_package_data() -> None:
    """The data files ship: held-out prompts (core), training prompts and the draft (adapter)."""
    from minedraft import prompts
    from minedraft.adapters.reference import distill_prompts, embedded

    train = distill_prompts.training_prompts()
    if not train or len(train) != sum(distill_prompts.category_counts().values()):
        sys.exit("the wheel's training prompts (distill_data/) are missing or incomplete")
    if not prompts.bench_prompts(8):
        sys.exit("the wheel's held-out prompts (data/) are missing")
    if not (embedded.WEIGHTS_DIR / "model.safetensors").is_file():
        sys.exit("the wheel lacks the shipped draft weights")
    print(f"ok: package data: {len(train)} training prompts, {len(prompts.heldout_prompts())} held-out, draft weights")


def check_entry_points() -> None:
    for group, required in (("minedraft.commands", {"distill", "serve-trtllm"}),
                            ("sglang.srt.plugins", {"minedraft"}),
                            ("minedraft.backends", {"reference"})):
        eps = {ep.name: ep for ep in entry_points(group=group)}
        missing = required - set(eps)
        if missing:
            sys.exit(f"entry point group {group!r} lacks {sorted(missing)} (has {sorted(eps)})")
        for name in sorted(required):
            obj = eps[name].load()
            if not callable(obj):
                sys.exit(f"entry point {group}:{name} loaded {obj!r}, which is not callable")
            print(f"ok: entry point {group}:{name} -> {eps[name].value}")


def tiny_model(path: Path) -> None:
    """A 2-layer random-init Llama with a word-level tokenizer, saved as safetensors."""
    import torch
    from tokenizers import Tokenizer
    from tokenizers.models import WordLevel
    from tokenizers.pre_tokenizers import Whitespace
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    torch.manual_seed(0)
    cfg = LlamaConfig(vocab_size=len(WORDS), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=256,
                      bos_token_id=0, eos_token_id=1, pad_token_id=0)
    LlamaForCausalLM(cfg).eval().save_pretrained(path)
    backend = Tokenizer(WordLevel({w: i for i, w in enumerate(WORDS)}, unk_token="[UNK]"))
    backend.pre_tokenizer = Whitespace()
    PreTrainedTokenizerFast(tokenizer_object=backend, unk_token="[UNK]", eos_token="[EOS]").save_pretrained(path)


def run(cmd: list[str]) -> str:
    proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "OMP_NUM_THREADS": "1"})
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}")
    return proc.stdout


def check_cli(model: Path) -> None:
    from minedraft.schedulers import SCHEDULERS

    exe = shutil.which("minedraft")
    if exe is None:
        sys.exit("the wheel installed no 'minedraft' command")
    out = run([exe, "--help"])
    if "generate" not in out or "distill" not in out:
        sys.exit(f"minedraft --help lists no generate/distill subcommand:\n{out}")
    print("ok: minedraft --help")
    greedy: dict[str, list[list[int]]] = {}
    for mode in sorted(SCHEDULERS):
        out = run([exe, "generate", "--target", str(model), "--draft", str(model), "--mode", mode,
                   "--dtype", "float32", "--max-new-tokens", "6", "--json", "w3 w5 w7", "w11"])
        rows = [json.loads(line) for line in out.splitlines()]
        if len(rows) != 2 or any(r["error"] or len(r["token_ids"]) != 6 for r in rows):
            sys.exit(f"minedraft generate --mode {mode} gave {rows}")
        greedy[mode] = [r["token_ids"] for r in rows]
        print(f"ok: minedraft generate --mode {mode}: {greedy[mode]}")
    differ = [m for m in greedy if SCHEDULERS[m].exact and greedy[m] != greedy["ar"]]
    if differ:
        sys.exit(f"greedy output of {differ} differs from ar's")
    print("ok: every exact mode's greedy output equals ar's")


def main() -> None:
    check_installed_copy()
    if sys.argv[1:2] == ["--source"]:
        check_every_file_ships(Path(sys.argv[2]))
    check_package_data()
    check_entry_points()
    with tempfile.TemporaryDirectory(prefix="minedraft-wheel-model-") as tmp:
        tiny_model(Path(tmp))
        check_cli(Path(tmp))


if __name__ == "__main__":
    main()
