"""The worker's batch splitting, draft store and result merge, driven with SGLang's real
Req / ScheduleBatch / SamplingBatchInfo / EagleDraftInput / GenerationBatchResult objects
on CPU. Model forwards (draft, verify, draft-extend) need a GPU; here they are replaced
by an oracle with the same contract, so the PSD orchestration itself is what is tested."""

from __future__ import annotations

import inspect
import os
import threading
from array import array
from types import SimpleNamespace

import pytest

pytest.importorskip("sglang")
import torch

V, K = 50, 3  # vocab, speculative_num_draft_tokens (2 draft tokens + the last committed one)


def truth(rid: str, pos: int) -> int:
    """The target's greedy token at position ``pos`` of request ``rid``."""
    return (sum(map(ord, rid)) * 7 + pos * 13) % V


def draft_guess(rid: str, pos: int) -> int:
    """The drafter agrees with the target except at positions divisible by 3."""
    return truth(rid, pos) if pos % 3 else (truth(rid, pos) + 1) % V


@pytest.fixture
def make_batch(published):
    from sglang.srt.managers.schedule_batch import Req, ScheduleBatch
    from sglang.srt.model_executor.forward_batch_info import ForwardMode
    from sglang.srt.sampling.sampling_batch_info import SamplingBatchInfo
    from sglang.srt.sampling.sampling_params import SamplingParams
    from sglang.srt.speculative.eagle_info import EagleDraftInput

    def make(rids, seq_lens, forward_mode=ForwardMode.DECODE, temperatures=None, penalties=None):
        reqs = []
        for i, rid in enumerate(rids):
            temperature = (0.0 if i % 2 else 0.8) if temperatures is None else temperatures[i]
            params = SamplingParams(temperature=temperature, max_new_tokens=64,
                                    **(penalties[i] if penalties is not None else {}))
            params.normalize(None)
            reqs.append(Req(rid=rid, origin_input_text="", origin_input_ids=array("i", [1, 2, 3]),
                            sampling_params=params, vocab_size=V))
        lens = torch.tensor(seq_lens)
        batch = ScheduleBatch(
            reqs=reqs, forward_mode=forward_mode, device="cpu", req_pool_indices=torch.arange(len(rids)) + 10,
            req_pool_indices_cpu=torch.arange(len(rids)) + 10, seq_lens=lens.clone(), seq_lens_cpu=lens.clone(),
            orig_seq_lens=lens.clone(), model_config=SimpleNamespace(is_encoder_decoder=False, vocab_size=V),
        )
        batch.sampling_info = SamplingBatchInfo.from_schedule_batch(batch, V)
        # Draft state after draft-extend: the first draft token and the bonus (last committed) token.
        batch.spec_info = EagleDraftInput(
            topk_p=torch.ones(len(rids), 1),
            topk_index=torch.tensor([[draft_guess(r, n)] for r, n in zip(rids, seq_lens)]),
            bonus_tokens=torch.tensor([truth(r, n - 1) for r, n in zip(rids, seq_lens)]), hidden_states=None,
        )
        return batch

    return make


