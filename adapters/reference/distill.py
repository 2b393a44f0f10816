"""``minedraft distill``: train a draft model for a target by distillation, offline.

Recipe (docs/embedded-pair.md has the measured run):

1. Data: the target answers the shipped training prompts (``distill_prompts``) in its
   chat template, a quarter of the batches greedy and the rest sampled (T = 0.7 and 1.0).
   For every position we keep the token and the target's last hidden state (post-norm,
   what the LM head reads), in safetensors shards under ``<out>/data`` (reused when present).
2. Train on answer positions only:
   - ``eagle``: the draft head reads (token embedding, previous position's target feature)
     and regresses the target's next feature (smooth L1) while matching the target's
     next-token distribution over the draft's token subset (KL). It is unrolled for
     ``--unroll`` steps (EAGLE-3's "training-time test"): step s >= 1 feeds the draft's own
     features back, attending to the step-0 cache plus its own diagonal, exactly as drafting
     does at run time.
   - ``standalone``: a small Llama (target embedding frozen, layers copied from the target)
     matching the target's distribution (KL) over the token subset.
3. Evaluate on the held-out prompts: teacher-forced agreement (greedy) and sum min(p, q) at
   T = 1 for the first draft position, and for the eagle kind the chained acceptance of k
   drafted tokens.
4. Write ``model.safetensors`` + ``config.json`` (no target embedding or head inside) and
   ``metrics.json`` to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import torch

from minedraft.rules.cost_model import expected_tokens
from minedraft.types import InvalidInputError

Log = Callable[[str], None]


def _log(msg: str) -> None:
    print(f"[distill {time.strftime('%H:%M:%S')}] {msg}", flush=True)


# ---------------------------------------------------------------------------------------
# Prompts
# ---------------------------------------------------------------------------------------


def load_prompts(n_train: int | None, n_heldout: int | None, seed: int,
                 categories: Sequence[str] | None = None) -> tuple[list[str], list[str]]:
    from minedraft import prompts

    from . import distill_prompts

    return (distill_prompts.training_prompts(n_train, seed=seed, categories=categories),
            prompts.heldout_prompts(n_heldout))


def chat_ids(tokenizer: Any, prompt: str) -> list[int]:
    text = tokenizer.apply_chat_template([{"role": "user", "content": prompt}], tokenize=False,
                                         add_generation_prompt=True)
    return list(tokenizer.encode(text, add_special_tokens=False))  # the template holds them


# ---------------------------------------------------------------------------------------
# Data generation: the target answers prompts; keep tokens and last hidden states
# ---------------------------------------------------------------------------------------


@torch.inference_mode()
def generate_batch(
    model: torch.nn.Module,
    prompts_ids: Sequence[list[int]],
    *,
    max_new_tokens: int,
    temperature: float,
    eos_id: int | None,
    pad_id: int,
    generator: torch.Generator,
) -> list[tuple[list[int], torch.Tensor, int]]:
    """(tokens, hidden [len(tokens), H] with a zero last row, prompt length) per prompt.

    hidden[j] is the target's last hidden state at position j: the one its LM head turns
    into the distribution of token j + 1."""
    from transformers import DynamicCache

    base, head = getattr(model, model.base_model_prefix), model.get_output_embeddings()
    batch = len(prompts_ids)
    lens = [len(p) for p in prompts_ids]
    width = max(lens)
    ids = torch.full((batch, width), pad_id, dtype=torch.long)
    attn = torch.zeros(batch, width, dtype=torch.long)
    for b, p in enumerate(prompts_ids):  # left padding: every row's next position is `width`
        ids[b, width - len(p):] = torch.tensor(p)
        attn[b, width - len(p):] = 1
    pos = (attn.cumsum(-1) - 1).clamp_min(0)
    cache = DynamicCache()
    hidden = base(input_ids=ids, attention_mask=attn, position_ids=pos, cache=cache, use_cache=True)[0]
    prompt_hidden = hidden  # [batch, width, H]
    last = hidden[:, -1]  # [batch, H]
    steps_hidden: list[torch.Tensor] = []
    generated: list[list[int]] = [[] for _ in range(batch)]
    done = [False] * batch
    next_pos = pos[:, -1] + 1  # [batch]
    for step in range(max_new_tokens):
        logits = head(last).float()  # [batch, vocab]
        if temperature <= 0:
            tok = logits.argmax(-1)
        else:
            tok = torch.multinomial(torch.softmax(logits / temperature, -1), 1, generator=generator).squeeze(-1)
        for b in range(batch):
            if not done[b]:
                generated[b].append(int(tok[b]))
                done[b] = eos_id is not None and int(tok[b]) == eos_id
        if all(done) or step == max_new_tokens - 1:
            break
        attn = torch.cat([attn, torch.ones(batch, 1, dtype=torch.long)], 1)
        last = base(input_ids=tok.unsqueeze(1), attention_mask=attn, position_ids=next_pos.unsqueeze(1),
                    cache=cache, use_cache=True)[0][:, -1]
        steps_hidden.append(last)
        next_pos = next_pos + 1
    out = []
    for b in range(batch):
        gen = generated[b]
        # Positions: prompt (lens[b]) then generated tokens; hidden for all but the last token.
        h_prompt = prompt_hidden[b, width - lens[b]:]  # [lens[b], H]
        h_gen = [s[b] for s in steps_hidden[: len(gen) - 1]]
        rows = [h_prompt] + ([torch.stack(h_gen)] if h_gen else []) + [torch.zeros_like(h_prompt[:1])]
        out.append((list(prompts_ids[b]) + gen, torch.cat(rows).to(torch.bfloat16), lens[b]))
    return out


def save_shard(path: Path, sequences: Sequence[tuple[list[int], torch.Tensor, int]]) -> None:
    from safetensors.torch import save_file

    offsets = [0]
    for toks, _, _ in sequences:
        offsets.append(offsets[-1] + len(toks))
    save_file({
        "tokens": torch.tensor([t for toks, _, _ in sequences for t in toks], dtype=torch.int32),
        "hidden": torch.cat([h for _, h, _ in sequences]).contiguous(),  # [tokens, H] bf16
        "offsets": torch.tensor(offsets, dtype=torch.int64),
        "prompt_lens": torch.tensor([p for _, _, p in sequences], dtype=torch.int64),
    }, str(path.with_suffix(".tmp")))
    path.with_suffix(".tmp").replace(path)


def load_shards(data_dir: Path) -> list[tuple[torch.Tensor, torch.Tensor, int]]:
    """(tokens [L] int64, hidden [L, H] bf16, prompt length) per sequence."""
    seqs = []
    for path in sorted(data_dir.glob("shard-*.safetensors")):
        seqs.extend(load_shard(path))
    return seqs


def load_shard(path: Path) -> list[tuple[torch.Tensor, torch.Tensor, int]]:
    from safetensors.torch import load_file

    d = load_file(str(path))
    off = d["offsets"].tolist()
    return [(d["tokens"][off[i]:off[i + 1]].long(), d["hidden"][off[i]:off[i + 1]], int(plen))
            for i, plen in enumerate(d["prompt_lens"].tolist())]


def answered_prompts(data_dir: Path) -> set[tuple[int, ...]]:
    """The prompt token ids of every sequence in ``data_dir``'s shards (tokens only: the
    hidden states, most of a shard's bytes, are not read)."""
    from safetensors import safe_open

    seen: set[tuple[int, ...]] = set()
    for path in sorted(data_dir.glob("shard-*.safetensors")):
        with safe_open(str(path), framework="pt") as f:
            tokens, offsets = f.get_tensor("tokens").tolist(), f.get_tensor("offsets").tolist()
            for start, plen in zip(offsets, f.get_tensor("prompt_lens").tolist()):
                seen.add(tuple(tokens[start:start + plen]))
    return seen


