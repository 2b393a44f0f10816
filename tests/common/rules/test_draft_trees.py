"""Draft trees (minedraft.rules.draft_trees): structure, D²SD branch selection, merging, and the tree
verification rules — greedy exactness and the lossless distribution of multi-candidate
recursive rejection sampling.

Distribution tests use a synthetic language over VOCAB tokens whose target and draft
logits are random tables indexed by the whole prefix (up to 3 tokens), so every node of a
tree has its own p and q. Losslessness means the first three generated tokens are
distributed as p(y0) p(y1 | y0) p(y2 | y0 y1): one verification emits 1..4 tokens, and the
ones it does not emit are completed from the exact target (what the next verification
would be, by the same rule). Chi-square over 100k samples with fixed seeds; a deliberately
wrong law shows the test has the power to fail.
"""

from __future__ import annotations

import math

import pytest
import torch
from scipy.stats import chisquare

from minedraft import DraftBlock, RequestState, SamplingParams, VerifyScores, verify
from minedraft.rules.draft_trees import (
    first_rejection_probs,
    merge_branches,
    propose_confidence_tree,
    select_branch_points,
    verify_tree,
)
from minedraft.sampling import processed_probs, row_params
from minedraft.types import Branch, BranchSpec, DraftTree

VOCAB = 5
DEPTH = 3
N = 100_000
OFFSET = [sum(VOCAB**j for j in range(n)) for n in range(DEPTH + 2)]  # first table row of length-n prefixes


def _code(prefix: torch.Tensor) -> torch.Tensor:
    """[n, length] prefixes -> [n] table rows."""
    length = prefix.shape[1]
    weights = torch.tensor([VOCAB ** (length - 1 - j) for j in range(length)], dtype=torch.long)
    return OFFSET[length] + (prefix * weights).sum(-1)


