"""Bad input raises Python exceptions carrying the Rust error's message; nothing crashes."""

from __future__ import annotations

import numpy as np
import pytest

import stackmask
from conftest import LIST_GRAMMAR, small_token_ids, small_tokenizer_json

def test_errors_are_value_errors():
    assert issubclass(stackmask.StackmaskError, ValueError)


def test_grammar_errors_carry_rust_message():
    with pytest.raises(stackmask.StackmaskError) as err:
        stackmask.Grammar.from_lark('start: "a" b')
    assert str(err.value) == "grammar error at line 1, column 12: rule `b` is not defined"
    with pytest.raises(stackmask.StackmaskError, match="grammar error"):
        stackmask.Grammar.from_regex("(")
    with pytest.raises(stackmask.StackmaskError, match="grammar"):
        stackmask.Grammar.from_lark("")
    with pytest.raises(TypeError):
        stackmask.Grammar.from_lark(None)
    with pytest.raises(stackmask.StackmaskError):
        stackmask.Grammar.from_json_schema("{")
    with pytest.raises(stackmask.StackmaskError, match="oneOf"):
        stackmask.Grammar.from_json_schema({"oneOf": [{"prefixItems": [{"type": "integer"}]}, {"items": {"type": "integer"}}]})
    with pytest.raises(ValueError, match="whitespace must be"):
        stackmask.Grammar.from_json_schema({}, whitespace="tabs")
    with pytest.raises(TypeError):
        stackmask.Grammar.from_json_schema({"a": object()})


def test_tokenizer_errors(tmp_path):
    with pytest.raises(stackmask.StackmaskError, match="no/such/tokenizer.json"):
        stackmask.Tokenizer.from_file("no/such/tokenizer.json")
    with pytest.raises(stackmask.StackmaskError, match="tokenizer error"):
        stackmask.Tokenizer.from_json('{"model": {"type": "Unigram"}}')
    with pytest.raises(stackmask.StackmaskError, match="tokenizer error"):
        stackmask.Tokenizer.from_json(b"\x1f\x8b not gzip")
    with pytest.raises(TypeError, match="str or bytes"):
        stackmask.Tokenizer.from_json(12)
    with pytest.raises(TypeError, match="fast tokenizer"):
        stackmask.Tokenizer.from_transformers(object())
    small = stackmask.Tokenizer.from_json(small_tokenizer_json())
    with pytest.raises(stackmask.StackmaskError, match="out of range"):
        small.with_eos_token_ids([10_000])
    with pytest.raises(stackmask.StackmaskError, match="out of range"):
        small.token_bytes(10_000)
    with pytest.raises(OverflowError):
        small.token_bytes(-1)


def test_matcher_errors_leave_it_unchanged(small, lists):
    m = stackmask.Matcher(lists)
    with pytest.raises(stackmask.StackmaskError, match=r"token id 5000 is out of range \(vocabulary size 288\)"):
        m.consume_token(5000)
    with pytest.raises(stackmask.StackmaskError, match="input rejected at byte 0"):
        m.consume_token(ord("]"))
    with pytest.raises(stackmask.StackmaskError, match="end of sequence before the text is complete"):
        m.consume_token(small.eos_token_ids[0])
    with pytest.raises(stackmask.StackmaskError, match="cannot roll back 1 tokens: only 0 committed"):
        m.rollback(1)
    with pytest.raises(stackmask.StackmaskError, match="rejected"):
        m.consume_bytes(b"[x")
    assert m.num_steps == 0
    m.consume_tokens(small_token_ids(small, b"[]"))
    m.consume_token(small.eos_token_ids[0])
    with pytest.raises(stackmask.StackmaskError, match="the sequence has ended"):
        m.consume_token(ord("["))
    with pytest.raises(OverflowError):
        m.rollback(-1)


