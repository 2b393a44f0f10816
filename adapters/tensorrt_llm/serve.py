"""``minedraft serve-trtllm --config file.yaml``: trtllm-serve's OpenAI server with PSD.

trtllm-serve's YAML (``--extra_llm_api_options``) cannot name a drafter object, so this
command reads its own file and then does what ``trtllm-serve`` does, with trtllm-serve's
own functions (``tensorrt_llm/commands/serve.py``): ``get_llm_args`` for its defaults,
``update_llm_args_with_extra_dict`` for the ``llm`` mapping (an ``extra_llm_api_options``
document), plus the PSD speculative config, then ``launch_server``, which builds the
``LLM`` and the ``OpenAIServer``. ``--check`` validates the file and prints the resolved
settings without TensorRT-LLM installed.

File format (every field but ``model`` and ``draft.model`` optional)::

    model: /models/Llama-3.1-8B-Instruct     # target, as for trtllm-serve
    num_speculative_tokens: 4
    draft:
      model: /models/Llama-3.2-1B-Instruct   # any source the draft backend loads
      backend: reference                     # a minedraft.backends entry
      dtype: bfloat16
      device: cuda:1                         # a second GPU, or the target's (own stream)
    psd:
      on_miss: serial                        # serial | skip
      lane: cuda_streams                     # cuda_streams | threads | devices | inline
    llm:                                     # more LLM(...) arguments, as in trtllm-serve's YAML
      max_batch_size: 32
      kv_cache_config: {free_gpu_memory_fraction: 0.8}
    server: {host: 0.0.0.0, port: 8000}
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from minedraft.draft_pipeline import ON_MISS
from minedraft.lanes import canonical_lane
from minedraft.types import InvalidInputError

from . import compat


@dataclass
class DraftSection:
    model: str
    backend: str = "reference"
    dtype: str = "auto"
    device: str | None = None  # default: cuda when available
    tokenizer: str | None = None
    allow_pickle: bool = False
    trust_remote_code: bool = False


@dataclass
class PSDSection:
    on_miss: str = "serial"
    lane: str | None = None
    timeout: float = 600.0
    vocab_size: int | None = None


@dataclass
class ServerSection:
    host: str = "localhost"
    port: int = 8000


@dataclass
class ServeConfig:
    model: str
    draft: DraftSection
    num_speculative_tokens: int = 4
    psd: PSDSection = field(default_factory=PSDSection)
    llm: dict[str, Any] = field(default_factory=dict)
    server: ServerSection = field(default_factory=ServerSection)


# field -> (accepted types, required); bool is not an int here.
_DRAFT = {"model": (str, True), "backend": (str, False), "dtype": (str, False), "device": (str, False),
          "tokenizer": (str, False), "allow_pickle": (bool, False), "trust_remote_code": (bool, False)}
_PSD = {"on_miss": (str, False), "lane": (str, False), "timeout": ((int, float), False), "vocab_size": (int, False)}
_SERVER = {"host": (str, False), "port": (int, False)}
_TOP = {"model": (str, True), "num_speculative_tokens": (int, False), "draft": (dict, True), "psd": (dict, False),
        "llm": (dict, False), "server": (dict, False)}
_RESERVED_LLM = {
    "model": "set the target with the top-level 'model' field",
    "speculative_config": "minedraft builds the speculative config from 'draft' and 'num_speculative_tokens'",
    "backend": "only the PyTorch backend runs user-provided drafters",
}


def _check_fields(section: str, data: Any, schema: dict[str, tuple[Any, bool]]) -> dict[str, Any]:
    where = f"{section}." if section else ""
    if not isinstance(data, dict):
        raise InvalidInputError(f"{section or 'config'} must be a mapping, got {type(data).__name__}")
    unknown = sorted(set(data) - set(schema))
    if unknown:
        raise InvalidInputError(f"unknown field {where}{unknown[0]} (allowed in {section or 'the top level'}: "
                                f"{', '.join(sorted(schema))})")
    for name, (types, required) in schema.items():
        if name not in data or data[name] is None:
            if required:
                raise InvalidInputError(f"{where}{name} is required")
            continue
        value = data[name]
        if isinstance(value, bool) and types is not bool:
            raise InvalidInputError(f"{where}{name} must be {_type_name(types)}, got {value!r}")
        if not isinstance(value, types):
            raise InvalidInputError(f"{where}{name} must be {_type_name(types)}, got {value!r}")
    return {k: v for k, v in data.items() if v is not None}


def _type_name(types: Any) -> str:
    names = {str: "a string", int: "an integer", bool: "true or false", dict: "a mapping", float: "a number"}
    types = types if isinstance(types, tuple) else (types,)
    return " or ".join(names.get(t, t.__name__) for t in types)


def parse_serve_config(data: Any) -> ServeConfig:
    """Validate a parsed YAML document; errors name the offending field."""
    top = _check_fields("", data, _TOP)
    k = top.get("num_speculative_tokens", 4)
    if k < 1:
        raise InvalidInputError(f"num_speculative_tokens must be >= 1, got {k!r}")
    draft = DraftSection(**_check_fields("draft", top["draft"], _DRAFT))
    psd = PSDSection(**_check_fields("psd", top.get("psd", {}), _PSD))
    if psd.on_miss not in ON_MISS:
        raise InvalidInputError(f"psd.on_miss must be one of {ON_MISS}, got {psd.on_miss!r}")
    if psd.lane is not None:
        try:
            psd.lane = canonical_lane(psd.lane, "psd.lane")
        except ValueError as exc:
            raise InvalidInputError(str(exc)) from exc
    if psd.timeout <= 0:
        raise InvalidInputError(f"psd.timeout must be > 0 seconds, got {psd.timeout!r}")
    server = ServerSection(**_check_fields("server", top.get("server", {}), _SERVER))
    if not 0 <= server.port <= 65535:
        raise InvalidInputError(f"server.port must be in 0..65535, got {server.port!r}")
    llm = dict(top.get("llm", {}))
    for key, why in _RESERVED_LLM.items():
        if key in llm and not (key == "backend" and llm[key] == "pytorch"):
            raise InvalidInputError(f"llm.{key} cannot be set here: {why}")
    if llm.get("disable_overlap_scheduler") is False:
        raise InvalidInputError("llm.disable_overlap_scheduler cannot be false: TensorRT-LLM has no overlap "
                                "scheduler for user-provided drafters")
    return ServeConfig(model=top["model"], draft=draft, num_speculative_tokens=k, psd=psd, llm=llm, server=server)


def _read_yaml(path: str | Path, flag: str) -> Any:
    import yaml

    path = Path(path)
    try:
        text = path.read_text()
    except OSError as exc:
        raise InvalidInputError(f"{flag}: cannot read {str(path)!r}: {exc.strerror or exc}") from exc
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise InvalidInputError(f"{flag}: {str(path)!r} is not valid YAML: {exc}") from exc


def load_serve_config(path: str | Path, extra_llm_api_options: str | Path | None = None) -> ServeConfig:
    """The ``--config`` file; ``extra_llm_api_options`` (a trtllm-serve options file) is
    merged over its ``llm`` mapping, as trtllm-serve lets that file override its flags."""
    data = _read_yaml(path, "--config")
    data = data if data is not None else {}
    if extra_llm_api_options is not None:
        extra = _read_yaml(extra_llm_api_options, "--extra_llm_api_options")
        if not isinstance(extra, dict):
            raise InvalidInputError(f"--extra_llm_api_options: {str(extra_llm_api_options)!r} must hold a mapping")
        if isinstance(data, dict):
            data = {**data, "llm": {**(data.get("llm") or {}), **extra}}
    return parse_serve_config(data)


def build_llm_args(config: ServeConfig) -> dict[str, Any]:
    """The ``llm_args`` trtllm-serve would pass to ``launch_server`` for this target and
    options, with the PSD speculative config added."""
    compat.require_tensorrt_llm()
    from .drafter import speculative_config

    get_llm_args, update_llm_args_with_extra_dict, _ = compat.serve_entry_points()
    d, psd = config.draft, config.psd
    spec = speculative_config(
        draft_model=d.model, num_speculative_tokens=config.num_speculative_tokens, draft_backend=d.backend,
        draft_dtype=d.dtype, draft_device=d.device, draft_tokenizer=d.tokenizer, allow_pickle=d.allow_pickle,
        trust_remote_code=d.trust_remote_code, on_miss=psd.on_miss, lane=psd.lane, timeout=psd.timeout,
        vocab_size=psd.vocab_size,
    )
    llm_args, _ = get_llm_args(model=config.model)
    llm_args = update_llm_args_with_extra_dict(llm_args, dict(config.llm))
    llm_args["speculative_config"] = spec
    llm_args["disable_overlap_scheduler"] = True  # TensorRT-LLM forces it for user-provided drafters anyway
    return llm_args


def serve(config: ServeConfig) -> None:
    """Run trtllm-serve's ``launch_server`` (it builds the LLM and the OpenAIServer)."""
    llm_args = build_llm_args(config)
    _, _, launch_server = compat.serve_entry_points()
    launch_server(config.server.host, config.server.port, llm_args)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve-trtllm", help="serve a TensorRT-LLM target with PSD drafting (OpenAI API)",
                       description="Serve a TensorRT-LLM target with MineDraft PSD drafting behind TensorRT-LLM's "
                                   "OpenAI-compatible server. See docs/tensorrt-llm.md for the file format.")
    p.add_argument("--config", required=True, help="YAML file: model, draft, num_speculative_tokens, psd, llm, server")
    p.add_argument("--extra_llm_api_options", default=None,
                   help="a trtllm-serve options YAML, merged over the config's llm mapping")
    p.add_argument("--check", action="store_true",
                   help="validate the file and print the resolved settings (needs no TensorRT-LLM)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    config = load_serve_config(args.config, getattr(args, "extra_llm_api_options", None))
    if args.check:
        print(json.dumps(asdict(config), indent=2, default=str))
        return 0
    try:
        serve(config)
    except compat.UnsupportedTensorRTLLMError as exc:
        print(f"minedraft serve-trtllm: error: {exc}", file=sys.stderr)
        return 2
    return 0