class OracleWorker:
    """Stands in for the GPU parts of MineDraftWorker: same inputs, same outputs."""

    def __init__(self, lanes: str = "inline"):
        from minedraft.adapters.sglang.worker import MineDraftWorker
        from minedraft.lanes import ThreadLane

        self.worker = object.__new__(MineDraftWorker)  # no models: __init__ needs a GPU
        w = self.worker
        w.options = SimpleNamespace(lanes=lanes, slack=1, stats_file=None)
        w.speculative_num_steps, w.speculative_num_draft_tokens, w.topk = K - 1, K, 1
        w._side_stream, w._hybrid = None, False
        w._draft_thread = ThreadLane("draft") if lanes == "threads" else None
        w._all_threads, w._lane_threads = torch.get_num_threads(), 1
        self.draft_threads: set[str] = set()  # names of the threads drafts ran on
        from collections import Counter

        from minedraft.psd_state import DraftStore

        w.store, w.psd_stats = DraftStore(), Counter()
        self.drafted: list[tuple[str, int]] = []  # (rid, seq_len) per drafted row
        w._draft = self._draft
        w._verify_and_extend = self._verify_and_extend

    def _draft(self, sub):
        self.draft_threads.add(threading.current_thread().name)
        rows = []
        for req, n in zip(sub.reqs, sub.seq_lens_cpu.tolist()):
            self.drafted.append((req.rid, n))
            rows.append([draft_guess(req.rid, n + j) for j in range(K - 1)])
        return torch.tensor(rows)

    def _verify_and_extend(self, sub, tokens):
        from sglang.srt.layers.logits_processor import LogitsProcessorOutput
        from sglang.srt.managers.utils import GenerationBatchResult
        from sglang.srt.speculative.eagle_info import EagleDraftInput

        n = len(sub.reqs)
        predict = torch.zeros(n, K, dtype=torch.long)
        accept = torch.zeros(n, dtype=torch.long)
        accept_index = torch.full((n, K), -1)
        for i, (req, L) in enumerate(zip(sub.reqs, sub.seq_lens_cpu.tolist())):
            # A draft must have been made from exactly this committed length.
            assert tokens[i].tolist() == [draft_guess(req.rid, L + j) for j in range(K - 1)], req.rid
            m = 0
            while m < K - 1 and tokens[i, m] == truth(req.rid, L + m):
                m += 1
            predict[i, : m + 1] = torch.tensor([truth(req.rid, L + j) for j in range(m + 1)])
            accept[i] = m + 1
            accept_index[i, : m + 1] = i * K + torch.arange(m + 1)
        new_lens = sub.seq_lens + accept
        nxt = EagleDraftInput(
            topk_p=torch.ones(n, 1), hidden_states=None, bonus_tokens=predict[torch.arange(n), accept - 1],
            topk_index=torch.tensor([[draft_guess(r.rid, int(x))] for r, x in zip(sub.reqs, new_lens)]),
        )
        return GenerationBatchResult(
            logits_output=LogitsProcessorOutput(next_token_logits=torch.randn(n * K, V)),
            next_token_ids=predict.reshape(-1), accept_lens=accept, accept_index=accept_index,
            new_seq_lens=new_lens, next_draft_input=nxt, speculative_num_draft_tokens=K,
        )


def _apply(batch, result):
    """What SGLang's scheduler does with a result before the next decode call."""
    batch.spec_info = result.next_draft_input
    batch.seq_lens = result.new_seq_lens
    batch.seq_lens_cpu = result.new_seq_lens.clone()
    emitted = {}
    for i, req in enumerate(batch.reqs):
        n = int(result.accept_lens[i])
        emitted[req.rid] = result.next_token_ids[i * K : i * K + n].tolist()
    return emitted


@pytest.mark.parametrize("lanes", ["inline", "threads"])
def test_psd_calls_emit_exactly_the_target_tokens_and_reuse_drafts(make_batch, lanes):
    rids = ["a", "bb", "c", "dd", "e"]
    batch = make_batch(rids, [8, 9, 10, 11, 12])
    oracle = OracleWorker(lanes)
    w = oracle.worker
    committed = {r: [] for r in rids}
    start = {r: n for r, n in zip(rids, [8, 9, 10, 11, 12])}
    for call in range(6):
        assert w._fallback_reason(batch, None, None) is None
        oracle.drafted.clear()
        result = w.forward_batch_generation(batch)
        for rid, toks in _apply(batch, result).items():
            assert 1 <= len(toks) <= K  # every request advances every call
            committed[rid] += toks
        if call:
            # Steady state: `first` comes from the store, only `second` and `first'` are drafted.
            assert len(oracle.drafted) == len(rids)
    for rid in rids:
        assert committed[rid] == [truth(rid, start[rid] + j) for j in range(len(committed[rid]))]
    assert w.psd_stats["overlapped"] == 6 and w.psd_stats["sequential_drafts"] == 3
    assert w.psd_stats["stored_drafts_used"] == 5 * 3
    # threads: every draft ran on the lane's thread, and the target's threads are restored.
    on_main = threading.main_thread().name in oracle.draft_threads
    assert on_main == (lanes == "inline") and len(oracle.draft_threads) == 1
    assert torch.get_num_threads() == w._all_threads


