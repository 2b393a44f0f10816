"""The stand-ins against the pinned release's signatures.

``upstream_signatures_v1.2.1.json`` was extracted from TensorRT-LLM's source by
``scripts/trtllm_signatures.py``. Every stand-in of a symbol in it must have the same
parameters (names, kinds, defaults), or, for config classes, the same fields: a stand-in
that drifts from the release it models fails here.
"""

from __future__ import annotations

import ast
import importlib.util
import inspect
import json
import subprocess
from pathlib import Path

import pytest

import trtllm_standins as trt

HERE = Path(__file__).parent
SNAPSHOT = json.loads((HERE / f"upstream_signatures_v{trt.RELEASE}.json").read_text())
SCRIPT = HERE.parents[2] / "scripts" / "trtllm_signatures.py"


def _standin(key: str):
    path, qualname = key.split("::")
    module = {v: k for k, v in trt.UPSTREAM_FILES.items()}[path]
    obj = trt.build_modules()[module]
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def _default(text: str):
    try:
        return ast.literal_eval(text)
    except ValueError:  # e.g. BuildConfig.max_beam_width: evaluate it against the stand-ins
        return eval(text, vars(trt))  # noqa: S307 - text from our own snapshot


def test_snapshot_is_for_the_release_the_standins_model():
    assert SNAPSHOT["release"] == trt.RELEASE
    paths = {key.split("::")[0] for key in SNAPSHOT["symbols"]}
    assert paths == set(trt.UPSTREAM_FILES.values())


@pytest.mark.parametrize("key", sorted(SNAPSHOT["symbols"]))
def test_standin_matches_the_upstream_signature(key):
    entry, obj = SNAPSHOT["symbols"][key], _standin(key)
    if entry["kind"] == "fields":
        own = obj.OWN_FIELDS
        assert list(own) == [f["name"] for f in entry["fields"]]
        for f in entry["fields"]:
            if "default" in f:
                assert own[f["name"]] == _default(f["default"]), f["name"]
            else:
                assert own[f["name"]] is trt.REQUIRED, f"{f['name']} has no default upstream"
        return
    params = list(inspect.signature(obj).parameters.values())
    assert [(p.name, p.kind.name) for p in params] == [(p["name"], p["kind"]) for p in entry["params"]]
    for mine, theirs in zip(params, entry["params"]):
        if "default" in theirs:
            assert mine.default is not inspect.Parameter.empty, f"{mine.name} needs a default"
            assert mine.default == _default(theirs["default"]), mine.name
        else:
            assert mine.default is inspect.Parameter.empty, f"{mine.name} has no default upstream"


def test_the_adapters_calls_bind_to_the_pinned_signatures():
    """The calls the adapter makes, bound against the snapshot's parameter lists."""
    def signature(key: str) -> inspect.Signature:
        params = SNAPSHOT["symbols"][key]["params"]
        return inspect.Signature([inspect.Parameter(p["name"], getattr(inspect.Parameter, p["kind"]),
                                                    default=None if "default" in p else inspect.Parameter.empty)
                                  for p in params])

    signature("tensorrt_llm/commands/serve.py::launch_server").bind("localhost", 8000, {})
    signature("tensorrt_llm/commands/serve.py::get_llm_args").bind(model="m")
    signature("tensorrt_llm/llmapi/llm_utils.py::update_llm_args_with_extra_dict").bind({}, {})
    signature("tensorrt_llm/_torch/speculative/drafter.py::Drafter.__init__").bind(
        None, max_draft_len=4, max_total_draft_tokens=4, max_concurrency=None, draft_len_schedule=None)


def _load_script():
    spec = importlib.util.spec_from_file_location("trtllm_signatures", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_extractor_reads_a_tree_and_a_git_tag(tmp_path, monkeypatch):
    script = _load_script()
    monkeypatch.setattr(script, "SYMBOLS", [("pkg/a.py", "C.f", "function"), ("pkg/a.py", "Cfg", "fields"),
                                            ("pkg/a.py", "g", "function")])
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text(
        "class C:\n    def f(self, a, b: int = 2, *args, c=None, **kw):\n        pass\n"
        "class Cfg(Base):\n    x: int = Field(default=3)\n    y: object = Field(description='d')\n    z: str = 'q'\n"
        "def g(p, /, q=BuildConfig.v):\n    ...\n")
    out = tmp_path / "snap.json"
    assert script.main(["--source", str(tmp_path), "--release", "9.9", "--out", str(out)]) == 0
    snap = json.loads(out.read_text())["symbols"]
    f = snap["pkg/a.py::C.f"]["params"]
    assert [(p["name"], p["kind"], p.get("default")) for p in f] == [
        ("self", "POSITIONAL_OR_KEYWORD", None), ("a", "POSITIONAL_OR_KEYWORD", None),
        ("b", "POSITIONAL_OR_KEYWORD", "2"), ("args", "VAR_POSITIONAL", None), ("c", "KEYWORD_ONLY", "None"),
        ("kw", "VAR_KEYWORD", None)]
    assert snap["pkg/a.py::Cfg"]["fields"] == [{"name": "x", "default": "3"}, {"name": "y"},
                                                {"name": "z", "default": "'q'"}]
    assert [p["kind"] for p in snap["pkg/a.py::g"]["params"]] == ["POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD"]
    assert snap["pkg/a.py::g"]["params"][1]["default"] == "BuildConfig.v"

    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(git[:3] + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "pkg"], check=True)
    subprocess.run(git + ["commit", "-qm", "x"], check=True)
    subprocess.run(git + ["tag", "v9.9"], check=True)
    out2 = tmp_path / "snap2.json"
    assert script.main(["--git-dir", str(tmp_path / ".git"), "--ref", "v9.9", "--release", "9.9",
                        "--out", str(out2)]) == 0
    assert json.loads(out2.read_text())["symbols"] == snap
    assert script.main(["--source", str(tmp_path / "missing"), "--release", "9.9"]) == 1