def prune_unlisted(data_dir: Path, tokenizer: Any, prompts: Sequence[str], log: Log = _log) -> int:
    """Drop every sequence whose prompt is not in ``prompts`` from ``data_dir``'s shards (after
    an edit of the prompt set removed prompts, e.g. ones too close to a held-out prompt), so
    training never sees them. Rewrites only the shards that change; returns the number dropped."""
    listed = {tuple(chat_ids(tokenizer, p)) for p in prompts}
    dropped = 0
    for path in sorted(data_dir.glob("shard-*.safetensors")):
        seqs = load_shard(path)
        kept = [(t.tolist(), h, plen) for t, h, plen in seqs if tuple(t[:plen].tolist()) in listed]
        if len(kept) == len(seqs):
            continue
        dropped += len(seqs) - len(kept)
        if kept:
            save_shard(path, kept)
        else:
            path.unlink()
        log(f"data: {path.name}: dropped {len(seqs) - len(kept)} answers to prompts no longer listed")
    return dropped


def generate_data(
    model: torch.nn.Module,
    tokenizer: Any,
    prompts: Sequence[str],
    data_dir: Path,
    *,
    batch_size: int = 32,
    max_new_tokens: int = 128,
    temperatures: Sequence[float] = (0.0, 0.7, 1.0, 0.7),
    minutes: float | None = None,
    seed: int = 0,
    new_prompts_only: bool = False,
    log: Log = _log,
) -> None:
    """Answer ``prompts`` with the target, batch by batch, into ``data_dir/shard-*.safetensors``.
    Batches already on disk are skipped, so an interrupted run resumes.

    ``new_prompts_only``: before each batch, drop the prompts some shard in ``data_dir``
    already answers (also shards written meanwhile by another process with another seed, or
    linked in from elsewhere) and write ``shard-s{seed}-NNNNN`` files instead."""
    data_dir.mkdir(parents=True, exist_ok=True)
    eos = tokenizer.eos_token_id
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else (eos or 0)
    order = list(range(len(prompts)))
    random.Random(seed).shuffle(order)
    batches = (_unanswered_batches(tokenizer, prompts, order, data_dir, batch_size, seed, log) if new_prompts_only
               else _numbered_batches(order, data_dir, batch_size, log))
    t0, made = time.perf_counter(), 0
    for n, path, idx in batches:
        if minutes is not None and time.perf_counter() - t0 > 60 * minutes:
            log(f"data: time budget of {minutes} min reached before {path.name}")
            break
        ids = [chat_ids(tokenizer, prompts[i]) for i in idx]
        temp = temperatures[n % len(temperatures)]
        gen = torch.Generator().manual_seed(seed * 100003 + n)
        seqs = generate_batch(model, ids, max_new_tokens=max_new_tokens, temperature=temp, eos_id=eos,
                              pad_id=pad, generator=gen)
        save_shard(path, seqs)
        made += sum(len(t) - p for t, _, p in seqs)
        dt = time.perf_counter() - t0
        log(f"data: {path.name} T={temp} -> {made} answer tokens in {dt:.0f}s ({made / dt:.0f} tok/s)")


Batch = tuple[int, Path, list[int]]  # shard number, shard path, prompt indices


def _numbered_batches(order: list[int], data_dir: Path, batch_size: int, log: Log = _log) -> Iterator[Batch]:
    """Fixed batches of ``order``; batch n goes to ``shard-n`` and is skipped (and said so)
    when that exists."""
    skipped = 0
    for n, i in enumerate(range(0, len(order), batch_size)):
        path = data_dir / f"shard-{n:05d}.safetensors"
        if path.exists():
            skipped += 1
        else:
            yield n, path, order[i:i + batch_size]
    if skipped:
        log(f"data: skipped {skipped} batch(es) whose numbered shard exists in {data_dir} "
            "(--new-prompts-only answers by prompt instead)")


