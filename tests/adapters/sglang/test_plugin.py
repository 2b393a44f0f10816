"""Plugin discovery, the SGLANG_PLUGINS allowlist, and the spec class's interface."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.metadata import entry_points

import pytest

pytest.importorskip("sglang")

from minedraft.adapters.sglang.config import (
    ENV_ALLOW_UNTESTED,
    SUPPORTED_SGLANG_VERSIONS,
    check_sglang_version,
)


def test_entry_point_is_declared_in_sglang_plugin_group():
    eps = {ep.name: ep.value for ep in entry_points(group="sglang.srt.plugins")}
    assert eps.get("minedraft") == "minedraft.adapters.sglang.plugin:register"


@pytest.mark.parametrize("allow, loaded", [(None, True), ("minedraft", True), ("some_other_plugin", False)])
def test_sglang_discovery_honours_the_allowlist(monkeypatch, allow, loaded):
    from sglang.srt.plugins import GENERAL_PLUGINS_GROUP, load_plugins_by_group

    if allow is None:
        monkeypatch.delenv("SGLANG_PLUGINS", raising=False)
    else:
        monkeypatch.setenv("SGLANG_PLUGINS", allow)
    plugins = load_plugins_by_group(GENERAL_PLUGINS_GROUP)
    assert ("minedraft" in plugins) is loaded
    if loaded:
        from minedraft.adapters.sglang.plugin import register

        assert plugins["minedraft"][0] is register


def test_load_plugins_registers_the_algorithm_only_when_allowed():
    """End to end in fresh processes, as SGLang's launcher and schedulers do it."""
    code = (
        "from sglang.srt.plugins import load_plugins; load_plugins()\n"
        "from sglang.srt.speculative.spec_info import SpeculativeAlgorithm\n"
        "try:\n    print(type(SpeculativeAlgorithm.from_string('minedraft')).__name__)\n"
        "except ValueError as e:\n    print('ERR', e)\n"
    )
    out = {}
    for allow in ("minedraft", "not_minedraft"):
        env = dict(os.environ, SGLANG_PLUGINS=allow)
        proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr[-2000:]
        out[allow] = proc.stdout.strip().splitlines()[-1]
    assert out["minedraft"] == "MineDraftSpecAlgo"
    assert out["not_minedraft"].startswith("ERR Unknown speculative algorithm name")


def test_register_is_idempotent(registered):
    from sglang.srt.speculative.spec_info import SpeculativeAlgorithm

    from minedraft.adapters.sglang.plugin import register

    before = SpeculativeAlgorithm.from_string("MINEDRAFT")
    register()
    assert SpeculativeAlgorithm.from_string("minedraft") is before


def test_spec_class_supplies_every_method_the_builtin_algorithms_have(registered):
    """Scheduler, model runner and workers call these on whatever from_string returns."""
    from sglang.srt.speculative.spec_info import SpeculativeAlgorithm

    algo = SpeculativeAlgorithm.from_string("MINEDRAFT")
    interface = {
        name for name, value in vars(SpeculativeAlgorithm).items()
        if callable(value) and not name.startswith("_") and name not in ("from_string", "register")
    }
    missing = sorted(name for name in interface if not callable(getattr(algo, name, None)))
    assert missing == []
    assert algo.is_standalone() and algo.need_topk() and algo.has_draft_kv()
    assert not algo.is_eagle() and not algo.carries_draft_hidden_states() and not algo.supports_mixed_chunk()
    assert algo.get_platform_worker_cls() is None


def test_version_check_fails_clearly_on_untested_releases():
    check_sglang_version(SUPPORTED_SGLANG_VERSIONS[0], environ={})
    with pytest.raises(RuntimeError, match=r"supports sglang 0\.5\.23.*0\.5\.17 is installed"):
        check_sglang_version("0.5.17", environ={})
    check_sglang_version("0.5.17", environ={ENV_ALLOW_UNTESTED: "1"})  # explicit opt-in


def test_installed_sglang_is_a_supported_release():
    from minedraft.adapters.sglang.plugin import installed_sglang_version

    assert installed_sglang_version() in SUPPORTED_SGLANG_VERSIONS
