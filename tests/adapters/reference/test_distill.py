"""``minedraft distill`` pieces on tiny float64 models: data generation, shards, the token
map, training, and the held-out acceptance estimate against the real SD engine."""

from __future__ import annotations

import os

import pytest
import torch

from minedraft import InvalidInputError, SamplingParams
from minedraft.adapters.reference import distill
from minedraft.adapters.reference import draft_models as dm
from minedraft.cli import main
from minedraft.rules.cost_model import expected_tokens

from conftest import build_pair, generate, tiny_llama

PROMPT_IDS = [[5, 6, 7, 8], [11, 12], [20, 21, 22, 23, 24, 25], [3], [40, 41, 42]]


@pytest.fixture(scope="module")
def target():
    return tiny_llama(layers=2, hidden=64, seed=0)


@pytest.fixture(scope="module")
def sequences(target):
    gen = torch.Generator().manual_seed(0)
    greedy = distill.generate_batch(target, PROMPT_IDS, max_new_tokens=12, temperature=0.0, eos_id=None,
                                    pad_id=0, generator=gen)
    sampled = distill.generate_batch(target, PROMPT_IDS, max_new_tokens=12, temperature=1.0, eos_id=None,
                                     pad_id=0, generator=gen)
    return greedy, sampled


def test_generated_data_is_the_targets_greedy_answer_with_its_features(target, sequences):
    greedy, _ = sequences
    outs, _ = generate(build_pair(target, None), "ar", PROMPT_IDS, SamplingParams(temperature=0.0, max_new_tokens=12, ignore_eos=True))
    for (toks, hidden, plen), out, prompt in zip(greedy, outs, PROMPT_IDS):
        assert plen == len(prompt) and toks[:plen] == prompt
        assert toks[plen:] == out.token_ids  # left padding changes nothing
        with torch.no_grad():
            full = target.model(input_ids=torch.tensor([toks]))[0][0]  # [n, hidden]
        assert hidden.shape == full.shape and not hidden[-1].any()
        torch.testing.assert_close(hidden[:-1].float(), full[:-1].float(), atol=0.05, rtol=0.02)  # stored as bf16


def test_shards_round_trip(tmp_path, sequences):
    greedy, _ = sequences
    distill.save_shard(tmp_path / "shard-00000.safetensors", greedy)
    loaded = distill.load_shards(tmp_path)
    assert len(loaded) == len(greedy)
    for (toks, h, plen), (t2, h2, p2) in zip(greedy, loaded):
        assert t2.tolist() == toks and p2 == plen and torch.equal(h2, h)


def test_token_map_prefers_answer_tokens_and_keeps_eos(sequences):
    greedy, _ = sequences
    seqs = [(torch.tensor(t), h, p) for t, h, p in greedy]
    answer = torch.cat([t[p:] for t, _, p in seqs]).unique()
    tm = distill.choose_token_map(seqs, len(answer) + 3, 96, always=[1], texts=[[90, 90, 91]])
    assert tm is not None and tm.numel() == len(answer) + 3
    assert torch.isin(answer, tm).all() and 1 in tm.tolist()
    assert {90, 91} <= set(tm.tolist())  # text tokens come next
    assert distill.choose_token_map(seqs, 0, 96) is None


def test_implied_alpha_inverts_expected_tokens():
    for alpha in (0.1, 0.45, 0.8):
        assert distill.implied_alpha(expected_tokens(alpha, 4), 4) == pytest.approx(alpha, abs=1e-6)


@pytest.fixture(scope="module")
def trained(target, sequences, tmp_path_factory):
    """A tiny EAGLE draft trained for a few seconds on the target's answers."""
    greedy, sampled = sequences
    data = tmp_path_factory.mktemp("data")
    distill.save_shard(data / "shard-00000.safetensors", greedy + sampled)
    seqs = distill.load_shards(data)
    torch.manual_seed(0)
    cfg = dm.DraftConfig.for_target(target, "eagle", num_layers=1)
    model = dm.build_draft(cfg, target, token_map=distill.choose_token_map(seqs, 48, 96), copy_layers=[1])
    before = distill.acceptance(model, target.lm_head.weight, seqs[:5], seqs[5:], 3)
    history = distill.train(model, data, minutes=5, max_steps=120, lr=3e-3, batch_size=4, unroll=3, log=lambda m: None)
    return model, seqs, before, history


