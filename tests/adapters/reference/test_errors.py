"""Bad input: a clear error naming the field and the value, and nothing half-run."""

from __future__ import annotations

import pytest

from minedraft import LLM, InvalidInputError, SamplingParams
from minedraft.adapters.reference import ReferenceBackend
from minedraft.backends import EngineSpec

from conftest import build_pair, tiny_llama


@pytest.fixture(scope="module")
def pair():
    return build_pair(tiny_llama(seed=0, max_pos=64), tiny_llama(layers=1, hidden=32, seed=1, max_pos=64))


class CountingPair:
    """Wrap an engine pair and count every engine call."""

    def __init__(self, pair):
        self.pair, self.calls = pair, 0
        for engine in (pair.target, pair.drafter):
            for name in ("score", "propose"):
                if hasattr(engine, name):
                    setattr(engine, name, self._count(getattr(engine, name)))

    def _count(self, fn):
        def wrapped(*a, **kw):
            self.calls += 1
            return fn(*a, **kw)

        return wrapped


def test_empty_prompt(pair):
    llm = LLM(None, None, mode="sd", engines=pair)
    with pytest.raises(InvalidInputError, match=r"prompts\[1\] is empty"):
        llm.generate([[4, 5], []])


@pytest.mark.parametrize("k", [0, -2])
def test_non_positive_k(pair, k):
    with pytest.raises(InvalidInputError, match=rf"num_speculative_tokens must be an int >= 1, got {k}"):
        LLM(None, None, mode="sd", engines=pair, num_speculative_tokens=k)


def test_unknown_mode(pair):
    with pytest.raises(InvalidInputError, match=r"mode must be one of .* got 'fast'"):
        LLM(None, None, mode="fast", engines=pair)


def test_negative_temperature():
    with pytest.raises(InvalidInputError, match=r"SamplingParams.temperature must be a number >= 0, got -0.5"):
        SamplingParams(temperature=-0.5)


@pytest.mark.parametrize(
    ("field", "kwargs"),
    [("top_p", {"top_p": 0.0}), ("top_k", {"top_k": -3}), ("max_new_tokens", {"max_new_tokens": 0}),
     ("stop", {"stop": ["ok", 3]}), ("stop_token_ids", {"stop_token_ids": [5, "7"]}),
     ("stop_token_ids", {"stop_token_ids": [-1]}), ("stop", {"stop": 3}), ("stop_token_ids", {"stop_token_ids": "5"}),
     ("include_stop_str_in_output", {"include_stop_str_in_output": "yes"}), ("ignore_eos", {"ignore_eos": 1})],
)
def test_other_sampling_fields(field, kwargs):
    with pytest.raises(InvalidInputError, match=rf"SamplingParams.{field}"):
        SamplingParams(**kwargs)


def test_sampling_defaults_and_shorthands_are_vllms():
    # temperature 1.0 samples, as vLLM's and SGLang's defaults do; None means no stops; one id is a list of one.
    assert not SamplingParams().greedy
    assert (SamplingParams(stop=None, stop_token_ids=None).stop, SamplingParams(stop_token_ids=5).stop_token_ids) == ((), (5,))


def test_vocabulary_mismatch():
    target, draft = tiny_llama(vocab=96), tiny_llama(vocab=80, layers=1, hidden=32)
    with pytest.raises(InvalidInputError, match=r"draft vocabulary size \(80\) differs from target vocabulary size \(96\)"):
        ReferenceBackend().build(EngineSpec(target=target, draft=draft, dtype="float64"))


def test_prompt_longer_than_context_runs_nothing(pair):
    counting = CountingPair(pair)
    llm = LLM(None, None, mode="psd", engines=pair)
    with pytest.raises(InvalidInputError, match=r"prompts\[2\]: the prompt has 70 tokens, which must be below the target context window \(64\)"):
        llm.generate([[1, 2], [3, 4, 5], [7] * 70])
    assert counting.calls == 0, "a bad request must not half-run the batch"


@pytest.mark.parametrize("prompt, message", [
    ([5, 96, 7], r"prompts\[1\]: the prompt has token id 96 at position 1, outside the target's vocabulary \[0, 96\)"),
    ([5, -1], r"prompts\[1\]: the prompt has token id -1 at position 1, outside the target's vocabulary"),
    ([5, 2.0], r"prompts\[1\]\[1\] must be an int token id, got 2.0"),
])
def test_bad_token_ids_are_named_and_run_nothing(pair, prompt, message):
    counting = CountingPair(pair)
    llm = LLM(None, None, mode="sd", engines=pair)
    with pytest.raises(InvalidInputError, match=message):
        llm.generate([[1, 2], prompt])
    assert counting.calls == 0, "a bad request must not half-run the batch"


