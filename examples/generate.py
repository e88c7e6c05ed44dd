"""A constrained generation loop with a stand-in model (no download, no torch).

The "model" returns seeded random logits; StackmaskLogitsProcessor, the same object a
`transformers` `generate()` call takes in its `logits_processor` list, masks them so
that every sampled text is a sentence of the grammar. Run from the repository root:

    python examples/generate.py [--seed N] [--batch N]

With a real model, replace `RandomModel` by the model's forward pass and keep the rest
(see docs/python.md).
"""

from __future__ import annotations

import argparse

import numpy as np

import stackmask
from stackmask.hf import StackmaskLogitsProcessor

GRAMMAR = r"""
start: "{\"city\": " CITY ", \"days\": " DAYS ", \"activities\": [" ACT ("," " "? ACT)* "]}"
CITY: "\"Paris\"" | "\"Tokyo\"" | "\"Lima\"" | "\"Nairobi\""
DAYS: /[1-9]|1[0-4]/
ACT: "\"museum\"" | "\"hike\"" | "\"food tour\"" | "\"beach\""
"""


class RandomModel:
    """Stands in for a language model: seeded random logits over the vocabulary, with
    a bonus for short tokens and for end-of-sequence tokens so that texts end."""

    def __init__(self, tokenizer: stackmask.Tokenizer, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.bonus = np.zeros(tokenizer.vocab_size, dtype=np.float32)
        for token in range(tokenizer.vocab_size):
            text = tokenizer.token_bytes(token)
            if text is None:
                self.bonus[token] = 4.0 if token in tokenizer.eos_token_ids else 0.0
            elif len(text) <= 2:
                self.bonus[token] = 2.0

    def logits(self, batch: int) -> np.ndarray:
        """Next-token logits, `[batch, vocab]`."""
        return self.rng.normal(size=(batch, self.bonus.size)).astype(np.float32) + self.bonus


def generate(
    compiled: stackmask.CompiledGrammar,
    tokenizer: stackmask.Tokenizer,
    model: RandomModel,
    prompt: list[int],
    batch: int = 1,
    max_new_tokens: int = 200,
) -> list[bytes]:
    """Sample `batch` texts token by token, masked by the grammar; returns their bytes.

    Raises RuntimeError if a text is not finished after `max_new_tokens` tokens.
    """
    processor = StackmaskLogitsProcessor(compiled)
    input_ids = np.array([prompt] * batch, dtype=np.int64)
    eos = tokenizer.eos_token_ids
    done = np.zeros(batch, dtype=bool)
    for _ in range(max_new_tokens):
        scores = processor(input_ids, model.logits(batch))
        probs = np.exp(scores - scores.max(axis=1, keepdims=True))
        probs /= probs.sum(axis=1, keepdims=True)
        next_ids = np.array([model.rng.choice(probs.shape[1], p=p) for p in probs])
        next_ids[done] = eos[0]  # finished rows are padded with EOS
        done |= np.isin(next_ids, eos)
        input_ids = np.concatenate([input_ids, next_ids[:, None]], axis=1)
        if done.all():
            break
    else:
        raise RuntimeError(f"not finished after {max_new_tokens} tokens")
    texts = []
    for row in input_ids[:, len(prompt):]:
        texts.append(b"".join(tokenizer.token_bytes(int(t)) or b"" for t in row if t not in eos))
    return texts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=4)
    args = parser.parse_args()
    tokenizer = stackmask.Tokenizer.embedded_default()
    compiled = stackmask.CompiledGrammar(stackmask.Grammar.from_lark(GRAMMAR), tokenizer)
    model = RandomModel(tokenizer, args.seed)
    prompt = tokenizer.encode("Plan a trip as JSON: ")
    for text in generate(compiled, tokenizer, model, prompt, batch=args.batch):
        print(text.decode())


if __name__ == "__main__":
    main()