def test_new_finished_and_fallback_requests_are_handled(make_batch):
    oracle = OracleWorker()
    w = oracle.worker
    batch = make_batch(["a", "b", "c", "d"], [5, 6, 7, 8])
    _apply(batch, w.forward_batch_generation(batch))
    stored = set(w.store.keys())
    assert len(stored) == 2
    # One stored request finishes, a new one joins, and one stored request was advanced by a
    # non-PSD step: only the untouched stored draft may be used.
    gone, touched = sorted(stored)
    keep = [i for i, r in enumerate(batch.reqs) if r.rid != gone]
    seq = {r.rid: int(n) for r, n in zip(batch.reqs, batch.seq_lens_cpu)}
    seq[touched] += 2
    rids = [batch.reqs[i].rid for i in keep] + ["new"]
    batch = make_batch(rids, [seq[r] for r in rids[:-1]] + [20])
    oracle.drafted.clear()
    _apply(batch, w.forward_batch_generation(batch))
    assert gone not in w.store.keys()
    assert w.store.stats.stale == 1 and w.store.stats.evicted >= 1
    drafted_first = {rid for rid, _ in oracle.drafted}
    assert touched in drafted_first and "new" in drafted_first


def test_calls_psd_does_not_handle_go_to_sglang(make_batch):
    from sglang.srt.model_executor.forward_batch_info import ForwardMode

    w = OracleWorker().worker
    assert w._fallback_reason(make_batch(["a", "b"], [4, 5], ForwardMode.EXTEND), None, None) == "prefill"
    assert w._fallback_reason(make_batch(["a"], [4]), None, None) == "small"
    batch = make_batch(["a", "b"], [4, 5])
    batch.return_logprob = True
    assert w._fallback_reason(batch, None, None) == "grammar_logprob_hidden"
    batch = make_batch(["a", "b"], [4, 5])
    batch.spec_info = None
    assert w._fallback_reason(batch, None, None) == "no_draft_input"
    w._hybrid = True  # a Mamba / linear-attention target: every decode batch goes to STANDALONE
    assert w._fallback_reason(make_batch(["a", "b"], [4, 5]), None, None) == "hybrid_memory"


def test_sub_batches_leave_the_running_batch_untouched(make_batch):
    from minedraft.adapters.sglang.batching import row_keys, sub_batch

    batch = make_batch(["a", "b", "c", "d"], [5, 6, 7, 8])
    temps = batch.sampling_info.temperatures.clone()
    sub = sub_batch(batch, [1, 3])
    assert row_keys(sub) == (["b", "d"], [6, 8])
    assert sub.req_pool_indices.tolist() == [11, 13]
    assert torch.equal(sub.sampling_info.temperatures.view(-1), temps.view(-1)[[1, 3]])
    assert sub.spec_info.topk_index.view(-1).tolist() == batch.spec_info.topk_index.view(-1)[[1, 3]].tolist()
    assert row_keys(batch) == (["a", "b", "c", "d"], [5, 6, 7, 8])
    assert torch.equal(batch.sampling_info.temperatures, temps) and len(batch.spec_info.topk_index) == 4