def test_stop_strings_without_a_tokenizer_are_refused_not_ignored(pair):
    counting = CountingPair(pair)
    llm = LLM(None, None, mode="sd", engines=pair)  # token ids only: nothing could read the text
    with pytest.raises(InvalidInputError, match=r"prompts\[0\]: stop strings \['w3'\] need a tokenizer"):
        llm.generate([[1, 2]], SamplingParams(temperature=0.0, max_new_tokens=4, stop=["w3"]))
    assert counting.calls == 0


@pytest.mark.parametrize("mode", ["ar", "sd", "psd", "flex"])
def test_a_request_stops_at_the_context_window(pair, mode):
    """The window (64 positions here) caps prompt + output, as vLLM's max_model_len does."""
    llm = LLM(None, None, mode=mode, engines=pair, num_speculative_tokens=3)
    outs = llm.generate([[1, 2, 3], [4] * 60], SamplingParams(temperature=0.0, max_new_tokens=100, ignore_eos=True))
    assert [len(o.prompt_token_ids) + len(o.token_ids) for o in outs] == [64, 64]
    assert [o.finish_reason for o in outs] == ["length", "length"]
    ar = LLM(None, None, mode="ar", engines=pair).generate([[1, 2, 3], [4] * 60],
                                                           SamplingParams(temperature=0.0, max_new_tokens=100, ignore_eos=True))
    assert [o.token_ids for o in outs] == [o.token_ids for o in ar]


def test_the_scheduler_refuses_a_token_outside_the_vocabulary(pair):
    from minedraft.schedulers import SchedulerConfig, create_scheduler
    from minedraft.types import RequestState

    scheduler = create_scheduler("ar", pair.target, None, SchedulerConfig())
    with pytest.raises(InvalidInputError, match=r"request 'r1': the prompt has token id 500 at position 0"):
        scheduler.add_request(RequestState(prompt_ids=[500], params=SamplingParams(temperature=0.0), request_id="r1"))
    assert not scheduler.has_unfinished()


def test_bad_device_and_dtype():
    with pytest.raises(InvalidInputError, match=r"device must be 'cpu' or 'cuda\[:N\]', got 'tpu'"):
        ReferenceBackend().build(EngineSpec(target=tiny_llama(), device="tpu"))
    with pytest.raises(InvalidInputError, match=r"dtype must be 'auto' or one of .* got 'int3'"):
        ReferenceBackend().build(EngineSpec(target=tiny_llama(), dtype="int3"))


def test_missing_draft_for_speculative_mode(pair):
    with pytest.raises(InvalidInputError, match=r"mode 'sd' needs a draft model"):
        LLM(tiny_llama(), None, mode="sd")


def test_pickle_checkpoints_need_opt_in(tmp_path):
    import torch

    model = tiny_llama()
    model.config.save_pretrained(tmp_path)
    torch.save(model.state_dict(), tmp_path / "pytorch_model.bin")  # a legacy pickle checkpoint
    with pytest.raises(InvalidInputError, match=r"pickle checkpoints .* allow_pickle=True"):
        ReferenceBackend().build(EngineSpec(target=str(tmp_path), dtype="float64"))
    built = ReferenceBackend().build(EngineSpec(target=str(tmp_path), dtype="float64", allow_pickle=True))
    assert built.target.vocab_size == 96


def test_safetensors_directory_loads_and_matches(tmp_path, pair):
    model = tiny_llama(seed=0, max_pos=64)
    model.save_pretrained(tmp_path)  # safetensors by default
    llm = LLM(str(tmp_path), str(tmp_path), mode="sd", dtype="float64")
    ref = LLM(None, None, mode="ar", engines=pair)
    prompt = [[4, 5, 6]]
    greedy = SamplingParams(temperature=0.0)
    assert llm.generate(prompt, greedy)[0].token_ids == ref.generate(prompt, greedy)[0].token_ids


def test_a_missing_draft_is_refused_before_the_target_loads(tmp_path, monkeypatch):
    from minedraft.adapters.reference import backend

    def no_loading(*args, **kwargs):
        raise AssertionError("a model loaded before the sources were checked")

    monkeypatch.setattr(backend, "load_causal_lm", no_loading)
    tiny_llama().save_pretrained(tmp_path / "target")
    (tmp_path / "pickled").mkdir()
    (tmp_path / "pickled" / "pytorch_model.bin").write_bytes(b"")
    for draft, message in [(tmp_path / "no-draft", r"draft: '.*no-draft' is neither a model directory"),
                           (tmp_path / "d.gguf", r"draft: GGUF file '.*d.gguf' does not exist"),
                           (tmp_path / "pickled", r"draft: '.*pickled' holds only pickle checkpoints")]:
        with pytest.raises(InvalidInputError, match=message):
            ReferenceBackend().build(EngineSpec(target=str(tmp_path / "target"), draft=str(draft)))