def _unanswered_batches(tokenizer: Any, prompts: Sequence[str], order: list[int], data_dir: Path,
                        batch_size: int, seed: int, log: Log) -> Iterator[Batch]:
    """The next ``batch_size`` prompts of ``order`` that no shard answers yet, re-read before
    each batch (a parallel process may have added shards), into ``shard-s{seed}-n``."""
    ids = {i: tuple(chat_ids(tokenizer, prompts[i])) for i in order}
    n = 0
    while True:
        answered = answered_prompts(data_dir)
        if not (todo := [i for i in order if ids[i] not in answered]):
            break
        while (path := data_dir / f"shard-s{seed}-{n:05d}.safetensors").exists():
            n += 1
        log(f"data: {len(todo)} prompts unanswered in {data_dir}")
        yield n, path, todo[:batch_size]
    log(f"data: every one of the {len(prompts)} prompts is answered in {data_dir}")


# ---------------------------------------------------------------------------------------
# Training
# ---------------------------------------------------------------------------------------

Sequence_ = tuple[torch.Tensor, torch.Tensor, int]  # tokens [L], hidden [L, H] (bf16), prompt length


def choose_token_map(seqs: Sequence[Sequence_], size: int, vocab_size: int, always: Sequence[int] = (),
                     texts: Sequence[list[int]] = ()) -> torch.Tensor | None:
    """The ``size`` target ids a draft may propose: the most frequent answer tokens of the
    data, then the most frequent tokens of ``texts`` (e.g. the tokenised prompts), then the
    lowest ids (BPE ids roughly follow merge frequency); ``always`` is kept in any case."""
    if size <= 0 or size >= vocab_size:
        return None
    answers = torch.zeros(vocab_size, dtype=torch.float64)
    for toks, _, plen in seqs:
        answers += torch.bincount(toks[plen:], minlength=vocab_size).double()
    other = torch.zeros(vocab_size, dtype=torch.float64)
    for ids in texts:
        other += torch.bincount(torch.tensor(ids, dtype=torch.long), minlength=vocab_size).double()
    # Lexicographic rank: answer count, then text count, then low id.
    score = answers * 1e9 + other.clamp(max=1e8) * 2 + (1 - torch.arange(vocab_size, dtype=torch.float64) / vocab_size)
    score[list(always)] = float("inf")
    return score.topk(size).indices.sort().values


def batch_tensors(seqs: Sequence[Sequence_], dtype: torch.dtype) -> dict[str, torch.Tensor]:
    """Right-padded ``ids [B, L]``, step-0 input features ``feats [B, L, H]`` (target feature of
    j - 1, zero at 0), target features ``target [B, L, H]`` and ``mask [B, L]`` of the positions
    that predict an answer token (prompt length - 1 .. L - 2)."""
    length = max(len(t) for t, _, _ in seqs)
    hidden = seqs[0][1].shape[-1]
    ids = torch.zeros(len(seqs), length, dtype=torch.long)
    target = torch.zeros(len(seqs), length, hidden, dtype=dtype)
    mask = torch.zeros(len(seqs), length, dtype=torch.bool)
    for b, (toks, h, plen) in enumerate(seqs):
        n = len(toks)
        ids[b, :n] = toks
        target[b, :n] = h.to(dtype)
        mask[b, max(plen - 1, 0): n - 1] = True
    feats = torch.cat([torch.zeros_like(target[:, :1]), target[:, :-1]], 1)
    return {"ids": ids, "feats": feats, "target": target, "mask": mask}


def _kl_subset(draft_logits: torch.Tensor, teacher_logits: torch.Tensor) -> torch.Tensor:
    """Mean KL(teacher || draft) over rows, both ``[M, N]`` subset logits."""
    p_log = torch.log_softmax(teacher_logits.float(), -1)
    q_log = torch.log_softmax(draft_logits.float(), -1)
    return (p_log.exp() * (p_log - q_log)).sum(-1).mean()


def eagle_loss(model: Any, batch: dict[str, torch.Tensor], steps: int, step_decay: float = 0.8,
               feature_weight: float = 0.1) -> tuple[torch.Tensor, dict[str, float]]:
    start = int(batch["mask"].any(0).nonzero()[0])  # steps >= 1 skip the common prompt part
    outs = model.unrolled(batch["ids"], batch["feats"], steps, start=start)
    total = torch.zeros(())
    stats: dict[str, float] = {}
    head = model.lm_head
    # The teacher's subset logits at every position any step needs, computed once.
    needed = batch["mask"].clone()
    for s in range(1, steps):
        needed[:, s:] |= batch["mask"][:, : needed.shape[1] - s]
    teacher_all = torch.zeros(*needed.shape, head.weight_sub.shape[0], dtype=torch.float32)
    with torch.no_grad():
        teacher_all[needed] = head.subset_logits(batch["target"][needed]).float()
    for s, out in enumerate(outs):
        # Step s at position j drafts after a committed prefix of j - s + 1 tokens: it needs
        # j - s >= prompt length - 1, i.e. mask at j - s.
        mask = torch.zeros_like(batch["mask"])
        mask[:, s:] = batch["mask"][:, : mask.shape[1] - s]
        lo = 0 if s == 0 else start
        mask, target = mask[:, lo:], batch["target"][:, lo:]
        if not bool(mask.any()):
            continue
        pred, tgt = out[mask], target[mask]  # [M, H]
        teacher = teacher_all[:, lo:][mask]  # [M, N]
        draft_logits = head.subset_logits(pred)
        kl = _kl_subset(draft_logits, teacher)
        reg = F_smooth_l1(pred.float(), tgt.float())
        total = total + step_decay**s * (kl + feature_weight * reg)
        stats[f"kl{s}"] = float(kl.detach())
        stats[f"acc{s}"] = float((draft_logits.argmax(-1) == teacher.argmax(-1)).float().mean())
    return total, stats


def standalone_loss(model: Any, batch: dict[str, torch.Tensor]) -> tuple[torch.Tensor, dict[str, float]]:
    mask = batch["mask"]
    hidden = model.hidden(batch["ids"])  # [B, L, H]
    head = model.lm_head
    with torch.no_grad():
        teacher = head.subset_logits(batch["target"][mask])
    draft_logits = head.subset_logits(hidden[mask])
    kl = _kl_subset(draft_logits, teacher)
    return kl, {"kl0": float(kl.detach()), "acc0": float((draft_logits.argmax(-1) == teacher.argmax(-1)).float().mean())}