def test_training_raises_agreement(target, trained):
    model, seqs, before, history = trained
    after = distill.acceptance(model, target.lm_head.weight, seqs[:5], seqs[5:], 3)
    assert history["steps"] == 120
    assert after["greedy"]["first_token_agreement"] > before["greedy"]["first_token_agreement"] + 0.2
    # (T = 1: the tiny target's p is nearly uniform, so sum min(p, q) is ~p(subset) either way.)
    assert all(0 < b <= 1 for b in after["t1"]["sum_min_p_q_per_position"])
    g = after["greedy"]
    assert 0 <= g["accepted_per_proposed"] <= 1 and 1 <= g["tokens_per_step"] <= 4


def test_held_out_estimate_matches_the_real_sd_engine(target, trained, sequences):
    """The chain estimate and real greedy SD agree window by window: every SD verification
    accepts exactly as many drafts as the estimate predicts at that committed length."""
    model, _, _, _ = trained
    greedy, _ = sequences
    k = 3
    pair = build_pair(target, model)
    outs, llm = generate(pair, "sd", PROMPT_IDS, SamplingParams(temperature=0.0, max_new_tokens=12, ignore_eos=True),
                         num_speculative_tokens=k, max_batch_size=1)
    steps = llm.last_trace.steps
    i = 0
    for (toks, hidden, plen), out in zip(greedy, outs):
        assert toks[plen:] == out.token_ids
        logits, _, _ = distill.draft_predictions(model, (torch.tensor(toks), hidden, plen), k)
        correct = [(logits[s][:-1].argmax(-1) == torch.tensor(toks[1:])) for s in range(k)]
        committed = plen
        while committed < len(toks):
            step = steps[i]
            i += 1
            m = 0
            while m < step.proposed and bool(correct[m][committed - 1 + m]):
                m += 1
            assert step.accepted == m
            committed += step.emitted
    assert i == len(steps) and sum(s.accepted for s in steps) > 0


@pytest.mark.parametrize(("argv", "message"), [
    (["--minutes", "-1"], "--minutes must be a finite number >= 0, got -1"),
    (["--minutes", "nan"], "--minutes must be a finite number >= 0, got nan"),
    (["--data-minutes", "inf"], "--data-minutes must be a finite number >= 0, got inf"),
    (["--lr", "-1"], "--lr must be a finite number > 0, got -1"),
    (["--lr", "0"], "--lr must be a finite number > 0, got 0"),
    (["--num-prompts", "0"], "--num-prompts must be >= 1, got 0"),
    (["--eval-prompts", "0"], "--eval-prompts must be >= 1, got 0"),
])
def test_cli_rejects_bad_numbers(capsys, tmp_path, argv, message):
    assert main(["distill", "--out", str(tmp_path), *argv]) == 2
    assert message in capsys.readouterr().err


def test_cli_never_replaces_or_scores_a_draft_it_was_not_told_to(capsys, trained, tmp_path):
    # Both are refused before any model loads (the default target is the embedded one).
    model, *_ = trained
    model.save(tmp_path / "draft")
    for stage in ("all", "train"):
        assert main(["distill", "--out", str(tmp_path / "draft"), "--stage", stage]) == 2
        assert "already holds a draft: pass --resume" in capsys.readouterr().err
    assert main(["distill", "--out", str(tmp_path / "empty"), "--stage", "eval"]) == 2
    assert "--stage eval: no draft in --out" in capsys.readouterr().err
    assert not (tmp_path / "empty").exists()


def test_cli_rejects_bad_budgets(capsys, tmp_path):
    assert main(["distill", "--out", str(tmp_path), "--copy-layers", "a,b"]) == 2
    assert "--copy-layers must be comma-separated integers" in capsys.readouterr().err


def test_standalone_training_raises_agreement(target, sequences, tmp_path):
    greedy, sampled = sequences
    distill.save_shard(tmp_path / "shard-00000.safetensors", greedy + sampled)
    seqs = distill.load_shards(tmp_path)
    torch.manual_seed(0)
    cfg = dm.DraftConfig.for_target(target, "standalone", num_layers=1)
    model = dm.build_draft(cfg, target, copy_layers=[0])
    before = distill.acceptance(model, target.lm_head.weight, seqs[:5], seqs[5:], 2)["greedy"]
    distill.train(model, tmp_path, minutes=5, max_steps=60, lr=3e-3, batch_size=4, log=lambda m: None)
    after = distill.acceptance(model, target.lm_head.weight, seqs[:5], seqs[5:], 2)["greedy"]
    assert after["first_token_agreement"] > before["first_token_agreement"] + 0.2


