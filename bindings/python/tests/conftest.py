"""Shared fixtures: tokenizers, grammars, and the mask comparison with the Rust oracle."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import stackmask

REPO = Path(__file__).resolve().parents[3]
JSON_GRAMMAR = (REPO / "grammars" / "json.lark").read_text()
SAMPLE_JSON = (REPO / "grammars" / "samples" / "sample.json").read_text()


def skip_loudly(reason: str) -> None:
    """Skip the current test with a reason that starts with SKIPPED; run-tests.sh runs
    pytest with -rs, which prints every skip and its reason at the end of the run."""
    pytest.skip(f"SKIPPED: {reason}")


def _byte_to_unicode() -> dict[int, str]:
    """GPT-2's byte-level alphabet: every byte as one printable character."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    table = {b: chr(b) for b in printable}
    extra = 0
    for b in range(256):
        if b not in table:
            table[b] = chr(256 + extra)
            extra += 1
    return table


# Multi-byte tokens of the small tokenizer: ones that span lexemes, cut UTF-8 sequences,
# or open and close strings, so that masks test more than single bytes.
SMALL_TOKENS = [
    b'{"', b'":', b'",', b'"}', b'"]', b'true', b'false', b'null', b' "', b'12', b'0.',
    b'e-', b'[]', b'{}', b'\n  ', b'ab', b'abc', b'"a', b'a"', "é".encode(), b"\xc3",
    b'\\u00', b'\\"', b', ', b': ', b'},{', b'1,', b'-0', b'SELECT', b' FROM', b'x=',
]


def small_tokenizer_json() -> str:
    """A byte-level BPE `tokenizer.json`: the 256 bytes, SMALL_TOKENS, and an EOS."""
    table = _byte_to_unicode()
    pieces = [table[b] for b in range(256)]
    pieces += ["".join(table[b] for b in token) for token in SMALL_TOKENS]
    vocab = {piece: i for i, piece in enumerate(pieces)}
    eos = len(pieces)
    return json.dumps({
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [{"id": eos, "content": "<|endoftext|>", "single_word": False, "lstrip": False,
                          "rstrip": False, "normalized": False, "special": True}],
        "normalizer": None,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True},
        "post_processor": None,
        "decoder": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
        "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
                  "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False, "vocab": vocab,
                  "merges": []},
    })


@pytest.fixture(scope="session")
def qwen() -> stackmask.Tokenizer:
    """The Qwen3 tokenizer embedded in the library (151,669 ids)."""
    return stackmask.Tokenizer.embedded_default()


@pytest.fixture(scope="session")
def small() -> stackmask.Tokenizer:
    """A 288-token byte-level tokenizer: the oracle is cheap on it."""
    return stackmask.Tokenizer.from_json(small_tokenizer_json())


@pytest.fixture(scope="session")
def json_qwen(qwen) -> stackmask.CompiledGrammar:
    """Generic JSON compiled for Qwen3."""
    return stackmask.CompiledGrammar(stackmask.Grammar.from_lark(JSON_GRAMMAR), qwen)


def small_token_ids(small: stackmask.Tokenizer, text: bytes) -> list[int]:
    """Greedy longest-match ids of `text` in the small tokenizer."""
    by_bytes = {small.token_bytes(i): i for i in range(small.vocab_size) if small.token_bytes(i)}
    longest = max(len(b) for b in by_bytes)
    ids, at = [], 0
    while at < len(text):
        for n in range(min(longest, len(text) - at), 0, -1):
            if text[at:at + n] in by_bytes:
                ids.append(by_bytes[text[at:at + n]])
                at += n
                break
    return ids


def allowed(mask: np.ndarray) -> set[int]:
    """Token ids whose bit is set in a 1-D int32 mask."""
    bits = np.unpackbits(mask.view(np.uint8), bitorder="little")
    return set(np.flatnonzero(bits).tolist())


def assert_mask_is_reference(matcher: stackmask.Matcher, where: str) -> np.ndarray:
    """The matcher's mask equals the oracle's bit for bit; returns it."""
    words = stackmask.bitmask_size(matcher.vocab_size)
    fast = np.zeros(words, dtype=np.int32)
    reference = np.zeros(words, dtype=np.int32)
    matcher.fill_next_token_bitmask(fast)
    matcher.fill_reference_bitmask(reference)
    if not np.array_equal(fast, reference):
        only_fast = sorted(allowed(fast) - allowed(reference))[:10]
        only_ref = sorted(allowed(reference) - allowed(fast))[:10]
        raise AssertionError(f"{where}: mask differs from the oracle; only fast {only_fast}, only oracle {only_ref}")
    return fast


LIST_GRAMMAR = r'''
start: "[" (NUM ("," NUM)*)? "]"
NUM: /[0-9]+/
'''


@pytest.fixture()
def lists(small):
    """A small list-of-numbers grammar compiled for the small tokenizer."""
    return stackmask.CompiledGrammar(stackmask.Grammar.from_lark(LIST_GRAMMAR), small)
