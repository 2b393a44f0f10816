"""Rules: the pure arithmetic of speculative decoding, apart from the drivers that run it.

Each module is a set of functions over tensors and counts, with no engine, lane or clock;
the schedulers (``minedraft.schedulers``) call them. Rules never import schedulers.

- ``verification``: which chain drafts a request keeps (greedy, lossless speculative sampling);
- ``draft_trees``: building D²SD draft trees and verifying them losslessly in one pass;
- ``smc_weights``: SMC-SD importance weights, resampling and the returned particle (approximate);
- ``draft_budget``: which draft positions to verify within a budget (PSD's extra proposals);
- ``cost_model``: step costs and expected accepted tokens, the theory made executable;
- ``flex_policy``: the per-step choice of PSD, SD or AR and of k, from the cost model.
"""