def test_remap_tokens_keeps_trained_weights_and_changes_only_the_subset(target, trained, tmp_path):
    model, seqs, _, _ = trained
    cfg = dm.DraftConfig.for_target(target, "eagle", num_layers=1)
    copy = dm.build_draft(cfg, target, token_map=model.lm_head.token_map, copy_layers=[1])
    copy.load_state_dict(model.state_dict())
    new_map = distill.choose_token_map(seqs, 64, 96)
    copy.remap_tokens(new_map, target)
    assert torch.equal(copy.lm_head.token_map, new_map) and copy.draft_config.token_map_size == 64
    assert torch.equal(copy.lm_head.weight_sub, target.lm_head.weight[new_map])
    trained_keys = [k for k in model.state_dict() if not k.startswith("lm_head")]
    assert all(torch.equal(copy.state_dict()[k], model.state_dict()[k]) for k in trained_keys)
    # the full-vocabulary logits agree with the old head on the tokens both subsets hold
    x = torch.randn(3, cfg.hidden_size, dtype=torch.float64)
    both = torch.tensor(sorted(set(new_map.tolist()) & set(model.lm_head.token_map.tolist())))
    assert torch.allclose(copy.lm_head(x)[:, both], model.lm_head(x)[:, both])
    assert torch.isinf(copy.lm_head(x)[:, [t for t in range(96) if t not in set(new_map.tolist())]]).all()


def test_cli_remap_tokens_needs_resume(capsys, tmp_path):
    assert main(["distill", "--out", str(tmp_path), "--remap-tokens"]) == 2
    assert "--remap-tokens applies to --resume only" in capsys.readouterr().err


def test_resume_grows_but_never_shrinks_the_draft():
    from argparse import Namespace

    assert distill._grown_layers(Namespace(num_layers=2, copy_layers=None), 1, 30) == [29]
    assert distill._grown_layers(Namespace(num_layers=3, copy_layers="-2,28"), 1, 30) == [28, 28]
    with pytest.raises(InvalidInputError, match="--num-layers 1 with --resume: the draft has 2 layers"):
        distill._grown_layers(Namespace(num_layers=1, copy_layers=None), 2, 30)
    with pytest.raises(InvalidInputError, match="one target layer per new layer"):
        distill._grown_layers(Namespace(num_layers=2, copy_layers="27,28"), 1, 30)


def test_cli_rejects_unknown_prompt_categories(capsys, tmp_path):
    assert main(["distill", "--out", str(tmp_path), "--prompt-categories", "pets,nonsense"]) == 2
    assert "unknown or missing name(s) ['nonsense']" in capsys.readouterr().err


class _CharTokenizer:
    """A stand-in with the three things data generation uses: a chat template, encode, eos."""

    eos_token_id, pad_token_id = None, 0

    def apply_chat_template(self, messages, tokenize, add_generation_prompt):
        return "<" + messages[0]["content"] + ">"

    def encode(self, text, add_special_tokens=True):  # adds none either way
        return [2 + ord(c) % 90 for c in text]

    def get_vocab(self):
        return {chr(i): 2 + i % 90 for i in range(32, 127)}


def test_new_prompts_only_answers_each_prompt_once_across_runs_and_seeds(target, tmp_path):
    tok = _CharTokenizer()
    prompts = [f"prompt {c}" for c in "abcdefg"]
    kw = dict(batch_size=2, max_new_tokens=3, new_prompts_only=True, log=lambda _: None)
    distill.generate_data(target, tok, prompts[:3], tmp_path, seed=0, **kw)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shard-s0-00000.safetensors", "shard-s0-00001.safetensors"]
    # Another seed over the whole list answers only the four new prompts; a rerun adds nothing.
    distill.generate_data(target, tok, prompts, tmp_path, seed=1, **kw)
    distill.generate_data(target, tok, prompts, tmp_path, seed=0, **kw)
    seqs = distill.load_shards(tmp_path)
    answered = [tuple(t[:p].tolist()) for t, _, p in seqs]
    assert sorted(answered) == sorted(tuple(distill.chat_ids(tok, p)) for p in prompts)
    assert distill.answered_prompts(tmp_path) == set(answered)
    assert len(list(tmp_path.glob("shard-s1-*"))) == 2 and len(list(tmp_path.glob("shard-s0-*"))) == 2


def test_prune_unlisted_drops_only_answers_to_removed_prompts(target, tmp_path):
    tok = _CharTokenizer()
    prompts = [f"prompt {c}" for c in "abcde"]
    distill.generate_data(target, tok, prompts, tmp_path, batch_size=2, max_new_tokens=3, new_prompts_only=True,
                          log=lambda _: None)
    before = {tuple(t[:p].tolist()): t for t, _, p in distill.load_shards(tmp_path)}
    kept = ["prompt c", "prompt d", "prompt z"]
    assert distill.prune_unlisted(tmp_path, tok, kept, log=lambda _: None) == 3
    after = {tuple(t[:p].tolist()): t for t, _, p in distill.load_shards(tmp_path)}
    assert set(after) == {tuple(distill.chat_ids(tok, p)) for p in ("prompt c", "prompt d")}
    assert all(torch.equal(after[k], before[k]) for k in after)
    assert distill.prune_unlisted(tmp_path, tok, kept, log=lambda _: None) == 0


