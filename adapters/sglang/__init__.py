"""SGLang adapter: ``--speculative-algorithm MINEDRAFT`` through SGLang's plugin mechanism.

SGLang discovers ``minedraft.adapters.sglang.plugin:register`` through the
``sglang.srt.plugins`` entry point (honouring the ``SGLANG_PLUGINS`` allowlist) and calls
it in every process it starts. Importing this package does not import SGLang; the
modules that need it (``spec``, ``worker``, ``batching``) are loaded by ``register`` and by
SGLang's worker factory.
"""

from .config import ALGORITHM, SUPPORTED_SGLANG_VERSIONS

__all__ = ["ALGORITHM", "SUPPORTED_SGLANG_VERSIONS"]
