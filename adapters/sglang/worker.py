"""``MineDraftWorker``: SGLang's STANDALONE worker with a PSD schedule inside each call.

One decode call of SGLang's synchronous scheduler (``forward_batch_generation``) runs:

    split the batch (minedraft.psd_state.plan_split) into ``first`` and ``second``
    draft lane : [draft first-without-stored-drafts] [draft second]    ...  [draft first']
    target lane:                 wait -> [verify first + draft-extend]  [verify second + draft-extend]

``first'`` is ``first`` after its verification; its drafts are kept in a ``DraftStore``
keyed by request id and stamped with the committed KV length, and verified at the next
call, so the draft of one sub-batch runs while the target verifies the other. The draft
lane is a second CUDA stream of the target's GPU (``MINEDRAFT_SGLANG_LANES=cuda_streams``), a
second thread with its own torch intra-op threads (``threads``: the CPU lane; SGLang's
forward context is made per thread, see ``forward_context_per_thread``) or the same stream
(``inline``: identical schedule, no overlap). Drafting, verification,
draft-extend, KV pools, CUDA graphs and sampling kernels are SGLang's own (the STANDALONE
worker's ``draft``, ``verify`` and ``_draft_extend_for_decode``); only the order and the
sub-batches are MineDraft's. Every request receives at least one token per call.

Calls PSD does not handle go to SGLang's STANDALONE path unchanged: prefill, idle and
single-request batches, and batches with grammars, penalties, custom logit processors,
logprobs or hidden states. A request verified there simply finds its stored draft stale.

Chain drafts only (topk = 1), synchronous scheduler only (enforced by the server-args hooks).
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import Future
from typing import Any

import torch
from sglang.srt.configs.hybrid_arch import mambaish_config
from sglang.srt.layers.moe.utils import speculative_moe_a2a_backend_context, speculative_moe_backend_context
from sglang.srt.model_executor.forward_batch_info import ForwardMode
from sglang.srt.speculative.eagle_worker_common import build_eagle_verify_input, prepare_for_draft
from sglang.srt.speculative.spec_utils import draft_tp_context
from sglang.srt.speculative.standalone_worker_v2 import StandaloneWorkerV2

from minedraft.lanes import ThreadLane
from minedraft.psd_state import DraftStore, plan_split

from .batching import assemble_tokens, has_penalties, merge_results, row_keys, shared_workspaces, sub_batch
from .config import (
    DEFAULT_LANES,
    ENV_LANE_THREADS,
    ENV_LANES,
    decode_graphs_on,
    options_from_env,
    write_stats,
)

logger = logging.getLogger(__name__)
_NO_COPY = "SGLANG_EAGER_INPUT_NO_COPY"


class MineDraftWorker(StandaloneWorkerV2):
    def __init__(self, server_args: Any, gpu_id: int, nccl_port: int, target_worker: Any) -> None:
        self.options = options_from_env()  # bad environment fails before any model loads
        super().__init__(server_args, gpu_id, nccl_port, target_worker)
        if self.topk != 1:
            raise RuntimeError(f"MINEDRAFT needs speculative_eagle_topk == 1, got {self.topk}")
        # Hybrid (Mamba / linear-attention) targets keep recurrent state that verification
        # commits; PSD's sub-batches are not checked against it: STANDALONE serves them.
        self._hybrid = mambaish_config(self._target_worker.model_runner.model_config) is not None
        self.store: DraftStore = DraftStore()
        self.psd_stats: Counter = Counter()
        self._side_stream = None
        self._draft_thread: ThreadLane | None = None
        self.lanes = self._choose_lanes(server_args)
        if self.lanes in ("threads", "cuda_streams"):
            self._own_forward_inputs()
        if self.lanes == "threads":
            self._start_draft_thread(server_args)
        if self.lanes == "cuda_streams":
            if not (torch.cuda.is_available() and str(self.device).startswith("cuda")):
                raise RuntimeError(
                    f"MINEDRAFT_SGLANG_LANES=cuda_streams overlaps drafting and verification on two "
                    f"CUDA streams, but the device is {self.device!r}; set MINEDRAFT_SGLANG_LANES=inline"
                )
            self._side_stream = torch.cuda.Stream(device=self.device)

    def _choose_lanes(self, server_args: Any) -> str:
        """The lane kind: the environment's, else by device. SGLang coalesces the graph
        input buffers of every runner (target, draft, draft-extend) into one process-wide
        pool, safe only while their replays never overlap (``share_input_buffer``); so with
        decode graphs captured the drafting is not overlapped by default, and overlapping
        lanes are refused."""
        graphs = decode_graphs_on(server_args)
        lanes = self.options.lanes
        if lanes is None:
            lanes = DEFAULT_LANES.get(torch.device(self.device).type, "inline")
            if lanes == "cuda_streams" and graphs:
                logger.warning("MINEDRAFT: decode CUDA graphs are on, so drafting runs inline (not overlapped): "
                               "graph replays of target and draft share SGLang's input buffers. Pass "
                               "--cuda-graph-backend-decode disabled to overlap them on two streams.")
                lanes = "inline"
        elif lanes in ("threads", "cuda_streams") and graphs:
            raise RuntimeError(
                f"{ENV_LANES}={lanes} needs decode CUDA graphs off (--cuda-graph-backend-decode disabled): graph "
                "replays of target and draft share SGLang's input buffers and must not overlap; or use inline"
            )
        return lanes

    def init_attention_backends(self) -> None:
        super().init_attention_backends()
        if self._side_stream is None:
            return
        target = [self._target_worker.model_runner.attn_backend]
        draft = [self._draft_worker.draft_attn_backend, self._draft_worker.draft_extend_attn_backend,
                 self._draft_worker.draft_runner.attn_backend]
        clashes = shared_workspaces(target, draft)
        if clashes:
            raise RuntimeError(
                f"MINEDRAFT_SGLANG_LANES=cuda_streams runs target and draft attention concurrently, but "
                f"they share a workspace buffer ({clashes}); choose backends without a shared "
                "workspace (e.g. --attention-backend fa3 or triton) or set MINEDRAFT_SGLANG_LANES=inline"
            )

    def _own_forward_inputs(self) -> None:
        """Each eager forward reads its own batch's tensors (``SGLANG_EAGER_INPUT_NO_COPY``).

        SGLang's eager runners copy every forward's inputs (input ids, positions, KV write
        locations, ...) into static buffers that one process-wide pool shares between the
        target's and the draft's model runners. A draft forward overlapping a target
        forward would then overwrite the target's inputs mid-forward (seen on CPU with the
        threads lane: wrong tokens in every request)."""
        if os.environ.get(_NO_COPY, "1").strip().lower() in ("0", "false", "no"):
            raise RuntimeError(f"MINEDRAFT_SGLANG_LANES={self.lanes} needs {_NO_COPY}=1 (overlapping forwards must "
                               f"not share SGLang's eager input buffers); got {_NO_COPY}={os.environ[_NO_COPY]!r}")
        os.environ[_NO_COPY] = "1"  # read at every forward, by this process only

    def _start_draft_thread(self, server_args: Any) -> None:
        """The threads lane: a draft thread, each lane with ``lane_threads`` intra-op threads
        during a PSD call, and SGLang's forward context per thread."""
        from .forward_context_per_thread import make_forward_context_per_thread

        # The draft thread runs outside SGLang's draft TP and MoE-backend contexts (they swap
        # process-wide settings, which two threads would interleave): fine only without TP and
        # MoE. (STANDALONE's draft shares the target's layout, whose tp_group reads None even
        # under tensor parallelism: the server's tp_size says it.)
        hf_config = self.draft_worker.draft_runner.model_config.hf_config
        experts = [a for a in ("num_experts", "num_local_experts", "n_routed_experts") if getattr(hf_config, a, None)]
        tp_size = getattr(server_args, "tp_size", 1) or 1
        if tp_size != 1 or experts:
            raise RuntimeError(
                "MINEDRAFT_SGLANG_LANES=threads needs --tp-size 1 and a draft model without experts "
                f"(got --tp-size {tp_size}, expert fields: {experts}); use cuda_streams or inline"
            )
        make_forward_context_per_thread()
        self._all_threads = torch.get_num_threads()
        self._lane_threads = self.options.lane_threads or max(1, self._all_threads // 2)
        if self._lane_threads > self._all_threads:
            raise RuntimeError(f"{ENV_LANE_THREADS}={self._lane_threads} exceeds the process's "
                               f"{self._all_threads} torch threads")
        self._draft_thread = ThreadLane("draft")
        self._draft_thread.submit("threads", torch.set_num_threads, self._lane_threads).result()

    @contextlib.contextmanager
    def _lane_threads_scope(self) -> Iterator[None]:
        """The target lane's intra-op threads during a PSD call (threads lane), restored
        after: prefill and STANDALONE fallbacks keep every thread."""
        if self._draft_thread is None:
            yield
            return
        torch.set_num_threads(self._lane_threads)
        try:
            yield
        finally:
            torch.set_num_threads(self._all_threads)

    # -- entry point ---------------------------------------------------------------------
    def forward_batch_generation(self, batch, on_publish=None, grammar_barrier=None, pp_proxy_tensors=None):
        reason = self._fallback_reason(batch, on_publish, pp_proxy_tensors)
        if reason is not None:
            self.psd_stats[f"fallback_{reason}"] += 1
            result = super().forward_batch_generation(
                batch, on_publish=on_publish, grammar_barrier=grammar_barrier, pp_proxy_tensors=pp_proxy_tensors
            )
        else:
            with self._lane_threads_scope():
                result = self._psd_decode(batch)
        self._publish_stats()
        return result

    def _publish_stats(self) -> None:
        """Write the counters to MINEDRAFT_SGLANG_STATS_FILE, if set (monitoring, tests)."""
        if self.options.stats_file:
            write_stats(self.options.stats_file, self.psd_stats, self.store.stats)

    def _fallback_reason(self, batch: Any, on_publish: Any, pp_proxy_tensors: Any) -> str | None:
        mode = batch.forward_mode
        if mode.is_extend() or batch.is_extend_in_batch:
            return "prefill"
        if mode.is_idle() or len(batch.reqs) < 2:
            return "small"
        if on_publish is not None or pp_proxy_tensors is not None:
            return "overlap_or_pp"
        info = batch.spec_info
        if info is None or info.is_verify_input() or self.speculative_num_steps == 0:
            return "no_draft_input"
        if has_penalties(batch.sampling_info) or batch.sampling_info.has_custom_logit_processor:
            return "per_row_sampling_state"
        if batch.has_grammar or batch.return_logprob or batch.return_hidden_states:
            return "grammar_logprob_hidden"
        if self._hybrid or batch.mamba_track_indices is not None or batch.hisparse_coordinator is not None:
            return "hybrid_memory"
        return None

    # -- the PSD call ----------------------------------------------------------------------
    def _psd_decode(self, batch: Any):
        keys, stamps = row_keys(batch)
        plan = plan_split(keys, stamps, self.store, slack=self.options.slack)
        stored = {r: self.store.take(keys[r], stamps[r]) for r in plan.stored_rows}
        self.psd_stats["calls"] += 1
        self.psd_stats["overlapped"] += int(plan.overlapped)
        self.psd_stats["sequential_drafts"] += len(plan.draft_first)
        self.psd_stats["stored_drafts_used"] += len(stored)

        first = sub_batch(batch, plan.first)
        second = sub_batch(batch, plan.second) if plan.second else None
        # Draft lane: `first`'s missing drafts (the sequential part), then `second`'s; the
        # target lane verifies `first` as soon as its own drafts are ready.
        self._draft_lane_waits(self._mark_target_lane())  # sub-batches were built on the target lane
        tokens_first = self._on_draft_lane(self._tokens_for, first, plan.first, plan.draft_first, stored).result()
        first_ready = self._mark_draft_lane()
        pending_second = (self._on_draft_lane(self._tokens_for, second, plan.second, plan.draft_second, stored)
                          if second else None)
        second_ready = self._mark_draft_lane()

        self._target_lane_waits(first_ready)
        result_first = self._verify_and_extend(first, tokens_first)
        parts = [(plan.first, result_first)]
        if second is None:
            return merge_results(parts, self.speculative_num_draft_tokens)
        first_next = self._advance(first, result_first)  # host sync: `first`'s verification only
        first_next_ready = self._mark_target_lane()
        # `first` drafts for the next call while the target verifies `second`: a draft
        # thread starts now; a CUDA stream launches after the verification is queued.
        pending_next = self._on_draft_lane(self._draft, first_next) if self._draft_thread else None

        tokens_second = pending_second.result()
        self._target_lane_waits(second_ready)
        result_second = self._verify_and_extend(second, tokens_second)
        parts.append((plan.second, result_second))
        if pending_next is None:
            self._draft_lane_waits(first_next_ready)
            pending_next = self._on_draft_lane(self._draft, first_next)
        next_tokens = pending_next.result()
        if self._side_stream is not None:
            torch.cuda.current_stream().wait_stream(self._side_stream)
        next_keys, next_stamps = row_keys(first_next)
        for j, (key, stamp) in enumerate(zip(next_keys, next_stamps)):
            self.store.put(key, stamp, next_tokens[j])
        return merge_results(parts, self.speculative_num_draft_tokens)

    def _tokens_for(self, sub: Any, rows: list[int], fresh: list[int], stored: dict) -> torch.Tensor:
        """Draft tokens ``[len(rows), steps]`` of a sub-batch, on the draft lane: stored
        ones plus fresh drafts for the rows in ``fresh``."""
        local = {r: j for j, r in enumerate(rows)}
        fresh_local = [local[r] for r in fresh]
        mine = {local[r]: t for r, t in stored.items() if r in local}
        with self._draft_stream():
            drafted = self._draft(sub_batch(sub, fresh_local)) if fresh_local else None
            return assemble_tokens(len(rows), fresh_local, drafted, mine)

    def _draft(self, sub: Any) -> torch.Tensor:
        """SGLang's chain draft for a sub-batch: ``[bs, steps]`` draft tokens.

        ``EagleDraftWorker.draft`` minus its verify-input build: that build writes the
        target attention backend's verify-mask buffer, which the target lane may be
        reading at the same moment. The verify input is built on the target lane instead.
        """
        dw = self.draft_worker
        # On the draft thread, outside the draft contexts (see _start_draft_thread).
        with contextlib.nullcontext() if self._draft_thread else self._draft_contexts():
            forward_batch, can_run_graph, _ = prepare_for_draft(
                sub.spec_info, dw.req_to_token_pool, sub, dw.cuda_graph_runner, dw.draft_runner, self.topk,
                self.speculative_num_steps, target_translator=self.target_worker.model_runner.kv_index_translator,
                num_draft_tokens=self.speculative_num_draft_tokens,
            )
            if can_run_graph:
                _, _, tokens, _ = dw.cuda_graph_runner.execute(forward_batch)
            else:
                if self.speculative_num_steps > 1:
                    dw.draft_attn_backend.init_forward_metadata(forward_batch)
                    forward_batch.mark_forward_metadata_ready()
                _, _, tokens, _ = dw.draft_forward(forward_batch)
        # Graph outputs live in the graph's buffers, overwritten by the next replay.
        return tokens.reshape(-1, self.speculative_num_steps)[: len(sub.reqs)].clone()

    def _verify_and_extend(self, sub: Any, tokens: torch.Tensor):
        """Verify ``tokens`` for a sub-batch, then catch the draft model up (draft-extend)."""
        # prepare_for_draft assigns the iteration's KV write window and plan without a
        # forward; build_eagle_verify_input turns the tokens into SGLang's chain verify input.
        forward_batch, _, kv_loc_plan = prepare_for_draft(
            sub.spec_info, self.req_to_token_pool, sub, None, self.draft_worker.draft_runner, self.topk,
            self.speculative_num_steps, target_translator=self.target_worker.model_runner.kv_index_translator,
            num_draft_tokens=self.speculative_num_draft_tokens,
        )
        verify_input = build_eagle_verify_input(
            sub, sub.spec_info, self.draft_worker._topk1_parents_prealloc[: len(sub.reqs)],
            self.draft_worker._topk1_score_indices_prealloc[: len(sub.reqs)], tokens, None,
            target_worker=self.target_worker, topk=self.topk, num_steps=self.speculative_num_steps,
            num_draft_tokens=self.speculative_num_draft_tokens, tree_mask_mode=self.draft_worker.tree_mask_mode,
            device=self.device,
        )
        if kv_loc_plan is not None:
            verify_input.kv_loc_plan = kv_loc_plan
            verify_input.prepared_out_cache_loc = kv_loc_plan.write_virtual
        sub.spec_info = verify_input
        result = self.verify(sub)
        with self._draft_contexts():
            self.draft_worker._draft_extend_for_decode(sub, result, kv_loc_plan=verify_input.kv_loc_plan)
        return result

    def _advance(self, sub: Any, result: Any) -> Any:
        """The sub-batch as the next call will see it (as SGLang's PP tail-draft does)."""
        nxt = sub_batch(sub, list(range(len(sub.reqs))), result.next_draft_input)
        nxt.seq_lens = result.new_seq_lens
        nxt.seq_lens_cpu = result.new_seq_lens.to("cpu")  # waits for this verification only
        nxt.seq_lens_sum = int(nxt.seq_lens_cpu.sum())
        nxt.forward_mode = ForwardMode.DECODE
        nxt.input_ids = None
        return nxt

    # -- lanes -------------------------------------------------------------------------------
    def _draft_contexts(self):
        stack = contextlib.ExitStack()
        stack.enter_context(draft_tp_context(self.draft_worker.parallel_layout))
        stack.enter_context(speculative_moe_backend_context())
        stack.enter_context(speculative_moe_a2a_backend_context())
        return stack

    def _on_draft_lane(self, fn, *args) -> Future:
        """Run ``fn`` on the draft lane: on the draft thread (``threads``: the future is
        pending), under the draft stream (``cuda_streams``) or plainly (``inline``); for
        the last two the future is done on return, its kernels maybe not."""
        if self._draft_thread is not None:
            return self._draft_thread.submit("draft", fn, *args)
        done: Future = Future()
        with self._draft_stream():
            done.set_result(fn(*args))
        return done

    def _draft_stream(self):
        return torch.cuda.stream(self._side_stream) if self._side_stream is not None else contextlib.nullcontext()

    def _mark_target_lane(self):
        return torch.cuda.current_stream().record_event() if self._side_stream is not None else None

    def _mark_draft_lane(self):
        return self._side_stream.record_event() if self._side_stream is not None else None

    def _draft_lane_waits(self, event: Any) -> None:
        if event is not None:
            self._side_stream.wait_event(event)

    def _target_lane_waits(self, event: Any) -> None:
        if event is not None:
            torch.cuda.current_stream().wait_event(event)
