"""Mode options: one options dataclass per mode, reached the same way from every entry point."""

from __future__ import annotations

import pytest

from minedraft import InvalidInputError, SchedulerConfig, create_scheduler
from minedraft.bench import BenchConfig
from minedraft.cli import build_parser
from minedraft.cli_options import mode_options
from minedraft.schedulers import SCHEDULERS
from minedraft.schedulers.flex import FlexOptions
from minedraft.schedulers.options import DraftOptions, ModeOptions, PSDOptions
from minedraft.schedulers.smc import SMCOptions
from minedraft.schedulers.tree import TreeOptions

from fake_engines import FakeDrafter, FakeTarget


def test_every_mode_declares_its_options():
    want = {"ar": ModeOptions, "sd": DraftOptions, "psd": PSDOptions, "flex": FlexOptions, "tree": TreeOptions,
            "tree-psd": TreeOptions, "smc": SMCOptions, "smc-psd": SMCOptions}
    assert {mode: cls.options_class for mode, cls in SCHEDULERS.items()} == want


def test_an_option_of_another_mode_is_refused_naming_it():
    with pytest.raises(InvalidInputError, match=r"tree_branches is not an option of mode 'sd' \(it takes: "
                                                r"draft_confidence_threshold\), got tree_branches=2"):
        create_scheduler("sd", FakeTarget(), FakeDrafter(), SchedulerConfig(), {"tree_branches": 2})
    with pytest.raises(InvalidInputError, match="extra_proposals is not an option of mode 'ar' .it takes: no options"):
        create_scheduler("ar", FakeTarget(), None, SchedulerConfig(), {"extra_proposals": 1})
    with pytest.raises(InvalidInputError, match="mode 'tree' takes TreeOptions, got SMCOptions"):
        TreeOptions.build("tree", SMCOptions())


@pytest.mark.parametrize("options, message", [
    (PSDOptions(extra_proposals=2, verify_budget=5), None),
    ({"extra_proposals": -1}, "extra_proposals must be an int >= 0, got -1"),
    ({"verify_budget": 0}, "verify_budget must be an int >= 1 or None, got 0"),
    ({"draft_confidence_threshold": 1.0}, r"draft_confidence_threshold must be a number in \(0, 1\) or None, got 1.0"),
])
def test_psd_options_are_validated_in_one_place(options, message):
    if message is None:
        sched = create_scheduler("psd", FakeTarget(), FakeDrafter(), SchedulerConfig(lanes="inline"), options)
        assert (sched.extra_proposals, sched.verify_budget, sched.k_proposed) == (2, 5, 4 + 2)
        sched.close()
    else:
        with pytest.raises(InvalidInputError, match=message):
            create_scheduler("psd", FakeTarget(), FakeDrafter(), SchedulerConfig(), options)


def test_flex_settings_reach_the_policy_and_the_policy_lives_in_the_callers_memory():
    memory: dict = {}
    config = SchedulerConfig(num_speculative_tokens=3)
    first = create_scheduler("flex", FakeTarget(), FakeDrafter(), config, {"patience": 7, "ks": (2, 3)}, memory)
    again = create_scheduler("flex", FakeTarget(), FakeDrafter(), config, {"patience": 7, "ks": (2, 3)}, memory)
    other = create_scheduler("flex", FakeTarget(), FakeDrafter(), config, {"patience": 2}, memory)
    fresh = create_scheduler("flex", FakeTarget(), FakeDrafter(), config, {"patience": 7, "ks": (2, 3)})
    assert first.policy.settings.patience == 7 and first.policy.ks == (2, 3)
    assert again.policy is first.policy and other.policy is not first.policy and fresh.policy is not first.policy
    assert len(memory) == 2
    for sched in (first, again, other, fresh):
        sched.close()
    with pytest.raises(InvalidInputError, match="FlexSettings.patience must be an int >= 1, got 0"):
        FlexOptions(patience=0)


def test_cli_flags_are_generated_from_the_option_fields():
    parser = build_parser()
    args = parser.parse_args(["generate", "--mode", "tree", "--tree-branches", "2", "--tree-branch-tokens", "3", "hi"])
    assert mode_options(args) == {"tree_branches": 2, "tree_branch_tokens": 3}
    args = parser.parse_args(["generate", "--mode", "flex", "--flex-ks", "2,4", "--no-flex-warmup",
                              "--flex-schedule", "psd:3,ar:0", "--extra-proposals", "1", "--smc-num-particles",
                              "8", "hi"])
    assert mode_options(args) == {"ks": (2, 4), "warmup": False, "schedule": (("psd", 3), ("ar", 0)),
                                  "extra_proposals": 1, "num_particles": 8}
    assert mode_options(parser.parse_args(["generate", "hi"])) == {}  # nothing given, nothing passed


def test_cli_generate_hands_the_options_to_llm(monkeypatch, capsys):
    import minedraft.api
    from minedraft.cli import main

    seen = {}

    class Stop(Exception):
        pass

    def fake_llm(*args, **kwargs):
        seen.update(kwargs)
        raise Stop

    monkeypatch.setattr(minedraft.api, "LLM", fake_llm)
    with pytest.raises(Stop):
        main(["generate", "--mode", "tree", "--tree-branches", "2", "-k", "3", "hi"])
    assert seen["mode"] == "tree" and seen["tree_branches"] == 2 and seen["num_speculative_tokens"] == 3
    assert "extra_proposals" not in seen and "draft_confidence_threshold" not in seen
    monkeypatch.undo()
    # The real LLM refuses a wrong-mode flag before loading any weights.
    assert main(["generate", "--mode", "sd", "--target", "no-such-model", "--tree-branches", "2", "hi"]) == 2
    assert "tree_branches is not an option of mode 'sd'" in capsys.readouterr().err


def test_bench_passes_each_mode_the_options_it_takes():
    cfg = BenchConfig(modes=("sd", "tree", "psd"), scheduler_options={"tree_branches": 2, "extra_proposals": 1},
                      calibrate=False)
    assert cfg.options_for("sd") == {}
    assert cfg.options_for("tree") == {"tree_branches": 2}
    assert cfg.options_for("psd") == {"extra_proposals": 1}
    with pytest.raises(InvalidInputError, match=r"tree_branches is not an option of any mode of this run \['sd'\]"):
        BenchConfig(modes=("sd",), scheduler_options={"tree_branches": 2})
    with pytest.raises(InvalidInputError, match="tree_branches must be an int >= 0, got -2"):
        BenchConfig(modes=("tree",), scheduler_options={"tree_branches": -2})


def test_bench_cli_flags_reach_the_config():
    from minedraft.commands.bench import config_from_args

    args = build_parser().parse_args(["bench", "--modes", "sd,tree", "--tree-branches", "2"])
    cfg = config_from_args(args)
    assert cfg.scheduler_options == {"tree_branches": 2} and cfg.options_for("tree") == {"tree_branches": 2}