def F_smooth_l1(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.smooth_l1_loss(a, b)


def train(
    model: Any,
    data_dir: Path,
    *,
    minutes: float,
    lr: float = 1e-3,
    batch_size: int = 8,
    unroll: int = 3,
    max_len: int = 320,
    seed: int = 0,
    log: Log = _log,
    progress: Callable[[int, float], None] | None = None,
    max_steps: int | None = None,
    autocast: bool = False,
) -> dict[str, Any]:
    """AdamW with warm-up and cosine decay over a wall-clock budget. New data shards that
    appear in ``data_dir`` while training (a generator still running) are picked up."""
    kind = model.draft_config.kind
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=lr, betas=(0.9, 0.98), weight_decay=0.0)
    rng = random.Random(seed)
    seqs = _trainable(load_shards(data_dir), max_len)
    known = len(list(data_dir.glob("shard-*.safetensors")))
    t0 = time.perf_counter()
    step, warmup, tokens = 0, 5, 0
    stats_avg: dict[str, float] = {}
    dtype = next(model.parameters()).dtype
    model.train()
    while True:
        elapsed = time.perf_counter() - t0
        if elapsed > 60 * minutes or (max_steps is not None and step >= max_steps):
            break
        if step % 50 == 0 and step:
            shards = len(list(data_dir.glob("shard-*.safetensors")))
            if shards != known:
                seqs, known = _trainable(load_shards(data_dir), max_len), shards
        frac = elapsed / (60 * minutes)
        scale = min(1.0, (step + 1) / warmup) * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(frac, 1.0))))
        for g in opt.param_groups:
            g["lr"] = lr * scale
        batch = batch_tensors(rng.sample(seqs, min(batch_size, len(seqs))), dtype)
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):  # the forward only
            loss, stats = eagle_loss(model, batch, unroll) if kind == "eagle" else standalone_loss(model, batch)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        step += 1
        tokens += int(batch["mask"].sum())
        for k, v in stats.items():
            stats_avg[k] = 0.9 * stats_avg.get(k, v) + 0.1 * v
        if step % 25 == 0:
            shown = " ".join(f"{k}={v:.3f}" for k, v in sorted(stats_avg.items()))
            log(f"train: step {step} {time.perf_counter() - t0:.0f}s seqs={len(seqs)} lr={lr * scale:.2e} {shown}")
        if progress is not None:
            progress(step, time.perf_counter() - t0)
    model.eval()
    return {"steps": step, "seconds": time.perf_counter() - t0, "answer_positions_seen": tokens,
            "sequences": len(seqs), "final": stats_avg}


def _trainable(seqs: list[Sequence_], max_len: int) -> list[Sequence_]:
    """Crop long sequences (keeping the prompt) and drop those without answer tokens."""
    out = []
    for toks, h, plen in seqs:
        if len(toks) > max_len:
            toks, h = toks[:max_len], h[:max_len]
        if len(toks) - plen >= 2 and plen >= 1:
            out.append((toks, h, plen))
    if not out:
        raise InvalidInputError("distill: no usable training sequences (every answer was empty)")
    return out


# ---------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------

DEFAULTS = {
    "eagle": {"num_layers": 1, "copy_layers": "-1"},
    "standalone": {"num_layers": 4, "copy_layers": "0,1,-2,-1"},
}


def register(sub: Any) -> None:
    p = sub.add_parser("distill", help="train a draft model for a target by distillation (offline)",
                       description=__doc__.split("\n\n")[0])
    p.add_argument("--target", default="smollm2", help="target model: 'smollm2', a directory or a .gguf file")
    p.add_argument("--out", required=True, help="output directory of the draft (config.json, model.safetensors, metrics.json)")
    p.add_argument("--kind", choices=("eagle", "standalone"), default="eagle")
    p.add_argument("--stage", choices=("all", "data", "train", "eval"), default="all",
                   help="run one stage only (data: generate; train: on the data present; eval: the draft in --out)")
    p.add_argument("--data-dir", default=None, help="training data shards (default: OUT/data); reused when present")
    p.add_argument("--num-prompts", type=int, default=None, help="training prompts to answer (default: all)")
    p.add_argument("--data-minutes", type=float, default=25.0, help="wall-clock budget of data generation")
    p.add_argument("--max-new-tokens", type=int, default=128, help="answer length when generating data")
    p.add_argument("--gen-batch-size", type=int, default=32)
    p.add_argument("--minutes", type=float, default=30.0, help="wall-clock budget of training")
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--batch-size", type=int, default=8, help="sequences per training step")
    p.add_argument("--unroll", type=int, default=3, help="eagle: drafting steps unrolled in training")
    p.add_argument("--num-layers", type=int, default=None,
                   help="decoder layers (default: eagle 1, standalone 4); with --resume, more than the draft has "
                        "appends layers copied from the target (--copy-layers) that start as the identity")
    p.add_argument("--copy-layers", default=None,
                   help="target layers to initialise from, comma-separated, negative from the end "
                        "(default: eagle -1, standalone 0,1,-2,-1; 'none' for random)")
    p.add_argument("--token-map-size", type=int, default=8192, help="draft head over the N most frequent tokens (0: all)")
    p.add_argument("--autocast", choices=("auto", "on", "off"), default="auto",
                   help="bf16 autocast in training (auto: on CPUs with fast bf16)")
    p.add_argument("--threads", type=int, default=1, help="torch intra-op threads")
    p.add_argument("--eval-prompts", type=int, default=None, help="held-out prompts, greedy answers (default: all)")
    p.add_argument("--eval-sampled-prompts", type=int, default=100,
                   help="held-out prompts (the first N of those) with T = 1 answers")
    p.add_argument("--eval-tokens", type=int, default=64, help="target tokens per held-out answer")
    p.add_argument("-k", "--num-speculative-tokens", type=int, default=4, help="draft length for the chained acceptance")
    p.add_argument("--resume", action="store_true",
                   help="train: start from the draft already in --out (its config and token map) instead of afresh")
    p.add_argument("--overwrite", action="store_true",
                   help="train: replace a draft already in --out with a fresh one (without it, and without --resume, "
                        "that is refused)")
    p.add_argument("--remap-tokens", action="store_true",
                   help="with --resume: choose the head's token subset anew from the present data (--token-map-size); "
                        "the head is the target's, so no trained weight is lost")
    p.add_argument("--new-prompts-only", action="store_true",
                   help="data: skip prompts some shard in --data-dir already answers; processes with different "
                        "--seed may share one --data-dir")
    p.add_argument("--prune-unlisted", action="store_true",
                   help="data: first drop answers in --data-dir to prompts the (possibly edited) training set no "
                        "longer lists")
    p.add_argument("--prompt-categories", default=None, metavar="NAME[,NAME...]",
                   help="data/train: only the training prompts of these categories (distill_prompts.CATEGORIES), "
                        "e.g. to answer categories added since the last data run")
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=run)