def _tables(seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    """Raw target and draft logits for every prefix of length 0..DEPTH."""
    g = torch.Generator().manual_seed(seed)
    rows = OFFSET[DEPTH + 1]
    target = torch.randn(rows, VOCAB, generator=g) * 1.5
    draft = target + torch.randn(rows, VOCAB, generator=g) * 1.2  # related: acceptance ~0.6
    return target, draft


def _processed(logits: torch.Tensor, params: SamplingParams) -> torch.Tensor:
    t, k, p = row_params([params] * logits.shape[0])
    return processed_probs(logits, t, k, p)


def _draw(probs: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    return torch.multinomial(probs, 1, generator=gen).squeeze(-1)


def _without(probs: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:
    out = probs.clone()
    out[torch.arange(len(tokens)), tokens] = 0
    return out / out.sum(-1, keepdim=True)


def _scores(tree: DraftTree, target_logits: torch.Tensor) -> VerifyScores:
    """Target logits at the root and after every node, looked up by the node's path."""
    n, batch = tree.num_tokens, tree.batch_size
    req = torch.repeat_interleave(torch.arange(batch), torch.tensor(tree.lengths()))
    parent_g = torch.where(tree.parents >= 0, tree.parents + tree.cu_num_nodes[req], -1)
    number = torch.zeros(n, dtype=torch.long)
    for depth in range(int(tree.depths.max()) + 1 if n else 0):  # parents' codes first
        at = tree.depths == depth
        above = torch.where(parent_g[at] >= 0, number[parent_g[at].clamp(min=0)], 0)
        number[at] = above * VOCAB + tree.tokens[at]
    offsets = torch.tensor(OFFSET)
    logits = torch.empty(n + batch, VOCAB)
    logits[tree.cu_num_nodes[:-1] + torch.arange(batch)] = target_logits[0]
    logits[tree.node_rows()] = target_logits[offsets[tree.depths + 1] + number]
    cu = torch.zeros(batch + 1, dtype=torch.long)
    cu[1:] = torch.cumsum(torch.tensor(tree.lengths()) + 1, 0)
    return VerifyScores(logits, cu)


def _first_three(emitted: list[list[int]], p_table: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    out = torch.tensor([(tokens + [-1] * DEPTH)[:DEPTH] for tokens in emitted], dtype=torch.long)
    for pos in range(DEPTH):  # complete from the exact target
        need = out[:, pos] < 0
        if bool(need.any()):
            out[need, pos] = _draw(p_table[_code(out[need, :pos])], gen)
    return out


def _chi_square_pvalue(samples: torch.Tensor, p_table: torch.Tensor) -> float:
    cells = (samples * torch.tensor([VOCAB**2, VOCAB, 1])).sum(-1)
    counts = torch.bincount(cells, minlength=VOCAB**DEPTH).double()
    grid = torch.cartesian_prod(*[torch.arange(VOCAB)] * DEPTH)  # [V^3, 3] in cell order
    expected = (p_table[0][grid[:, 0]] * p_table[_code(grid[:, :1])].gather(-1, grid[:, 1:2]).squeeze(-1)
                * p_table[_code(grid[:, :2])].gather(-1, grid[:, 2:3]).squeeze(-1)).double()
    support = expected > 0
    assert counts[~support].sum() == 0, "emitted a sequence the target gives zero probability"
    expected = expected[support] / expected[support].sum() * counts.sum()
    return float(chisquare(counts[support].numpy(), expected.numpy()).pvalue)


PARAMS = [
    SamplingParams(temperature=1.0),
    SamplingParams(temperature=0.7, top_k=3),
    SamplingParams(temperature=1.3, top_k=4, top_p=0.9),
]


def _fixed_trees(params: SamplingParams, gen: torch.Generator, lie: bool = False) -> tuple[DraftTree, VerifyScores]:
    """N trees of one shape, mixing every kind of candidate:

    node 0..2  chain d0 d1 d2, each ~ q(path)              (parents -1, 0, 1)
    node 3     a0 ~ q(root) without d0 (no replacement)    (parent -1)
    node 4     e1 ~ q(a0)                                  (parent 3)
    node 5     b1 ~ q(d0) without d1                       (parent 0)
    node 6     c0 = smallest token not in {d0, a0}: deterministic, zero law row (parent -1)

    ``lie``: record a0's law as q(root) although it was drawn without d0.
    """
    target, draft = _tables()
    q_table = _processed(draft, params)
    root = q_table[0].expand(N, VOCAB)
    d0 = _draw(root, gen)
    q_d0 = q_table[_code(d0[:, None])]
    d1 = _draw(q_d0, gen)
    q_d01 = q_table[_code(torch.stack([d0, d1], 1))]
    d2 = _draw(q_d01, gen)
    q_a0 = _without(root, d0)
    a0 = _draw(q_a0, gen)
    q_e1 = q_table[_code(a0[:, None])]
    e1 = _draw(q_e1, gen)
    q_b1 = _without(q_d0, d1)
    b1 = _draw(q_b1, gen)
    taken = torch.zeros(N, VOCAB, dtype=torch.bool)
    taken[torch.arange(N), d0] = True
    taken[torch.arange(N), a0] = True
    c0 = (~taken).float().argmax(-1)
    tokens = torch.stack([d0, d1, d2, a0, e1, b1, c0], 1)  # [N, 7]
    laws = torch.stack([root, q_d0, q_d01, root if lie else q_a0, q_e1, q_b1, torch.zeros_like(root)], 1)
    tree = DraftTree(
        [f"r{i}" for i in range(N)], tokens.reshape(-1), torch.tensor([-1, 0, 1, -1, 3, 0, -1]).repeat(N),
        torch.arange(0, 7 * N + 1, 7), draft_probs=laws.reshape(-1, VOCAB),
    )
    return tree, _scores(tree, target)


@pytest.mark.parametrize("params", PARAMS, ids=lambda p: f"T{p.temperature}-k{p.top_k}-p{p.top_p}")
def test_tree_sampling_is_lossless(params: SamplingParams) -> None:
    torch.manual_seed(11)  # verify_tree's draws for unseeded requests
    gen = torch.Generator().manual_seed(7)
    tree, scores = _fixed_trees(params, gen)
    requests = [RequestState([1], params)] * N
    outcome = verify_tree(tree, scores, requests)
    accepted = torch.tensor(outcome.num_accepted, dtype=torch.float64)
    assert 0.5 < accepted.mean() < 2.5  # the trees are really exercised, beyond the first level
    branch_taken = sum(1 for path in outcome.accepted_nodes if path and path[0] in (3, 6))
    assert branch_taken > N // 50  # ... including the alternatives at the root
    p_table = _processed(_tables()[0], params)
    pvalue = _chi_square_pvalue(_first_three(outcome.emitted, p_table, gen), p_table)
    assert pvalue > 1e-3, f"chi-square p={pvalue:.2e}"


def test_chi_square_detects_a_wrong_law() -> None:
    """Power check: recording a without-replacement candidate with the plain q is biased."""
    params = PARAMS[0]
    torch.manual_seed(11)
    gen = torch.Generator().manual_seed(7)
    tree, scores = _fixed_trees(params, gen, lie=True)
    outcome = verify_tree(tree, scores, [RequestState([1], params)] * N)
    p_table = _processed(_tables()[0], params)
    assert _chi_square_pvalue(_first_three(outcome.emitted, p_table, gen), p_table) < 1e-6


class TableDrafter:
    """A ``BranchDrafter`` over the synthetic tables, vectorised over requests. Branch
    alternatives are drawn i.i.d. from q (``without_replacement=False``: they may repeat
    the chain token, which ``merge_branches`` must handle) or without the chain token."""

    def __init__(self, q_table: torch.Tensor, gen: torch.Generator, without_replacement: bool) -> None:
        self.q, self.gen, self.swor = q_table, gen, without_replacement

    def draft_chain(self, requests, num_tokens) -> DraftBlock:
        n = len(requests)
        assert set(num_tokens) == {DEPTH}
        tokens = torch.zeros(n, DEPTH, dtype=torch.long)
        laws = torch.zeros(n, DEPTH, VOCAB)
        for j in range(DEPTH):
            laws[:, j] = self.q[_code(tokens[:, :j])]
            tokens[:, j] = _draw(laws[:, j], self.gen)
        logprobs = laws.gather(-1, tokens.unsqueeze(-1)).squeeze(-1).log()
        return DraftBlock([r.request_id for r in requests], tokens.reshape(-1), torch.arange(0, DEPTH * n + 1, DEPTH),
                          draft_probs=laws.reshape(-1, VOCAB), draft_logprobs=logprobs.reshape(-1))

    def draft_branches(self, requests, chain, specs) -> list[Branch]:
        chain_tokens = chain.tokens.view(-1, DEPTH)
        out: list[Branch | None] = [None] * len(specs)
        for start in range(DEPTH):
            group = [s for s, spec in enumerate(specs) if spec.start == start]
            if not group:
                continue
            length = specs[group[0]].length
            assert all(specs[s].length == length for s in group)
            req = torch.tensor([specs[s].request_index for s in group])
            path = chain_tokens[req, :start]
            laws = []
            for m in range(length):
                law = self.q[_code(path)]
                if m == 0 and self.swor:
                    law = _without(law, chain_tokens[req, start])
                laws.append(law)
                path = torch.cat([path, _draw(law, self.gen)[:, None]], 1)
            laws_t = torch.stack(laws, 1)  # [group, length, vocab]
            new, owners = path[:, start:].tolist(), req.tolist()
            for j, s in enumerate(group):
                out[s] = Branch(owners[j], start, new[j], laws_t[j])
        return out  # type: ignore[return-value]


@pytest.mark.parametrize(("without_replacement", "num_branches"), [(False, 1), (True, 2)])
def test_confidence_tree_is_lossless(without_replacement: bool, num_branches: int) -> None:
    """End to end through the D²SD builder: the tree's shape follows the chain's
    confidences, repeated alternatives are merged, and sampling stays exact."""
    params = SamplingParams(temperature=0.9)
    torch.manual_seed(5)
    gen = torch.Generator().manual_seed(3)
    target, draft = _tables()
    p_table, q_table = _processed(target, params), _processed(draft, params)
    requests = [RequestState([1], params)] * N
    built = propose_confidence_tree(TableDrafter(q_table, gen, without_replacement), requests, [DEPTH] * N,
                                    num_branches)
    tree = built.tree
    extra = torch.tensor(tree.lengths()) - DEPTH
    assert int((extra > 0).sum()) > N // 2
    if not without_replacement:  # some alternatives repeated the chain token and followed it
        assert sum(nodes[0] < DEPTH for nodes in built.branch_nodes) > N // 50
    outcome = verify_tree(tree, _scores(tree, target), requests)
    pvalue = _chi_square_pvalue(_first_three(outcome.emitted, p_table, gen), p_table)
    assert pvalue > 1e-3, f"chi-square p={pvalue:.2e}"


# -- greedy rule ---------------------------------------------------------------------------
def _onehot_logits(argmaxes: list[int], vocab: int = 16) -> torch.Tensor:
    logits = torch.zeros(len(argmaxes), vocab)
    logits[torch.arange(len(argmaxes)), torch.tensor(argmaxes)] = 5.0
    return logits


def _tree(tokens, parents, rid="r") -> DraftTree:
    return DraftTree([rid], torch.tensor(tokens), torch.tensor(parents), torch.tensor([0, len(tokens)]))


GREEDY = RequestState([1], SamplingParams(temperature=0.0))


def test_greedy_follows_the_target_argmax_path() -> None:
    # root -> {3 (node 0), 7 (node 1)}; 3 -> {4 (node 2)}; 7 -> {2 (node 3), 5 (node 4)}; 5 -> {9 (node 5)}
    tree = _tree([3, 7, 4, 2, 5, 9], [-1, -1, 0, 1, 1, 4])
    # rows: root, after nodes 0..5
    logits = _onehot_logits([7, 4, 5, 0, 0, 9, 11])
    out = verify_tree(tree, VerifyScores(logits, torch.tensor([0, 7])), [GREEDY])
    assert out.emitted == [[7, 5, 9, 11]]
    assert out.num_accepted == [3]
    assert out.accepted_nodes == [[1, 4, 5]]


def test_greedy_rejects_at_the_root_and_emits_the_target_token() -> None:
    tree = _tree([3, 7, 4], [-1, -1, 0])
    out = verify_tree(tree, VerifyScores(_onehot_logits([12, 4, 0, 0]), torch.tensor([0, 4])), [GREEDY])
    assert out.emitted == [[12]] and out.accepted_nodes == [[]]


def test_greedy_tree_of_a_chain_equals_chain_verification() -> None:
    gen = torch.Generator().manual_seed(0)
    batch, k, vocab = 6, 4, 9
    logits = torch.randn(batch * (k + 1), vocab, generator=gen)
    argmax = logits.argmax(-1).view(batch, k + 1)
    drafts = argmax[:, :k].clone()
    drafts[torch.arange(batch), torch.arange(batch) % (k + 1) % k] += 1  # reject at varying depths
    drafts[0] = argmax[0, :k]  # one fully accepted
    drafts %= vocab
    block = DraftBlock([f"r{i}" for i in range(batch)], drafts.reshape(-1), torch.arange(0, batch * k + 1, k))
    scores = VerifyScores(logits, torch.arange(0, batch * (k + 1) + 1, k + 1))
    requests = [RequestState([1], SamplingParams(temperature=0.0)) for _ in range(batch)]
    chain = verify(block, scores, requests)
    tree = verify_tree(DraftTree.from_block(block), scores, requests)
    assert tree.emitted == chain.emitted and tree.num_accepted == chain.num_accepted
    assert tree.num_accepted[0] == k
    assert tree.accepted_nodes == [list(range(n)) for n in chain.num_accepted]


def test_mixed_batch_and_seeded_requests_do_not_depend_on_the_batch() -> None:
    """Greedy and sampled requests verify together; a seeded request's outcome is the same
    alone and in a batch."""
    gen = torch.Generator().manual_seed(1)
    tree = _tree([3, 7, 4, 2], [-1, -1, 0, 1])
    logits = torch.randn(5, 16, generator=gen)
    probs = torch.softmax(torch.randn(4, 16, generator=gen), -1)
    tree.draft_probs = probs
    sampled = [RequestState([1], SamplingParams(temperature=1.0, seed=s)) for s in range(40)]
    alone = [verify_tree(tree, VerifyScores(logits, torch.tensor([0, 5])), [r]).emitted[0] for r in sampled]
    sampled = [RequestState([1], SamplingParams(temperature=1.0, seed=s)) for s in range(40)]
    big = DraftTree.concat([_tree([3, 7, 4, 2], [-1, -1, 0, 1], rid=f"s{i}") for i in range(41)])
    big.draft_probs = probs.repeat(41, 1)
    greedy_logits = _onehot_logits([7, 0, 2, 0, 0])
    all_logits = torch.cat([greedy_logits] + [logits] * 40)
    cu = torch.arange(0, 5 * 41 + 1, 5)
    out = verify_tree(big, VerifyScores(all_logits, cu), [GREEDY] + sampled)
    assert out.emitted[0] == [7, 2, 0]
    assert out.emitted[1:] == alone
    assert len({tuple(e) for e in alone}) > 3  # the seeds really differ


def test_empty_tree_is_autoregressive() -> None:
    tree = DraftTree.empty(["a", "b"])
    out = verify_tree(tree, VerifyScores(_onehot_logits([3, 8]), torch.tensor([0, 1, 2])), [GREEDY, GREEDY])
    assert out.emitted == [[3], [8]] and out.num_accepted == [0, 0]


def test_verify_tree_checks_the_scores_layout() -> None:
    tree = _tree([3, 7], [-1, -1])
    with pytest.raises(ValueError, match="positions"):
        verify_tree(tree, VerifyScores(_onehot_logits([1, 2]), torch.tensor([0, 2])), [GREEDY])


# -- structure -----------------------------------------------------------------------------
def test_tree_structure_and_batch_operations() -> None:
    a = _tree([3, 7, 4, 2], [-1, -1, 0, 2], rid="a")
    b = _tree([5], [-1], rid="b")
    both = DraftTree.concat([a, b])
    assert both.depths.tolist() == [0, 0, 1, 2, 0]
    assert both.lengths() == [4, 1] and both.num_tokens == 5
    assert both.parent_rows().tolist() == [0, 0, 1, 3, 5]
    assert both.node_rows().tolist() == [1, 2, 3, 4, 6]
    assert both.path(0, 3) == [0, 2, 3]
    swapped = both.select([1, 0])
    assert swapped.request_ids == ["b", "a"] and swapped.tokens.tolist() == [5, 3, 7, 4, 2]
    assert swapped.parents.tolist() == [-1, -1, -1, 0, 2]


@pytest.mark.parametrize(
    ("tokens", "parents", "message"),
    [([3, 4], [-1, 1], "earlier node"), ([3, 4], [-1, -2], "earlier node"), ([3, 3], [-1, -1], "distinct")],
)
def test_malformed_trees_are_rejected(tokens, parents, message) -> None:
    with pytest.raises(ValueError, match=message):
        _tree(tokens, parents)


def test_first_rejection_probabilities() -> None:
    c = torch.tensor([[0.9, 0.5, 0.8], [1.0, 1.0, 0.2]], dtype=torch.float64)
    r = first_rejection_probs(c)
    assert torch.allclose(r, torch.tensor([[0.1, 0.45, 0.09], [0.0, 0.0, 0.8]], dtype=torch.float64))
    # With the all-accepted event, the first rejection is a distribution.
    assert torch.allclose(r.sum(-1) + c.prod(-1), torch.ones(2, dtype=torch.float64))
    assert select_branch_points(c[0], 2) == [0, 1]
    assert select_branch_points(c[0], 1) == [1]
    assert select_branch_points(c[1], 3) == [2]  # r = 0: no alternative exists there
    assert select_branch_points(torch.tensor([0.5, 1.0, 0.0]), 1) == [0]  # tie 0.5/0.5 -> earlier
    assert select_branch_points(c[0], 0) == []


def test_merge_follows_repeats_and_renormalises_laws() -> None:
    chain = DraftBlock(["a"], torch.tensor([1, 2, 3]), torch.tensor([0, 3]),
                       draft_probs=torch.full((3, 4), 0.25), draft_logprobs=torch.log(torch.full((3,), 0.25)))
    law = torch.tensor([[0.5, 0.3, 0.2, 0.0], [0.1, 0.2, 0.3, 0.4], [0.25, 0.25, 0.25, 0.25]])
    branches = [
        Branch(0, 1, [0, 3], law[:2]),  # new sibling of chain token 2 under node 0
        Branch(0, 0, [1, 0, 1], law),  # repeats chain token 1, then branch 0's 0, then is new under it
        Branch(0, 3, [2], None, [math.log(0.5)]),  # deterministic, below the chain's last node
    ]
    tree, nodes = merge_branches(chain, branches)
    assert tree.tokens.tolist() == [1, 2, 3, 0, 3, 1, 2]
    assert tree.parents.tolist() == [-1, 0, 1, 0, 3, 3, 2]
    # Branch 1's second token (0) is the same node as branch 0's first: it follows it.
    assert nodes == [[3, 4], [0, 3, 5], [6]]
    # Node 3 (token 0 under node 0) excludes its sibling 2: [0.5, 0.3, 0, 0] / 0.8.
    assert torch.allclose(tree.draft_probs[3], torch.tensor([0.625, 0.375, 0.0, 0.0]))
    assert torch.allclose(tree.draft_probs[4], law[1])  # first child: nothing to exclude
    assert torch.allclose(tree.draft_probs[5], torch.tensor([1 / 3, 1 / 3, 1 / 3, 0.0]))  # excludes sibling 3
    assert tree.draft_probs[6].abs().sum() == 0  # deterministic
    assert torch.allclose(tree.draft_logprobs[6], torch.tensor(math.log(0.5)))
    with pytest.raises(ValueError, match="leaves no chain node"):
        merge_branches(chain, [Branch(0, 4, [1])])
    with pytest.raises(ValueError, match="zero probability"):
        merge_branches(chain, [Branch(0, 1, [3], torch.tensor([[0.5, 0.5, 0.0, 0.0]]))])


def test_propose_confidence_tree_branches_where_rejection_is_likely() -> None:
    class Fixed:
        def draft_chain(self, requests, num_tokens):
            conf = torch.tensor([0.9, 0.2, 0.9, 0.95, 0.5])  # r = .1, .72, .018, .0081, .041
            return DraftBlock(["a", "b"], torch.tensor([1, 2, 3, 4, 5]), torch.tensor([0, 4, 5]),
                              draft_logprobs=conf.log())

        def draft_branches(self, requests, chain, specs):
            self.specs = list(specs)
            return [Branch(s.request_index, s.start, [9] * s.length) for s in specs]

    drafter = Fixed()
    reqs = [RequestState([1], SamplingParams(temperature=0.0)), RequestState([1], SamplingParams(temperature=0.0))]
    built = propose_confidence_tree(drafter, reqs, [4, 1], num_branches=2)
    assert drafter.specs == [BranchSpec(0, 0, 4), BranchSpec(0, 1, 3), BranchSpec(1, 0, 1)]
    assert built.tree.lengths() == [4 + 4 + 3, 1 + 1]
    assert built.tree.depths_of(0) == [0, 1, 2, 3, 0, 1, 2, 3, 1, 2, 3]
    capped = propose_confidence_tree(drafter, reqs, [4, 1], num_branches=1, branch_tokens=2)
    assert drafter.specs == [BranchSpec(0, 1, 2), BranchSpec(1, 0, 1)]
    assert capped.tree.lengths() == [6, 2]