def test_merge_puts_rows_back_in_batch_order():
    from sglang.srt.layers.logits_processor import LogitsProcessorOutput
    from sglang.srt.managers.utils import GenerationBatchResult
    from sglang.srt.speculative.eagle_info import EagleDraftInput

    from minedraft.adapters.sglang.batching import merge_results

    n = 5
    accept = torch.tensor([1, 3, 2, 1, 3])
    full = GenerationBatchResult(
        logits_output=LogitsProcessorOutput(next_token_logits=torch.randn(n * K, V)),
        next_token_ids=torch.arange(n * K), accept_lens=accept, new_seq_lens=torch.arange(n) + 100,
        accept_index=torch.stack([torch.where(torch.arange(K) < a, i * K + torch.arange(K), -1) for i, a in enumerate(accept)]),
        next_draft_input=EagleDraftInput(topk_p=torch.rand(n, 1), topk_index=torch.arange(n).view(n, 1),
                                         bonus_tokens=torch.arange(n) + 40, hidden_states=None),
    )

    def part(rows):  # what verifying the sub-batch `rows` alone returns
        idx = torch.tensor(rows)
        blocks = (idx.view(-1, 1) * K + torch.arange(K)).reshape(-1)
        local = full.accept_index[idx]
        local = torch.where(local >= 0, local - idx.view(-1, 1) * K + torch.arange(len(rows)).view(-1, 1) * K, -1)
        di = full.next_draft_input
        return rows, GenerationBatchResult(
            logits_output=LogitsProcessorOutput(next_token_logits=full.logits_output.next_token_logits[blocks]),
            next_token_ids=full.next_token_ids[blocks], accept_lens=full.accept_lens[idx], accept_index=local,
            new_seq_lens=full.new_seq_lens[idx], next_draft_input=EagleDraftInput(
                topk_p=di.topk_p[idx], topk_index=di.topk_index[idx], bonus_tokens=di.bonus_tokens[idx], hidden_states=None),
        )

    merged = merge_results([part([0, 3, 4]), part([1, 2])], K)
    for name in ("next_token_ids", "accept_lens", "accept_index", "new_seq_lens"):
        assert torch.equal(getattr(merged, name), getattr(full, name)), name
    assert torch.equal(merged.logits_output.next_token_logits, full.logits_output.next_token_logits)
    for name in ("topk_p", "topk_index", "bonus_tokens"):
        assert torch.equal(getattr(merged.next_draft_input, name), getattr(full.next_draft_input, name)), name
    with pytest.raises(ValueError, match="permutation"):
        merge_results([part([0, 1]), part([1, 2])], K)


def test_shared_attention_workspaces_are_detected():
    from minedraft.adapters.sglang.batching import shared_workspaces

    shared = torch.zeros(8)
    target = SimpleNamespace(workspace_buffer=shared)
    draft_multi = SimpleNamespace(attn_backends=[SimpleNamespace(workspace_buffer=shared)])
    own = SimpleNamespace(workspace_buffer=torch.zeros(8))
    assert shared_workspaces([target], [draft_multi]) == [("SimpleNamespace", "SimpleNamespace")]
    assert shared_workspaces([target], [own, None]) == []


def test_worker_keeps_sglang_constructor_and_checks_environment_first(monkeypatch):
    from sglang.srt.speculative.standalone_worker_v2 import StandaloneWorkerV2

    from minedraft.adapters.sglang.worker import MineDraftWorker
    from minedraft.types import InvalidInputError

    assert issubclass(MineDraftWorker, StandaloneWorkerV2)
    assert list(inspect.signature(MineDraftWorker.__init__).parameters) == list(
        inspect.signature(StandaloneWorkerV2.__init__).parameters)
    monkeypatch.setenv("MINEDRAFT_SGLANG_LANES", "bogus")
    with pytest.raises(InvalidInputError, match="MINEDRAFT_SGLANG_LANES"):
        MineDraftWorker(server_args=None, gpu_id=0, nccl_port=0, target_worker=None)


# -- the scheduler's forward-only sampling copy (issue 29) ---------------------------------
# SGLang 0.5.23's synchronous scheduler runs every forward inside
# Scheduler._forward_isolation, which hands the worker
# `batch.sampling_info.copy_for_forward()`: no penalizer orchestrator, penalties
# pre-accumulated into acc_additive_penalties / acc_scaling_penalties.


def _as_the_scheduler_hands_it(batch):
    batch.sampling_info = batch.sampling_info.copy_for_forward()
    assert batch.sampling_info.penalizer_orchestrator is None
    return batch


def test_forward_copy_of_a_greedy_batch_takes_the_psd_path(make_batch):
    rids = ["a", "bb", "c", "dd"]
    start = [8, 9, 10, 11]
    batch = make_batch(rids, start, temperatures=[0.0] * 4)
    scheduler_sampling = batch.sampling_info
    oracle = OracleWorker()
    w = oracle.worker
    committed = {r: [] for r in rids}
    for _ in range(4):
        batch.sampling_info = scheduler_sampling.copy_for_forward()  # a fresh copy per forward
        assert batch.sampling_info.penalizer_orchestrator is None
        assert w._fallback_reason(batch, None, None) is None
        for rid, toks in _apply(batch, w.forward_batch_generation(batch)).items():
            committed[rid] += toks
    assert w.psd_stats["calls"] == 4 and w.psd_stats["overlapped"] == 4
    for rid, n in zip(rids, start):
        assert committed[rid] == [truth(rid, n + j) for j in range(len(committed[rid]))]