class _FakeLibc:
    def __init__(self, result: int = 1) -> None:
        self.calls: list[tuple[int, int]] = []
        self.result = result

    def mallopt(self, param: int, value: int) -> int:
        self.calls.append((param, value))
        return self.result


def test_keep_freed_memory_disables_mmap_chunks_and_trimming(monkeypatch):
    for key in [k for k in os.environ if k.startswith("MALLOC_")]:
        monkeypatch.delenv(key)
    libc = _FakeLibc()
    assert distill.keep_freed_memory(libc)
    params = dict(libc.calls)
    assert params[-4] == 0  # M_MMAP_MAX: no block comes from a fresh mmap
    assert params[-1] >= 1 << 30  # M_TRIM_THRESHOLD: freed heap stays
    assert -2 in params  # M_TOP_PAD
    assert not distill.keep_freed_memory(_FakeLibc(result=0))  # mallopt refused
    assert not distill.keep_freed_memory(object())  # no mallopt (not glibc)


def test_keep_freed_memory_leaves_the_users_malloc_settings(monkeypatch):
    monkeypatch.setenv("MALLOC_ARENA_MAX", "2")
    libc = _FakeLibc()
    assert not distill.keep_freed_memory(libc)
    assert libc.calls == []


def _data_stage(monkeypatch, tmp_path, target, tok, name, *extra):
    """``minedraft distill --stage data`` with the target loader and the answering stubbed
    out; returns what prune_unlisted was handed."""
    pruned = []
    monkeypatch.setattr(distill, "_load_target", lambda *_: (target, tok))
    monkeypatch.setattr(distill, "generate_data", lambda *a, **kw: None)
    monkeypatch.setattr(distill, "prune_unlisted", lambda d, t, prompts, **kw: pruned.append(len(prompts)))
    code = main(["distill", "--out", str(tmp_path / "out"), "--data-dir", str(tmp_path / "data"), "--stage", "data",
                 "--target", name, "--prune-unlisted", *extra])
    return code, pruned


def test_prune_unlisted_keeps_prompts_the_options_merely_left_out(monkeypatch, target, tmp_path):
    from minedraft.adapters.reference import distill_prompts

    (tmp_path / "data").mkdir()
    code, pruned = _data_stage(monkeypatch, tmp_path, target, _CharTokenizer(), "t", "--prompt-categories", "pets",
                               "--num-prompts", "2")
    assert code == 0 and pruned == [len(distill_prompts.training_prompts(None))]


class _OtherVocab(_CharTokenizer):
    def get_vocab(self):
        return {chr(i): 3 + i % 90 for i in range(32, 127)}


def test_a_data_dir_serves_one_vocabulary(monkeypatch, capsys, target, tmp_path):
    assert _data_stage(monkeypatch, tmp_path, target, _CharTokenizer(), "first")[0] == 0
    # The same vocabulary under another name (a path, a hub id) is the same target.
    assert _data_stage(monkeypatch, tmp_path, target, _CharTokenizer(), "first-moved")[0] == 0
    code, pruned = _data_stage(monkeypatch, tmp_path, target, _OtherVocab(), "second")
    assert (code, pruned) == (2, [])
    assert "holds answers of target 'first'" in capsys.readouterr().err
    (tmp_path / "data" / "target.json").write_text("{")
    assert _data_stage(monkeypatch, tmp_path, target, _CharTokenizer(), "first")[0] == 2
    assert "is not a target record" in capsys.readouterr().err


class _BosTokenizer(_CharTokenizer):
    def encode(self, text, add_special_tokens=True):
        return ([1] if add_special_tokens else []) + super().encode(text)


def test_shards_from_before_the_record_are_refused_for_a_bos_adding_tokenizer(monkeypatch, capsys, target, tmp_path):
    # Their prompts hold the chat template's BOS and the tokenizer's: none would match now.
    (tmp_path / "data").mkdir()
    distill.save_shard(tmp_path / "data" / "shard-00000.safetensors", [([1, 1, 5, 6, 7], torch.zeros(5, 64), 3)])
    assert _data_stage(monkeypatch, tmp_path, target, _BosTokenizer(), "t")[0] == 2
    assert "has no target record" in capsys.readouterr().err
    assert _data_stage(monkeypatch, tmp_path, target, _CharTokenizer(), "t")[0] == 0  # adds none: taken as it is