@pytest.mark.skipif(__import__("torch").cuda.is_available(), reason="checks a machine without CUDA")
@pytest.mark.parametrize("field", ["device", "draft_device"])
def test_cuda_on_a_machine_without_it_is_refused_before_loading(field):
    # A target that does not exist: the device must be refused first, not by a CUDA
    # assertion once the weights have loaded.
    spec = EngineSpec(target="no/such/model", **{field: "cuda:0"})
    with pytest.raises(InvalidInputError, match=rf"{field}='cuda:0' needs CUDA"):
        ReferenceBackend().build(spec)


@pytest.mark.parametrize(("lanes", "message"), [
    ("bogus", r"lanes must be one of .* got 'bogus'"),
    ("devices", r"lanes='devices' .* draft_device other than device='cpu', got draft_device=None"),
])
def test_bad_lanes_are_refused_before_loading(lanes, message):
    with pytest.raises(InvalidInputError, match=message):
        LLM("no/such/model", "no/such/draft", mode="psd", lanes=lanes)


@pytest.mark.skipif(__import__("torch").cuda.is_available(), reason="checks a machine without CUDA")
def test_cuda_streams_without_cuda_are_refused_before_loading():
    with pytest.raises(InvalidInputError, match=r"lanes='cuda_streams' needs CUDA"):
        LLM("no/such/model", "no/such/draft", mode="psd", lanes="cuda_streams")
    # Lanes left to their default name the device the user gave, not the lanes it implies.
    with pytest.raises(InvalidInputError, match=r"device='cuda' needs CUDA"):
        LLM("no/such/model", "no/such/draft", mode="psd", device="cuda")


@pytest.mark.parametrize(("call", "message"), [
    (lambda llm: llm.generate([[4, 5]], {"max_new_tokens": 4}),
     r"sampling_params must be a SamplingParams or a list of them, got \{'max_new_tokens': 4\}"),
    (lambda llm: llm.generate([[4, 5]], [SamplingParams(temperature=0.0), "greedy"]), r"sampling_params must be .* 'greedy'"),
    (lambda llm: llm.generate(None), r"prompts must be .* got None"),
    (lambda llm: llm.generate(b"Hi"), r"prompts must be .* got b'Hi'"),
    (lambda llm: llm.generate([b"Hi"]), r"prompts\[0\] must be a text or a list of token ids, got b'Hi'"),
    (lambda llm: llm.chat("hello"), r"messages must be a conversation .* got 'hello'"),
])
def test_wrong_argument_types_are_named(pair, call, message):
    counted = CountingPair(pair)
    llm = LLM(None, None, mode="sd", engines=pair)
    with pytest.raises(InvalidInputError, match=message):
        call(llm)
    assert counted.calls == 0


@pytest.mark.parametrize("value", [0, -1, float("nan"), "10"])  # None (no limit) and inf are fine
def test_step_timeout_is_checked_up_front(pair, value):
    with pytest.raises(InvalidInputError, match=r"step_timeout must be a number > 0 or None, got"):
        LLM(None, None, mode="psd", engines=pair, step_timeout=value)


def test_prompts_as_numpy_ids_and_any_int_seed(pair):
    import numpy as np

    llm = LLM(None, None, mode="sd", engines=pair)
    greedy = SamplingParams(temperature=0.0, max_new_tokens=3)
    expected = llm.generate([[5, 6]], greedy)[0].token_ids
    for prompts in ([np.int64(5), np.int64(6)], np.array([5, 6]), [np.array([5, 6])], iter([[5, 6]])):
        assert llm.generate(prompts, greedy)[0].token_ids == expected
    with pytest.raises(InvalidInputError, match=r"prompts\[0\]\[0\] must be an int token id, got True"):
        llm.generate([[True, 6]], greedy)
    for seed in (2**63, 2**64, -(2**70)):  # torch takes seeds modulo 2**64: no overflow
        out = llm.generate([[5, 6]], SamplingParams(temperature=1.0, seed=seed, max_new_tokens=3))[0]
        assert out.error is None and len(out.token_ids) == 3
