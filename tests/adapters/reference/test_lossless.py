"""End-to-end losslessness on the reference engine: SD and PSD against AR.

Greedy: identical token for token. Sampling: the generated tokens are distributed as the
target's own sampling distribution (exact marginals computed from the target model).
"""

from __future__ import annotations

import copy

import pytest
import torch

from minedraft import RequestState, SamplingParams, SchedulerConfig, create_scheduler

from conftest import PROMPTS, build_pair, chi2_pvalue, exact_two_token_marginals, generate, tiny_llama

MAX_NEW = [24, 9, 17, 30, 5, 12]


@pytest.fixture(scope="module")
def models():
    target = tiny_llama(layers=2, hidden=64, seed=0)
    unrelated = tiny_llama(layers=1, hidden=32, seed=1)  # acceptance near zero
    close = copy.deepcopy(target)  # perturbed copy: acceptance ~0.4, mixed within batches
    gen = torch.Generator().manual_seed(0)
    with torch.no_grad():
        for p in close.parameters():
            p.add_(torch.randn(p.shape, generator=gen, dtype=p.dtype) * 0.004)
    return target, unrelated, close


@pytest.fixture(scope="module")
def ar_reference(models):
    target, _, _ = models
    pair = build_pair(target, None)
    outs, _ = generate(pair, "ar", PROMPTS, [SamplingParams(temperature=0.0, max_new_tokens=n) for n in MAX_NEW])
    return [o.token_ids for o in outs]


@pytest.mark.parametrize("mode", ["sd", "psd"])
@pytest.mark.parametrize("k", [1, 3, 5])
@pytest.mark.parametrize("draft_kind", ["unrelated", "close"])
def test_greedy_identical_to_ar(models, ar_reference, mode, k, draft_kind):
    target, unrelated, close = models
    pair = build_pair(target, unrelated if draft_kind == "unrelated" else close)
    outs, llm = generate(pair, mode, PROMPTS, [SamplingParams(temperature=0.0, max_new_tokens=n) for n in MAX_NEW],
                         num_speculative_tokens=k, max_batch_size=4)
    assert [o.token_ids for o in outs] == ar_reference
    assert all(o.error is None for o in outs)
    summary = llm.last_trace.summary()
    if draft_kind == "close":
        assert summary["acceptance_rate"] > 0.3  # the test exercises multi-token acceptance
    if mode == "psd":
        assert summary["overlapped_share"] > 0.3  # and real overlap


def test_stops_at_eos_and_stop_token_ids(models, ar_reference):
    target, _, close = models
    pair = build_pair(target, close)
    # Pick a token that AR emits mid-way for prompt 0 and stop on it.
    stop_tok = ar_reference[0][5]
    first = ar_reference[0].index(stop_tok)
    params = SamplingParams(temperature=0.0, max_new_tokens=24, stop_token_ids=(stop_tok,))
    for mode in ("ar", "sd", "psd"):
        outs, _ = generate(pair, mode, [PROMPTS[0]], params, num_speculative_tokens=4)
        assert outs[0].token_ids == ar_reference[0][: first + 1]
        assert outs[0].finish_reason == "stop"


def _word_tokenizer(vocab_size: int):
    """A word-level tokenizer over the tiny models' vocabulary: token i is the word 'w<i>'."""
    from tokenizers import Tokenizer
    from tokenizers.models import WordLevel
    from tokenizers.pre_tokenizers import Whitespace
    from transformers import PreTrainedTokenizerFast

    words = ["[UNK]", "[EOS]"] + [f"w{i}" for i in range(2, vocab_size)]
    backend = Tokenizer(WordLevel({w: i for i, w in enumerate(words)}, unk_token="[UNK]"))
    backend.pre_tokenizer = Whitespace()
    return PreTrainedTokenizerFast(tokenizer_object=backend, unk_token="[UNK]", eos_token="[EOS]")


@pytest.mark.parametrize("mode", ["ar", "sd", "psd", "tree", "smc", "smc-psd"])
def test_a_stop_string_stops_the_request_where_its_text_ends(models, mode):
    # Stop strings spanning a few tokens and many (20 words, about 80 characters): the
    # request ends at the token that completes the string, accepted draft or not.
    from minedraft.adapters.reference import ReferenceBackend
    from minedraft.backends import EngineSpec

    target, _, close = models
    tok = _word_tokenizer(target.config.vocab_size)
    pair = ReferenceBackend().build(EngineSpec(target=target, draft=None if mode == "ar" else close,
                                               dtype="float64", tokenizer=tok))
    free, _ = generate(pair, mode, [PROMPTS[0]], SamplingParams(temperature=0.0, max_new_tokens=30, ignore_eos=True),
                       num_speculative_tokens=4)
    for n in (3, 20):
        stop = tok.decode(free[0].token_ids[1:n])  # from the second word on
        for include in (False, True):
            params = SamplingParams(temperature=0.0, max_new_tokens=30, ignore_eos=True, stop=[stop],
                                    include_stop_str_in_output=include)
            [out], _ = generate(pair, mode, [PROMPTS[0]], params, num_speculative_tokens=4)
            assert (out.token_ids, out.finish_reason, out.stop_reason) == (free[0].token_ids[:n], "stop", stop), n
            # As vLLM's: the text ends just before the stop string, or just after it when asked.
            first_word = tok.decode(free[0].token_ids[:1]) + " "
            assert out.text == first_word + (stop if include else ""), (n, include)
    # A stop token id's text is left out as well, unless asked for.
    stop_id = free[0].token_ids[4]
    for include in (False, True):
        params = SamplingParams(temperature=0.0, max_new_tokens=30, ignore_eos=True, stop_token_ids=[stop_id],
                                include_stop_str_in_output=include)
        [out], _ = generate(pair, mode, [PROMPTS[0]], params, num_speculative_tokens=4)
        upto = free[0].token_ids.index(stop_id) + 1
        assert (out.token_ids, out.stop_reason) == (free[0].token_ids[:upto], stop_id)
        assert out.text == tok.decode(out.token_ids if include else out.token_ids[:-1])