def _grown_layers(args: argparse.Namespace, have: int, num_target_layers: int) -> list[int]:
    """--resume with a larger --num-layers: the target layers the new draft layers copy
    (--copy-layers, one per new layer; default the target's last layer for each)."""
    if args.num_layers < have:
        raise InvalidInputError(f"--num-layers {args.num_layers} with --resume: the draft has {have} layers "
                                "and can grow, not shrink")
    grow = args.num_layers - have
    if args.copy_layers is None:
        return [num_target_layers - 1] * grow
    spec = _layer_indices(args.copy_layers, num_target_layers)
    if len(spec) != grow:
        raise InvalidInputError(f"--copy-layers {args.copy_layers!r} with --resume must name one target layer per "
                                f"new layer ({grow}: --num-layers {args.num_layers} on a {have}-layer draft)")
    return spec


def _layer_indices(spec: str, num_target_layers: int) -> list[int]:
    if spec.strip().lower() in ("", "none"):
        return []
    try:
        idx = [int(x) for x in spec.split(",")]
    except ValueError as exc:
        raise InvalidInputError(f"--copy-layers must be comma-separated integers or 'none', got {spec!r}") from exc
    out = [i % num_target_layers for i in idx]
    if any(i < -num_target_layers or i >= num_target_layers for i in idx):
        raise InvalidInputError(f"--copy-layers {spec!r} names layers outside the target's {num_target_layers}")
    return out


def _validate(args: argparse.Namespace) -> None:
    for name in ("minutes", "data_minutes"):
        value = getattr(args, name)
        if not math.isfinite(value) or value < 0:
            raise InvalidInputError(f"--{name.replace('_', '-')} must be a finite number >= 0, got {value}")
    if not math.isfinite(args.lr) or args.lr <= 0:
        raise InvalidInputError(f"--lr must be a finite number > 0, got {args.lr}")
    for name in ("num_prompts", "eval_prompts"):
        if getattr(args, name) is not None and getattr(args, name) < 1:
            raise InvalidInputError(f"--{name.replace('_', '-')} must be >= 1, got {getattr(args, name)}")
    for name in ("batch_size", "gen_batch_size", "unroll", "threads", "max_new_tokens", "eval_tokens",
                 "num_speculative_tokens", "eval_sampled_prompts"):
        if getattr(args, name) < 1:
            raise InvalidInputError(f"--{name.replace('_', '-')} must be >= 1, got {getattr(args, name)}")
    if args.num_layers is not None and args.num_layers < 1:
        raise InvalidInputError(f"--num-layers must be >= 1, got {args.num_layers}")
    if args.token_map_size < 0:
        raise InvalidInputError(f"--token-map-size must be >= 0, got {args.token_map_size}")
    if args.remap_tokens and not args.resume:
        raise InvalidInputError("--remap-tokens applies to --resume only (a fresh draft always chooses its token map)")
    if args.prompt_categories is not None:
        args.prompt_categories = _category_list(args.prompt_categories)
        # A subset's numbered batches would collide with the full set's shards and be skipped.
        args.new_prompts_only = True
    if args.copy_layers is not None:
        _layer_indices(args.copy_layers, 1 << 30)  # the format; the range is checked against the target


def _category_list(spec: str) -> list[str]:
    from .distill_prompts import CATEGORIES

    names = [c.strip() for c in spec.split(",") if c.strip()]
    unknown = [c for c in names if c not in CATEGORIES]
    if not names or unknown:
        raise InvalidInputError(f"--prompt-categories: unknown or missing name(s) {unknown or spec!r}; "
                                f"known: {','.join(CATEGORIES)}")
    return names


def _load_target(name: str, dtype: torch.dtype) -> tuple[Any, Any]:
    from .loading import load_causal_lm, load_tokenizer

    model = load_causal_lm(name, dtype=dtype, device="cpu", field_name="target")
    tokenizer = load_tokenizer(name)
    if tokenizer is None:
        raise InvalidInputError(f"--target {name!r} has no tokenizer; distill needs one for the chat template")
    return model, tokenizer


def _check_out(args: argparse.Namespace, out: Path) -> None:
    """What the stages will need of ``--out``, before any model loads."""
    from .draft_models import read_config

    has_draft = read_config(out) is not None
    if args.stage in ("all", "train") and has_draft and not (args.resume or args.overwrite):
        raise InvalidInputError(f"--out {str(out)!r} already holds a draft: pass --resume to continue training it "
                                "or --overwrite to replace it")
    if args.stage == "eval" and not has_draft:
        raise InvalidInputError(f"--stage eval: no draft in --out {str(out)!r} to evaluate")


