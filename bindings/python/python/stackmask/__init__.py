"""stackmask: grammar-constrained decoding with exact token masks.

The classes come from the Rust extension ``stackmask._stackmask``:

* :class:`Tokenizer` -- a HuggingFace ``tokenizer.json`` (path, content, or a
  ``transformers`` fast tokenizer object);
* :class:`Grammar` -- from Lark text, a regex, or a JSON Schema (``str`` or ``dict``);
* :class:`CompiledGrammar` -- a grammar compiled for one tokenizer; immutable, share it
  between threads and matchers;
* :class:`Matcher` -- one sequence: ``consume_token(s)``, ``rollback``, ``is_accepting``,
  ``fill_next_token_bitmask``.

Bitmasks use the llguidance/XGrammar layout: ``int32`` arrays of shape
``[batch, ceil(vocab_size / 32)]``; token ``i`` of a row is bit ``i % 32`` of word
``i // 32``. :func:`allocate_token_bitmask` makes one, :func:`apply_token_bitmask_inplace`
masks logits with it, and :func:`fill_next_token_bitmasks` fills many rows in parallel
without the GIL. See ``docs/python.md``.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from ._stackmask import (
    CompiledGrammar,
    Grammar,
    Matcher,
    StackmaskError,
    Tokenizer,
    fill_next_token_bitmasks,
)
from .tools import tool_call_schema

__all__ = [
    "CompiledGrammar",
    "Grammar",
    "Matcher",
    "StackmaskError",
    "Tokenizer",
    "allocate_token_bitmask",
    "apply_token_bitmask_inplace",
    "bitmask_size",
    "fill_next_token_bitmask",
    "fill_next_token_bitmasks",
    "tool_call_schema",
]


def bitmask_size(vocab_size: int) -> int:
    """Number of int32 words of one bitmask row: ``ceil(vocab_size / 32)``."""
    if vocab_size < 0:
        raise ValueError(f"vocab_size must not be negative, got {vocab_size}")
    return (vocab_size + 31) // 32


def allocate_token_bitmask(batch_size: int, vocab_size: int, *, framework: str = "numpy") -> Any:
    """A ``[batch_size, ceil(vocab_size / 32)]`` int32 bitmask with every bit set
    (every token allowed), as XGrammar's ``allocate_token_bitmask``.

    ``framework`` is ``"numpy"`` (a ``numpy.ndarray``) or ``"torch"`` (a CPU
    ``torch.Tensor``; needs torch).
    """
    if batch_size < 0:
        raise ValueError(f"batch_size must not be negative, got {batch_size}")
    shape = (batch_size, bitmask_size(vocab_size))
    if framework == "numpy":
        return np.full(shape, -1, dtype=np.int32)
    if framework == "torch":
        import torch

        return torch.full(shape, -1, dtype=torch.int32)
    raise ValueError(f"framework must be 'numpy' or 'torch', not {framework!r}")


def fill_next_token_bitmask(matcher: Matcher, bitmask: Any, index: int = 0) -> None:
    """``matcher.fill_next_token_bitmask(bitmask, index)``, in llguidance's function form."""
    matcher.fill_next_token_bitmask(bitmask, index)


def _unpack_bits(bitmask: Any, vocab_size: int) -> Any:
    """Booleans ``[..., vocab_size]``: whether each token's bit is set (missing bits: False)."""
    if _is_torch(bitmask):
        import torch

        shifts = torch.arange(32, dtype=torch.int32, device=bitmask.device)
        bits = ((bitmask.to(torch.int32).unsqueeze(-1) >> shifts) & 1).bool()
        bits = bits.reshape(*bitmask.shape[:-1], bitmask.shape[-1] * 32)
        if bits.shape[-1] < vocab_size:
            pad = torch.zeros(*bits.shape[:-1], vocab_size - bits.shape[-1], dtype=torch.bool, device=bits.device)
            bits = torch.cat([bits, pad], dim=-1)
        return bits[..., :vocab_size]
    words = np.ascontiguousarray(bitmask, dtype="<i4")
    bits = np.unpackbits(words.view(np.uint8), axis=-1, bitorder="little").astype(bool)
    if bits.shape[-1] < vocab_size:
        pad = np.zeros(bits.shape[:-1] + (vocab_size - bits.shape[-1],), dtype=bool)
        bits = np.concatenate([bits, pad], axis=-1)
    return bits[..., :vocab_size]


def _is_torch(x: Any) -> bool:
    return type(x).__module__.split(".")[0] == "torch"


def apply_token_bitmask_inplace(
    logits: Any, bitmask: Any, *, indices: Optional[Sequence[int]] = None
) -> None:
    """Set ``logits[i, t] = -inf`` for every token ``t`` whose bit is clear in
    ``bitmask[i]`` (and for tokens past the bitmask's bits), in place.

    ``logits`` is ``[batch, vocab]`` or ``[vocab]`` float (numpy, or torch on any
    device); ``bitmask`` is int32 ``[batch, words]`` or ``[words]`` of the same kind.
    With ``indices``, only those rows of ``logits`` are masked, row ``indices[k]`` by
    ``bitmask[indices[k]]``.
    """
    torch_logits = _is_torch(logits)
    if torch_logits != _is_torch(bitmask):
        raise TypeError("logits and bitmask must both be numpy arrays or both torch tensors")
    if logits.ndim not in (1, 2) or bitmask.ndim not in (1, 2):
        raise ValueError("logits and bitmask must have 1 or 2 dimensions")
    if logits.ndim == 1:
        if bitmask.ndim != 1:
            if bitmask.shape[0] != 1:
                raise ValueError("1-D logits need a 1-D bitmask or one with a single row")
            bitmask = bitmask[0]
        logits_2d, bitmask_2d = logits[None, :], bitmask[None, :]
    else:
        logits_2d = logits
        bitmask_2d = bitmask if bitmask.ndim == 2 else bitmask[None, :]
    rows = range(logits_2d.shape[0]) if indices is None else list(indices)
    if indices is None and bitmask_2d.shape[0] != logits_2d.shape[0]:
        raise ValueError(
            f"bitmask has {bitmask_2d.shape[0]} rows, logits have {logits_2d.shape[0]}"
        )
    vocab = logits_2d.shape[-1]
    if torch_logits:
        import torch

        if indices is None:
            allowed = _unpack_bits(bitmask_2d.to(logits_2d.device), vocab)
            logits_2d.masked_fill_(~allowed, float("-inf"))
        else:
            idx = torch.as_tensor(rows, dtype=torch.long, device=logits_2d.device)
            allowed = _unpack_bits(bitmask_2d.to(logits_2d.device)[idx], vocab)
            logits_2d[idx] = logits_2d[idx].masked_fill(~allowed, float("-inf"))
        return
    if indices is None:
        allowed = _unpack_bits(bitmask_2d, vocab)
        logits_2d[~allowed] = -np.inf
    else:
        idx = np.asarray(rows, dtype=np.intp)
        allowed = _unpack_bits(bitmask_2d[idx], vocab)
        sub = logits_2d[idx]
        sub[~allowed] = -np.inf
        logits_2d[idx] = sub