@pytest.mark.parametrize("mode", ["sd", "psd", "flex", "tree"])
def test_a_draft_with_a_shorter_window_stops_drafting_at_its_end(mode):
    # GPT-2's learned positions end at the draft's window (20) well before the target's
    # (64): past it requests are verified without drafts, never failed, and match AR.
    from conftest import tiny_gpt2

    pair = build_pair(tiny_gpt2(seed=0, max_pos=64), tiny_gpt2(layers=1, hidden=32, seed=1, max_pos=20))
    prompts, params = [[4] * 30, [5, 6]], SamplingParams(temperature=0.0, max_new_tokens=30)
    expected = [o.token_ids for o in generate(pair, "ar", prompts, params)[0]]
    outs, _ = generate(pair, mode, prompts, params, num_speculative_tokens=3)
    assert [(o.error, o.token_ids) for o in outs] == [(None, e) for e in expected]


@pytest.mark.parametrize("mode", ["sd", "psd"])
def test_requests_joining_and_cancelled_mid_run(models, ar_reference, mode):
    """Continuous batching: requests arrive between steps; one is cancelled; the rest match AR."""
    target, _, close = models
    pair = build_pair(target, close)
    config = SchedulerConfig(num_speculative_tokens=3, max_batch_size=2,
                             lanes="threads" if mode == "psd" else "inline", eos_token_ids=pair.eos_token_ids)
    sched = create_scheduler(mode, pair.target, pair.drafter, config)
    reqs = [RequestState(prompt_ids=p, params=SamplingParams(temperature=0.0, max_new_tokens=n)) for p, n in zip(PROMPTS, MAX_NEW)]
    try:
        for r in reqs[:3]:
            sched.add_request(r)
        sched.step()
        sched.step()
        for r in reqs[3:]:
            sched.add_request(r)
        sched.step()
        sched.cancel(reqs[2].request_id)
        steps = 0
        while sched.has_unfinished():
            sched.step()
            steps += 1
            assert steps < 500
    finally:
        sched.close()
    for i, r in enumerate(reqs):
        if i == 2:
            assert r.finish_reason.value == "cancelled"
            assert r.output_ids == ar_reference[2][: len(r.output_ids)]
        else:
            assert r.output_ids == ar_reference[i], f"request {i}"
    # Engines released every slot.
    assert not pair.target.runner.slot_of and not pair.drafter.runner.slot_of


@pytest.mark.parametrize("mode", ["sd", "psd"])
def test_sampled_outputs_follow_target_distribution(models, mode):
    target, _, close = models
    pair = build_pair(target, close, max_batch_size=64)
    params = SamplingParams(temperature=0.9, top_k=24, max_new_tokens=2)
    prompt = [5, 6, 7]
    n = 3000
    torch.manual_seed(2024)
    outs, _ = generate(pair, mode, [prompt] * n, params, num_speculative_tokens=3, max_batch_size=64)
    p1, p2 = exact_two_token_marginals(target, prompt, params)
    assert chi2_pvalue([o.token_ids[0] for o in outs], p1) > 1e-3
    assert chi2_pvalue([o.token_ids[1] for o in outs], p2) > 1e-3


@pytest.mark.parametrize("mode", ["sd", "psd"])
def test_confidence_threshold_shortens_drafts_and_stays_exact(models, ar_reference, mode):
    """Drafting stops once the running product of draft max-probabilities drops below the
    threshold: a stopping rule that depends on earlier drafts only, so output is unchanged."""
    target, _, close = models
    params = [SamplingParams(temperature=0.0, max_new_tokens=n) for n in MAX_NEW]
    full, llm_full = generate(build_pair(target, close), mode, PROMPTS, params, num_speculative_tokens=5)
    short, llm_short = generate(build_pair(target, close), mode, PROMPTS, params, num_speculative_tokens=5,
                                draft_confidence_threshold=0.3)
    assert [o.token_ids for o in short] == [o.token_ids for o in full] == ar_reference
    per_step = [sum(s.proposed for s in t.steps) / sum(s.verify_batch for s in t.steps)
                for t in (llm_full.last_trace, llm_short.last_trace)]
    assert per_step[1] < per_step[0]