def _check_data_target(data_dir: Path, target: str, tokenizer: Any, log: Log = _log) -> None:
    """Training data and cached held-out answers belong to one target's tokenizer: the first
    run records it in ``data_dir/target.json`` (the name, for the record, and the vocab
    hash, which must match). A directory of shards without the record predates it; it is
    taken as it is unless this tokenizer adds special tokens to a text, in which case its
    prompts were tokenized with them doubled (``chat_ids`` encodes without them now)."""
    from .draft_models import vocab_fingerprint

    record = {"target": target, "vocab_hash": vocab_fingerprint(tokenizer)}
    path = data_dir / "target.json"
    if path.is_file():
        try:
            found = json.loads(path.read_text())
            recorded_hash, recorded_target = found["vocab_hash"], found.get("target")
        except (ValueError, TypeError, KeyError) as exc:
            raise InvalidInputError(f"{str(path)!r} is not a target record ({exc}); fix or remove it") from exc
        if recorded_hash != record["vocab_hash"]:
            raise InvalidInputError(f"--data-dir {str(data_dir)!r} holds answers of target {recorded_target!r} "
                                    f"(vocab {recorded_hash}), not of --target {target!r} "
                                    f"(vocab {record['vocab_hash']}); use another --data-dir")
        if recorded_target != target:
            log(f"data: {data_dir} was made with --target {recorded_target!r}; {target!r} has the same vocabulary")
        return
    text = "x"
    if any(data_dir.glob("shard-*.safetensors")) and list(tokenizer.encode(text)) != \
            list(tokenizer.encode(text, add_special_tokens=False)):
        raise InvalidInputError(f"--data-dir {str(data_dir)!r} has no target record and its prompts were tokenized "
                                f"with {target!r}'s special tokens added to the chat template's own; use another "
                                "--data-dir")
    data_dir.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=2) + "\n")


def run(args: argparse.Namespace) -> int:
    _validate(args)
    from .loading import cpu_has_fast_bf16

    torch.set_num_threads(args.threads)
    out = Path(args.out)
    _check_out(args, out)
    data_dir = Path(args.data_dir) if args.data_dir else out / "data"
    metrics_path = out / "metrics.json"
    metrics: dict[str, Any] = json.loads(metrics_path.read_text()) if metrics_path.is_file() else {}
    metrics["target"] = args.target
    if args.stage in ("all", "data"):
        model, tok = _load_target(args.target, torch.bfloat16 if cpu_has_fast_bf16() else torch.float32)
        _check_data_target(data_dir, args.target, tok)
        train_prompts, _ = load_prompts(args.num_prompts, None, args.seed, args.prompt_categories)
        if args.prune_unlisted and data_dir.is_dir():  # against the whole set: the options only choose a subset
            prune_unlisted(data_dir, tok, load_prompts(None, None, 0)[0])
        t0 = time.perf_counter()
        generate_data(model, tok, train_prompts, data_dir, batch_size=args.gen_batch_size,
                      max_new_tokens=args.max_new_tokens, minutes=args.data_minutes, seed=args.seed,
                      new_prompts_only=args.new_prompts_only)
        metrics["data"] = {"seconds_this_run": round(time.perf_counter() - t0, 1), **_data_summary(data_dir),
                           "prompts_available": len(train_prompts)}
        del model
    if args.stage in ("all", "train"):
        metrics["train"] = _train_stage(args, out, data_dir, cpu_has_fast_bf16())
        metrics["data"] = {**metrics.get("data", {}), **_data_summary(data_dir)}
        metrics.pop("heldout", None)  # the scores of the draft just replaced
    if args.stage in ("all", "eval"):
        metrics["heldout"] = evaluate_checkpoint(args, out, data_dir)
    out.mkdir(parents=True, exist_ok=True)
    metrics_path.write_text(json.dumps(metrics, indent=2) + "\n")
    _log(f"wrote {metrics_path}")
    return 0


def _data_summary(data_dir: Path) -> dict[str, Any]:
    seqs = load_shards(data_dir) if data_dir.is_dir() else []
    return {"sequences": len(seqs), "answer_tokens": int(sum(len(t) - p for t, _, p in seqs)),
            "tokens": int(sum(len(t) for t, _, _ in seqs)), "shards": len(list(data_dir.glob("shard-*.safetensors")))}


# glibc mallopt parameters (malloc.h)
_M_TRIM_THRESHOLD, _M_TOP_PAD, _M_MMAP_MAX = -1, -2, -4


def keep_freed_memory(libc: Any = None) -> bool:
    """Make glibc keep freed memory for reuse instead of returning it to the OS (mallopt:
    no mmap'd chunks, no trimming). Training allocates the same large activations every step
    (logits over the token map: [8, ~300, 16384] floats); glibc serves blocks above 32 MB
    with fresh mmaps, and touching fresh pages costs a minor page fault each, measured at
    ~260k faults/s and a third of the CPU time in the kernel, half the step rate. Returns
    False where there is no glibc mallopt, or when the user set ``MALLOC_*`` variables
    (theirs win)."""
    import ctypes
    import ctypes.util
    import os

    if any(k.startswith("MALLOC_") for k in os.environ):
        return False
    try:
        libc = libc if libc is not None else ctypes.CDLL(ctypes.util.find_library("c"))
        mallopt = libc.mallopt
    except (OSError, AttributeError, TypeError):
        return False
    settings = ((_M_MMAP_MAX, 0), (_M_TRIM_THRESHOLD, 2**31 - 1), (_M_TOP_PAD, 256 << 20))
    return all(mallopt(param, value) == 1 for param, value in settings)