def test_forward_copy_of_a_penalties_batch_falls_back_to_standalone(make_batch, monkeypatch):
    from sglang.srt.speculative.standalone_worker_v2 import StandaloneWorkerV2

    penalties = [{}, {"frequency_penalty": 0.5}, {}, {"presence_penalty": 0.3}]
    batch = _as_the_scheduler_hands_it(make_batch(["a", "b", "c", "d"], [5, 6, 7, 8], temperatures=[0.0] * 4,
                                                  penalties=penalties))
    assert batch.sampling_info.acc_additive_penalties is not None
    w = OracleWorker().worker
    assert w._fallback_reason(batch, None, None) == "per_row_sampling_state"
    seen = []
    monkeypatch.setattr(StandaloneWorkerV2, "forward_batch_generation",
                        lambda self, b, **kw: seen.append(b) or "standalone result")
    assert w.forward_batch_generation(batch) == "standalone result"
    assert seen == [batch] and w.psd_stats["fallback_per_row_sampling_state"] == 1 and not w.psd_stats["calls"]


def test_sub_batch_of_a_forward_copy_selects_its_rows(make_batch):
    from minedraft.adapters.sglang.batching import sub_batch

    penalties = [{"frequency_penalty": 0.1 * (i + 1)} for i in range(4)]
    batch = _as_the_scheduler_hands_it(make_batch(["a", "b", "c", "d"], [5, 6, 7, 8], penalties=penalties))
    info = batch.sampling_info
    # Distinct rows, so that a wrong selection shows.
    info.acc_additive_penalties = torch.arange(4 * V, dtype=torch.float32).view(4, V)
    info.acc_scaling_penalties = torch.rand(4, V) + 1.0
    additive, scaling = info.acc_additive_penalties.clone(), info.acc_scaling_penalties.clone()
    sub = sub_batch(batch, [1, 3])
    assert sub.sampling_info.penalizer_orchestrator is None
    assert torch.equal(sub.sampling_info.acc_additive_penalties, additive[[1, 3]])
    assert torch.equal(sub.sampling_info.acc_scaling_penalties, scaling[[1, 3]])
    assert torch.equal(sub.sampling_info.temperatures.view(-1), info.temperatures.view(-1)[[1, 3]])
    # The scheduler's batch and its copy are untouched.
    assert batch.sampling_info is info and info.penalizer_orchestrator is None
    assert torch.equal(info.acc_additive_penalties, additive) and torch.equal(info.acc_scaling_penalties, scaling)
    assert len(batch.reqs) == 4


def test_greedy_forward_copy_has_no_penalty_state(make_batch):
    from minedraft.adapters.sglang.batching import has_penalties

    plain = make_batch(["a", "b"], [4, 5], temperatures=[0.0, 0.0])
    assert not has_penalties(plain.sampling_info)
    assert not has_penalties(_as_the_scheduler_hands_it(plain).sampling_info)
    penalised = make_batch(["a", "b"], [4, 5], penalties=[{}, {"frequency_penalty": 0.5}])
    assert has_penalties(penalised.sampling_info)  # hand-built: orchestrator present
    assert has_penalties(_as_the_scheduler_hands_it(penalised).sampling_info)  # forward copy



@pytest.mark.parametrize("lanes", ["threads", "cuda_streams"])
def test_overlapping_lanes_give_each_forward_its_own_inputs(monkeypatch, lanes):
    """SGLang's eager runners share static input buffers between target and draft; an
    overlapping lane turns that copy off, and refuses a user's explicit opt-back-in."""
    w = OracleWorker(lanes).worker
    w.lanes = lanes
    monkeypatch.delenv("SGLANG_EAGER_INPUT_NO_COPY", raising=False)
    w._own_forward_inputs()
    assert os.environ["SGLANG_EAGER_INPUT_NO_COPY"] == "1"
    monkeypatch.setenv("SGLANG_EAGER_INPUT_NO_COPY", "0")
    with pytest.raises(RuntimeError, match="SGLANG_EAGER_INPUT_NO_COPY=1"):
        w._own_forward_inputs()
