"""The batch call and shared compiled grammars under concurrent Python threads."""

from __future__ import annotations

import threading

import numpy as np

import stackmask
from conftest import JSON_GRAMMAR

PREFIXES = ['', '{', '{"a', '{"a": [1, tr', '[1, {"b": nu', '"x\\u00', '[[[', '{"k": "v"}']


def _matchers(compiled, qwen, copies):
    out = []
    for i in range(copies):
        m = stackmask.Matcher(compiled)
        m.consume_tokens(qwen.encode(PREFIXES[i % len(PREFIXES)]))
        out.append(m)
    return out


def test_batch_from_many_threads_equals_oracle(qwen):
    # A fresh grammar, so that the threads race to build the lazy classifier too.
    compiled = stackmask.CompiledGrammar(stackmask.Grammar.from_lark(JSON_GRAMMAR), qwen)
    words = stackmask.bitmask_size(qwen.vocab_size)
    expected = np.zeros((len(PREFIXES), words), np.int32)
    for i, m in enumerate(_matchers(compiled, qwen, len(PREFIXES))):
        m.fill_reference_bitmask(expected, i)

    batch_rows = 3 * len(PREFIXES)
    results, errors = {}, []
    barrier = threading.Barrier(4)

    def worker(n):
        try:
            matchers = _matchers(compiled, qwen, batch_rows)
            barrier.wait()
            for _ in range(3):
                bitmask = np.full((batch_rows, words), -1, np.int32)
                stackmask.fill_next_token_bitmasks(matchers, bitmask)
                results.setdefault(n, []).append(bitmask)
                # Single fills of the same matchers interleave with other threads' batches.
                single = np.zeros(words, np.int32)
                matchers[n].fill_next_token_bitmask(single)
                results[n].append(single[None, :])
        except Exception as e:  # reported below; a thread's exception is otherwise lost
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert len(results) == 4
    for n, masks in results.items():
        for bitmask in masks:
            for row in range(bitmask.shape[0]):
                index = n if bitmask.shape[0] == 1 else row
                assert np.array_equal(bitmask[row], expected[index % len(PREFIXES)]), (n, row)


def test_batch_call_on_one_matcher_from_two_threads_is_refused_or_serialized(qwen, json_qwen):
    """Two threads passing the same matchers never see a half-moved matcher: each call
    either runs or raises (a borrow error, or 'in use by a batch call')."""
    matchers = _matchers(json_qwen, qwen, 16)
    words = stackmask.bitmask_size(qwen.vocab_size)
    outcomes = []

    def worker():
        for _ in range(5):
            bitmask = np.zeros((16, words), np.int32)
            try:
                stackmask.fill_next_token_bitmasks(matchers, bitmask)
                outcomes.append(("ok", bitmask))
            except (RuntimeError, stackmask.StackmaskError) as e:
                outcomes.append(("refused", str(e)))

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(outcomes) == 10
    reference = np.zeros((16, words), np.int32)
    stackmask.fill_next_token_bitmasks(matchers, reference)
    for kind, value in outcomes:
        if kind == "ok":
            assert np.array_equal(value, reference)
        else:
            assert "borrow" in value or "in use by a batch call" in value