def _train_stage(args: argparse.Namespace, out: Path, data_dir: Path, fast_bf16: bool) -> dict[str, Any]:
    from . import draft_models as dm

    if not data_dir.is_dir() or not any(data_dir.glob("shard-*.safetensors")):
        raise InvalidInputError(f"no training data in {str(data_dir)!r}; run the data stage first")
    if keep_freed_memory():
        _log("train: glibc keeps freed memory for reuse (mallopt), sparing per-step page faults")
    target, tok = _load_target(args.target, torch.float32)
    _check_data_target(data_dir, args.target, tok)
    seqs = load_shards(data_dir)
    defaults = DEFAULTS[args.kind]
    num_target_layers = len(getattr(target, target.base_model_prefix).layers)
    copy = _layer_indices(args.copy_layers if args.copy_layers is not None else defaults["copy_layers"],
                          num_target_layers)
    num_layers = args.num_layers or (len(copy) if copy and args.kind == "standalone" else defaults["num_layers"])
    vocab = int(target.config.vocab_size)
    always = [t for t in (tok.eos_token_id,) if t is not None]
    train_prompts, _ = load_prompts(args.num_prompts, None, args.seed, args.prompt_categories)
    token_map = fresh_map = choose_token_map(seqs, args.token_map_size, vocab, always,
                                             texts=[chat_ids(tok, p) for p in train_prompts])
    cfg = dm.DraftConfig.for_target(target, args.kind, num_layers=num_layers, target=str(args.target),
                                    vocab_hash=dm.vocab_fingerprint(tok))
    torch.manual_seed(args.seed)
    if args.resume:
        if dm.read_config(out) is None:
            raise InvalidInputError(f"--resume: no draft in {str(out)!r} to continue from")
        model = dm.load_draft_model(out, dtype=torch.float32, device="cpu", target=target)
        cfg, token_map = model.draft_config, model.lm_head.token_map
        if cfg.kind != args.kind:
            raise InvalidInputError(f"--resume: the draft in {str(out)!r} is {cfg.kind!r}, not --kind {args.kind!r}")
        if args.num_layers is not None and args.num_layers != cfg.num_layers:
            model.grow_layers(target, _grown_layers(args, cfg.num_layers, num_target_layers))
        num_layers, copy = cfg.num_layers, list(cfg.init_layers)
        if args.remap_tokens:
            model.remap_tokens(fresh_map, target)
            token_map = model.lm_head.token_map
        previous = [*cfg.training.get("previous", []), {k: v for k, v in cfg.training.items() if k != "previous"}]
    else:
        previous = []
        model = dm.build_draft(cfg, target, token_map=token_map, copy_layers=copy[:num_layers], dtype=torch.float32)
    autocast = args.autocast == "on" or (args.autocast == "auto" and fast_bf16)
    covered, map_size = None, 0  # the draft's own map: --resume keeps it unless --remap-tokens
    if token_map is not None:
        map_size = int(token_map.numel())
        answer = torch.cat([t[p:] for t, _, p in seqs])
        covered = float(torch.isin(answer, token_map).float().mean())
    _log(f"train: {args.kind} draft, {model.num_trained_parameters() / 1e6:.2f}M trained parameters, "
         f"{num_layers} layers (copied from {copy[:num_layers] or 'none'}), token map {map_size or 'all'} "
         f"(covers {covered if covered is not None else 1.0:.4f} of answer tokens), autocast={autocast}")
    last_save = [time.perf_counter()]

    def checkpoint(step: int, seconds: float) -> None:
        if time.perf_counter() - last_save[0] > 600:  # an interrupted run still leaves a draft
            _save(model, cfg, out, {"steps": step, "seconds": seconds, "partial": True})
            last_save[0] = time.perf_counter()

    history = train(model, data_dir, minutes=args.minutes, lr=args.lr, batch_size=args.batch_size,
                    unroll=args.unroll, seed=args.seed, progress=checkpoint, autocast=autocast)
    summary = {
        "kind": args.kind, "num_layers": num_layers, "copy_layers": copy[:num_layers],
        "token_map_size": map_size, "token_map_coverage": covered, "lr": args.lr,
        "batch_size": args.batch_size, "unroll": args.unroll if args.kind == "eagle" else 1,
        "autocast_bf16": autocast, "threads": args.threads, "trained_parameters": model.num_trained_parameters(),
        **history, **({"previous": previous} if previous else {}),
    }
    _save(model, cfg, out, summary)
    _log(f"train: done, {history['steps']} steps in {history['seconds']:.0f}s; saved to {out}")
    return summary


def _save(model: Any, cfg: Any, out: Path, summary: dict[str, Any]) -> None:
    cfg.training = {k: v for k, v in summary.items() if k != "final"}
    model.save(out, dtype=torch.bfloat16)


# ---------------------------------------------------------------------------------------
# Held-out evaluation
# ---------------------------------------------------------------------------------------


def heldout_data(model: Any, tokenizer: Any, prompts: Sequence[str], data_dir: Path, temperature: float,
                 max_new_tokens: int, batch_size: int = 16, seed: int = 0) -> list[Sequence_]:
    """The target's answers to the held-out prompts at ``temperature`` (cached in ``data_dir``)."""
    name = f"heldout-t{temperature:g}-n{len(prompts)}-m{max_new_tokens}" + (f"-s{seed}" if temperature > 0 else "")
    path = data_dir / f"{name}.safetensors"
    if not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        gen = torch.Generator().manual_seed(seed + 7)
        seqs: list[tuple[list[int], torch.Tensor, int]] = []
        for i in range(0, len(prompts), batch_size):
            ids = [chat_ids(tokenizer, p) for p in prompts[i:i + batch_size]]
            seqs.extend(generate_batch(model, ids, max_new_tokens=max_new_tokens, temperature=temperature,
                                       eos_id=tokenizer.eos_token_id, pad_id=tokenizer.pad_token_id or 0,
                                       generator=gen))
        save_shard(path, seqs)
    return load_shard(path)


def implied_alpha(tokens_per_step: float, k: int) -> float:
    """The i.i.d. per-token acceptance alpha whose expected tokens per verification is tokens_per_step."""
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        value = expected_tokens(mid, k)
        lo, hi = (mid, hi) if value < tokens_per_step else (lo, mid)
    return (lo + hi) / 2


