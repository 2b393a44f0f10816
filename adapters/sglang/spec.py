"""``MineDraftSpecAlgo``: how SGLang's scheduler and model runner see MINEDRAFT.

MINEDRAFT runs SGLang's STANDALONE machinery (a separate draft model, chain drafts,
EAGLE-v2 verify kernels and KV layout) with a PSD schedule inside the worker, so it
answers SGLang's capability questions as STANDALONE does. SGLang 0.5.23's base
``CustomSpecAlgo`` lacks ``create_future_map`` (called unconditionally by the
scheduler), ``need_topk``, ``carries_draft_hidden_states`` and ``get_platform_worker_cls``;
they are supplied here.
"""

from __future__ import annotations

from typing import Any

from sglang.srt.speculative.spec_registry import CustomSpecAlgo

from . import config


class MineDraftSpecAlgo(CustomSpecAlgo):
    def is_standalone(self) -> bool:
        # STANDALONE branches apply: no target hidden-state capture, dummy EagleVerifyInput
        # for CUDA-graph capture, draft KV sized per decode.
        return True

    def need_topk(self) -> bool:
        return True

    def carries_draft_hidden_states(self) -> bool:
        return False

    def has_draft_kv(self) -> bool:
        return True

    def supports_mixed_chunk(self) -> bool:
        return False

    def supports_grammar_overlap(self) -> bool:
        # Grammar batches take the plain STANDALONE path (see worker), synchronously.
        return False

    def get_platform_worker_cls(self) -> type | None:
        return None

    def create_future_map(
        self,
        device: Any,
        req_to_token_pool: Any,
        needs_cpu_seq_lens: bool = True,
        needs_confidence_relay: bool = False,
    ) -> Any:
        from sglang.srt.managers.overlap_utils import FutureMap

        return FutureMap(device, self, req_to_token_pool, needs_cpu_seq_lens, needs_confidence_relay)

    def handle_server_args(self, server_args: Any) -> None:
        config.handle_server_args(server_args)
