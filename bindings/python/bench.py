"""Measures the Python API's costs (figures in docs/python.md).

1. Per-call time of `Matcher.fill_next_token_bitmask` from Python on trivial states
   (Qwen3, 151,669 ids = 4,740 words a row), against llguidance's
   `llguidance.numpy.fill_next_token_bitmask` on the same grammar and state when
   llguidance is installed.
2. Throughput of `fill_next_token_bitmasks` for batches of 64 and 256 matchers at
   varied states of the JSON grammar, against the same rows filled one by one.

    python bindings/python/bench.py            # from the repository root, package installed
"""

from __future__ import annotations

import gzip
import os
import statistics
import time
import timeit
from pathlib import Path

import numpy as np

import stackmask

REPO = Path(__file__).resolve().parents[2]
QWEN3 = REPO / "assets" / "qwen3.tokenizer.json.gz"
JSON_GRAMMAR = (REPO / "grammars" / "json.lark").read_text()
SAMPLE = (REPO / "grammars" / "samples" / "sample.json").read_text()
TRIVIAL = 'start: "[" (NUM ("," NUM)*)? "]"\nNUM: /[0-9]+/\n'


def per_call_us(fn, number: int = 20_000, repeat: int = 7) -> float:
    """Best of `repeat` means over `number` calls, in microseconds."""
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e6


def overhead(tok: stackmask.Tokenizer) -> None:
    compiled = stackmask.CompiledGrammar(stackmask.Grammar.from_lark(TRIVIAL), tok)
    words = stackmask.bitmask_size(tok.vocab_size)
    bitmask = np.zeros((1, words), np.int32)
    states = {
        "start of the list grammar (`[` and `[]` tokens)": [],
        "after `[12` (digits, `,`, `]` tokens)": tok.encode("[12"),
    }
    print(f"fill_next_token_bitmask per call, vocabulary {tok.vocab_size} ({words} words):")
    m = stackmask.Matcher(compiled)
    print(f"  Python call floor, Matcher.is_terminated():        {per_call_us(m.is_terminated):6.2f} us")
    for name, prefix in states.items():
        m = stackmask.Matcher(compiled)
        m.consume_tokens(prefix)
        m.fill_next_token_bitmask(bitmask, 0)  # build the lazy classifier edges first
        t = per_call_us(lambda: m.fill_next_token_bitmask(bitmask, 0))
        print(f"  stackmask, {name:48s} {t:6.2f} us")
    try:
        import llguidance
        import llguidance.numpy
    except ImportError:
        print("  SKIPPED: llguidance is not installed, no side-by-side")
        return
    eos = tok.eos_token_ids[0]
    llg_tok = llguidance.LLTokenizer(gzip.decompress(QWEN3.read_bytes()).decode(), eos_token=eos)
    for name, prefix in states.items():
        lm = llguidance.LLMatcher(llg_tok, llguidance.LLMatcher.grammar_from_lark(TRIVIAL))
        lm.consume_tokens(prefix)
        llguidance.numpy.fill_next_token_bitmask(lm, bitmask, 0)
        t = per_call_us(lambda: llguidance.numpy.fill_next_token_bitmask(lm, bitmask, 0))
        print(f"  llguidance {llguidance.__version__ if hasattr(llguidance, '__version__') else ''}, {name:37s} {t:6.2f} us")


def batch(tok: stackmask.Tokenizer) -> None:
    compiled = stackmask.CompiledGrammar(stackmask.Grammar.from_lark(JSON_GRAMMAR), tok)
    ids = tok.encode(SAMPLE)
    words = stackmask.bitmask_size(tok.vocab_size)
    print(f"fill_next_token_bitmasks, JSON grammar, {os.cpu_count()} cores, matchers at prefixes of sample.json "
          f"({len(ids)} tokens) spread evenly:")
    for size in (64, 256):
        matchers = []
        for i in range(size):
            m = stackmask.Matcher(compiled)
            m.consume_tokens(ids[: i * len(ids) // size])
            matchers.append(m)
        bitmask = np.zeros((size, words), np.int32)
        stackmask.fill_next_token_bitmasks(matchers, bitmask)  # warm the lazy classifier
        par, seq = [], []
        for _ in range(15):
            t0 = time.perf_counter()
            stackmask.fill_next_token_bitmasks(matchers, bitmask)
            par.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            for i, m in enumerate(matchers):
                m.fill_next_token_bitmask(bitmask, i)
            seq.append(time.perf_counter() - t0)
        p, s = statistics.median(par), statistics.median(seq)
        print(f"  batch {size:3d}: {p * 1e3:7.3f} ms a batch = {size / p:9.0f} rows/s "
              f"({p / size * 1e6:5.2f} us a row); one by one from Python {s * 1e3:7.3f} ms "
              f"({s / size * 1e6:5.2f} us a row); speed-up {s / p:4.2f}x")


def main() -> None:
    tok = stackmask.Tokenizer.from_file(QWEN3)
    overhead(tok)
    batch(tok)


if __name__ == "__main__":
    main()