@torch.no_grad()
def draft_predictions(model: Any, seq: Sequence_, k: int) -> tuple[list[torch.Tensor], torch.Tensor, int]:
    """Draft logits of steps 0..k-1 (full vocabulary) at every position of one sequence,
    teacher-forced on its tokens, plus the target features (as float32) and prompt length."""
    toks, hidden, plen = seq
    h = hidden.float().unsqueeze(0)
    ids = toks.unsqueeze(0)
    kind = model.draft_config.kind
    if kind == "eagle":
        feats = torch.cat([torch.zeros_like(h[:, :1]), h[:, :-1]], 1)
        outs = model.unrolled(ids, feats, k)
        return [model.lm_head(o[0]).float() for o in outs], h[0], plen
    # A standalone draft drafts with its own tokens only: step s at position j is its
    # prediction after the (correct) tokens up to j, the same at every step.
    logits = model.lm_head(model.hidden(ids)[0]).float()
    return [logits] * k, h[0], plen


@torch.no_grad()
def acceptance(model: Any, head_weight: torch.Tensor, greedy: Sequence[Sequence_], sampled: Sequence[Sequence_],
               k: int) -> dict[str, Any]:
    """Held-out acceptance. Greedy: the exact greedy-SD chain (draft token s is accepted when
    steps 0..s agree with the target's greedy continuation), from every answer position with
    k tokens left. T = 1: sum_x min(p, q) per draft step on the target's sampled answers."""
    reached, accepted, first_agree, first_total = [0] * k, [0] * k, 0, 0
    chain_tokens: list[int] = []
    for seq in greedy:
        logits, _, plen = draft_predictions(model, seq, k)
        toks = seq[0]
        n = len(toks)
        correct = [(logits[s][:-1].argmax(-1) == toks[1:]) for s in range(k)]  # [n - 1]: position j predicts j + 1
        first_agree += int(correct[0][plen - 1:].sum())
        first_total += n - plen
        for j0 in range(plen - 1, n - 1 - k + 1):
            m = 0
            while m < k and bool(correct[m][j0 + m]):
                m += 1
            for s in range(min(m + 1, k)):
                reached[s] += 1
            for s in range(m):
                accepted[s] += 1
            chain_tokens.append(m)
    tau = 1 + sum(chain_tokens) / max(len(chain_tokens), 1)
    sums = [0.0] * k
    counts = [0] * k
    for seq in sampled:
        logits, h, plen = draft_predictions(model, seq, k)
        p = torch.softmax((h @ head_weight.float().T), -1)  # [n, vocab] target at T = 1
        n = len(seq[0])
        for s in range(k):
            q = torch.softmax(logits[s], -1)
            rows = torch.arange(plen - 1 + s, n - 1)  # prefix ends at j - s >= plen - 1
            if rows.numel():
                sums[s] += float(torch.minimum(p[rows], q[rows]).sum(-1).sum())
                counts[s] += int(rows.numel())
    beta = [sums[s] / max(counts[s], 1) for s in range(k)]
    tau_t1, prod = 1.0, 1.0
    for b in beta:
        prod *= b
        tau_t1 += prod
    return {
        "k": k,
        "greedy": {
            "first_token_agreement": first_agree / max(first_total, 1),
            "conditional_acceptance_per_position": [accepted[s] / max(reached[s], 1) for s in range(k)],
            "accepted_per_proposed": sum(chain_tokens) / max(k * len(chain_tokens), 1),
            "tokens_per_step": tau,
            "alpha": implied_alpha(tau, k),
            "windows": len(chain_tokens),
            "sequences": len(greedy),
        },
        "t1": {
            "sum_min_p_q_per_position": beta,
            "tokens_per_step": tau_t1,
            "alpha": implied_alpha(tau_t1, k),
            "positions": counts[0],
            "sequences": len(sampled),
        },
    }


def evaluate_checkpoint(args: argparse.Namespace, out: Path, data_dir: Path) -> dict[str, Any]:
    from . import draft_models as dm
    from .loading import cpu_has_fast_bf16

    _, heldout = load_prompts(0, args.eval_prompts, args.seed)
    gen_model, tok = _load_target(args.target, torch.bfloat16 if cpu_has_fast_bf16() else torch.float32)
    _check_data_target(data_dir, args.target, tok)
    t0 = time.perf_counter()
    greedy = heldout_data(gen_model, tok, heldout, data_dir, 0.0, args.eval_tokens, seed=args.seed)
    sampled = heldout_data(gen_model, tok, heldout[: args.eval_sampled_prompts], data_dir, 1.0, args.eval_tokens,
                           seed=args.seed)
    gen_seconds = time.perf_counter() - t0
    del gen_model
    target, _ = _load_target(args.target, torch.float32)
    model = dm.load_draft_model(out, dtype=torch.float32, device="cpu", target=target)
    t0 = time.perf_counter()
    result = acceptance(model, target.get_output_embeddings().weight, greedy, sampled, args.num_speculative_tokens)
    token_map = model.lm_head.token_map
    if token_map is not None:  # share of the target's held-out greedy answer tokens the draft can propose
        answer = torch.cat([t[p:] for t, _, p in greedy])
        result["token_map_coverage"] = float(torch.isin(answer, token_map).float().mean())
    result.update({"prompts": len(heldout), "sampled_prompts": len(sampled), "answer_tokens": args.eval_tokens, "data_seconds": round(gen_seconds, 1),
                   "eval_seconds": round(time.perf_counter() - t0, 1)})
    g, t = result["greedy"], result["t1"]
    _log(f"eval: held-out greedy alpha={g['alpha']:.3f} (first-token agreement {g['first_token_agreement']:.3f}, "
         f"{g['tokens_per_step']:.2f} tokens/step at k={args.num_speculative_tokens}, per position "
         f"{[round(x, 3) for x in g['conditional_acceptance_per_position']]}); T=1 alpha={t['alpha']:.3f} "
         f"(sum min(p,q) per position {[round(x, 3) for x in t['sum_min_p_q_per_position']]})")
    return result
