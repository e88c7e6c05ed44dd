"""A ``transformers`` logits processor that constrains generation to a grammar.

``transformers`` is optional: :class:`StackmaskLogitsProcessor` subclasses
``transformers.LogitsProcessor`` when it is installed and is a plain callable
otherwise. It accepts torch tensors (any device; the bitmask is computed on the CPU) and
numpy arrays, so a loop without a model or torch can use it too (``examples/generate.py``).

Example with a model::

    from transformers import AutoModelForCausalLM, AutoTokenizer, LogitsProcessorList
    import stackmask
    from stackmask.hf import StackmaskLogitsProcessor

    hf_tok = AutoTokenizer.from_pretrained(name)
    tok = stackmask.Tokenizer.from_transformers(hf_tok)
    compiled = stackmask.CompiledGrammar(stackmask.Grammar.from_lark(grammar), tok)
    processor = StackmaskLogitsProcessor(compiled)
    out = model.generate(**inputs, logits_processor=LogitsProcessorList([processor]))
"""

from __future__ import annotations

from typing import Any, List, Optional

import numpy as np

from . import CompiledGrammar, Matcher, apply_token_bitmask_inplace, bitmask_size, fill_next_token_bitmasks

try:  # pragma: no cover - depends on the environment
    from transformers import LogitsProcessor as _Base
except ImportError:  # transformers is optional
    _Base = object


class StackmaskLogitsProcessor(_Base):  # type: ignore[misc, valid-type]
    """Masks the scores of tokens the grammar does not allow next, one matcher per row.

    The first call sees the prompt (``input_ids`` of shape ``[batch, prompt_len]``) and
    starts one matcher per row; each later call consumes the tokens appended since the
    previous call. A row whose matcher has consumed an end-of-sequence token is left
    unmasked (the generation loop pads it). Call :meth:`reset` before reusing the
    processor for another generation.
    """

    def __init__(self, compiled: CompiledGrammar) -> None:
        self.compiled = compiled
        self.matchers: Optional[List[Matcher]] = None
        self._seen = 0
        self._bitmask: Optional[np.ndarray] = None

    def reset(self) -> None:
        """Forget the current generation (the next call starts new matchers)."""
        self.matchers = None
        self._seen = 0

    def __call__(self, input_ids: Any, scores: Any) -> Any:
        """Consume the new tokens of ``input_ids`` and mask ``scores`` in place
        (``[batch, vocab]``); returns ``scores``."""
        batch, length = input_ids.shape
        if self.matchers is None:
            self.matchers = [Matcher(self.compiled) for _ in range(batch)]
            self._seen = length
            self._bitmask = np.empty((batch, bitmask_size(self.compiled.vocab_size)), dtype=np.int32)
        elif len(self.matchers) != batch:
            raise ValueError(f"the batch changed from {len(self.matchers)} to {batch} rows; call reset()")
        new = input_ids[:, self._seen:]
        new = new.tolist() if hasattr(new, "tolist") else [list(row) for row in new]
        for matcher, tokens in zip(self.matchers, new):
            for token in tokens:
                if matcher.is_terminated():
                    break
                matcher.consume_token(int(token))
        self._seen = length
        live = [i for i, m in enumerate(self.matchers) if not m.is_terminated()]
        bitmask = self._bitmask
        bitmask.fill(-1)
        fill_next_token_bitmasks([self.matchers[i] for i in live], bitmask, live)
        if type(scores).__module__.split(".")[0] == "torch":
            import torch

            apply_token_bitmask_inplace(scores, torch.from_numpy(bitmask).to(scores.device))
        else:
            apply_token_bitmask_inplace(scores, bitmask)
        return scores