@pytest.mark.parametrize(
    "bitmask,error,message",
    [
        (np.zeros((2, 9), np.float32), TypeError, "must be an int32 array"),
        (np.zeros((2, 9), np.int64), TypeError, "must be an int32 array"),
        (np.zeros((2, 8), np.int32), ValueError, "rows have 8 words, 9 needed for a vocabulary of 288"),
        (np.zeros((2, 9, 1), np.int32), ValueError, "1 or 2 dimensions"),
        (np.zeros((2, 18), np.int32)[:, ::2], ValueError, "C-contiguous"),
        ([0] * 9, TypeError, "must be an int32 array"),
        (None, TypeError, "must be an int32 array"),
    ],
    ids=["float32", "int64", "too-few-words", "3-d", "strided", "list", "none"],
)
def test_bad_bitmasks(lists, bitmask, error, message):
    m = stackmask.Matcher(lists)
    with pytest.raises(error, match=message):
        m.fill_next_token_bitmask(bitmask)
    with pytest.raises(error, match=message):
        m.fill_reference_bitmask(bitmask)
    with pytest.raises(error, match=message):
        stackmask.fill_next_token_bitmasks([m], bitmask)


def test_read_only_bitmask_and_bad_rows(lists):
    m = stackmask.Matcher(lists)
    frozen = np.zeros((2, 9), np.int32)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        m.fill_next_token_bitmask(frozen)
    assert not frozen.any()
    bitmask = np.zeros((2, 9), np.int32)
    with pytest.raises(IndexError, match="row 2 is out of range for 2 rows"):
        m.fill_next_token_bitmask(bitmask, 2)
    with pytest.raises(IndexError, match="row -3 is out of range"):
        m.fill_next_token_bitmask(bitmask, -3)
    with pytest.raises(ValueError, match="3 matchers for a bitmask of 2 rows"):
        stackmask.fill_next_token_bitmasks([stackmask.Matcher(lists) for _ in range(3)], bitmask)
    with pytest.raises(ValueError, match="1 indices for 2 matchers"):
        stackmask.fill_next_token_bitmasks([stackmask.Matcher(lists) for _ in range(2)], bitmask, [0])
    with pytest.raises(ValueError, match="row 1 is given to two matchers"):
        stackmask.fill_next_token_bitmasks([stackmask.Matcher(lists) for _ in range(2)], bitmask, [1, -1])
    with pytest.raises(IndexError):
        stackmask.fill_next_token_bitmasks([m], bitmask, [5])
    assert not bitmask.any()


def test_batch_rejects_the_same_matcher_twice(lists):
    m = stackmask.Matcher(lists)
    bitmask = np.zeros((2, 9), np.int32)
    with pytest.raises(RuntimeError, match="borrow"):
        stackmask.fill_next_token_bitmasks([m, m], bitmask)
    m.fill_next_token_bitmask(bitmask)  # still usable
    assert bitmask[0].any()


def test_batch_rejects_mixed_vocabularies(small, qwen, lists):
    other = stackmask.CompiledGrammar(stackmask.Grammar.from_lark(LIST_GRAMMAR), qwen)
    bitmask = np.zeros((2, stackmask.bitmask_size(qwen.vocab_size)), np.int32)
    with pytest.raises(ValueError, match="vocabulary sizes 288 and 151669"):
        stackmask.fill_next_token_bitmasks([stackmask.Matcher(lists), stackmask.Matcher(other)], bitmask)


def test_helper_errors(small):
    with pytest.raises(ValueError, match="framework"):
        stackmask.allocate_token_bitmask(1, 10, framework="jax")
    with pytest.raises(ValueError, match="negative"):
        stackmask.allocate_token_bitmask(-1, 10)
    with pytest.raises(ValueError, match="rows"):
        stackmask.apply_token_bitmask_inplace(np.zeros((3, 40), np.float32), np.zeros((2, 2), np.int32))
    with pytest.raises(ValueError, match="dimensions"):
        stackmask.apply_token_bitmask_inplace(np.zeros((1, 1, 4), np.float32), np.zeros((1, 1), np.int32))
    with pytest.raises(TypeError):
        stackmask.Matcher(small)
