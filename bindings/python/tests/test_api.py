"""The matcher API: consuming, rollback, completion, fast-forward, bitmask helpers."""

from __future__ import annotations

import json

import numpy as np
import pytest

import stackmask
from conftest import allowed, assert_mask_is_reference, skip_loudly, small_token_ids, small_tokenizer_json

def ids(small, text):
    return small_token_ids(small, text.encode())


def test_tokenizer_properties(small, qwen):
    assert small.vocab_size == 256 + 31 + 1
    assert small.eos_token_ids == [small.vocab_size - 1]
    assert small.token_bytes(small.vocab_size - 1) is None
    assert small.token_bytes(ord("a")) == b"a"
    assert qwen.vocab_size == 151_669
    assert b"".join(qwen.token_bytes(i) for i in qwen.encode('{"é": 1}')) == '{"é": 1}'.encode()
    assert "vocab_size=151669" in repr(qwen)
    eos = small.with_eos_token_ids([ord("x")])
    assert eos.eos_token_ids == [ord("x")] and small.eos_token_ids != eos.eos_token_ids


def test_tokenizer_from_file(tmp_path):
    path = tmp_path / "tokenizer.json"
    path.write_text(small_tokenizer_json())
    assert stackmask.Tokenizer.from_file(path).vocab_size == 288
    assert stackmask.Tokenizer.from_file(str(path)).vocab_size == 288
    assert stackmask.Tokenizer.from_json(path.read_bytes()).vocab_size == 288


class _FakeBackend:
    def __init__(self, text):
        self.text = text

    def to_str(self):
        return self.text


class _FakeHfTokenizer:
    """What Tokenizer.from_transformers reads from a transformers fast tokenizer."""

    def __init__(self, text, eos):
        self.backend_tokenizer = _FakeBackend(text)
        self.eos_token_id = eos


def test_tokenizer_from_transformers_shaped_object():
    tok = stackmask.Tokenizer.from_transformers(_FakeHfTokenizer(small_tokenizer_json(), ord(";")))
    assert tok.vocab_size == 288
    assert tok.eos_token_ids == [ord(";"), 287]
    no_eos = stackmask.Tokenizer.from_transformers(_FakeHfTokenizer(small_tokenizer_json(), None))
    assert no_eos.eos_token_ids == [287]


def test_tokenizer_from_real_transformers(tmp_path):
    try:
        from transformers import PreTrainedTokenizerFast
    except ImportError:
        skip_loudly("transformers is not installed: Tokenizer.from_transformers tested on a stand-in only")
    path = tmp_path / "tokenizer.json"
    path.write_text(small_tokenizer_json())
    hf = PreTrainedTokenizerFast(tokenizer_file=str(path), eos_token="<|endoftext|>")
    tok = stackmask.Tokenizer.from_transformers(hf)
    assert tok.vocab_size == len(hf)
    assert tok.eos_token_ids == [hf.eos_token_id]


def test_consume_rollback_accepting(small, lists):
    m = stackmask.Matcher(lists)
    assert m.vocab_size == small.vocab_size
    assert not m.is_accepting()
    m.consume_tokens(ids(small, "[12,3"))
    assert m.num_steps == len(ids(small, "[12,3"))
    assert not m.is_accepting()
    m.consume_token(ord("]"))
    assert m.is_accepting() and not m.is_terminated()
    m.consume_token(small.eos_token_ids[0])
    assert m.is_terminated() and not m.is_accepting()
    mask = assert_mask_is_reference(m, "after EOS")
    assert not mask.any()
    m.rollback(2)
    assert not m.is_terminated() and not m.is_accepting()
    m.rollback()
    assert m.num_steps == len(ids(small, "[12,3")) - 1
    m.reset()
    assert m.num_steps == 0
    assert {small.token_bytes(i) for i in allowed(assert_mask_is_reference(m, "reset"))} == {b"[", b"[]"}


def test_consume_tokens_is_all_or_nothing(small, lists):
    m = stackmask.Matcher(lists)
    m.consume_token(ord("["))
    with pytest.raises(stackmask.StackmaskError, match="rejected"):
        m.consume_tokens([ord("1"), ord("2"), ord("a")])
    assert m.num_steps == 1
    m.consume_tokens([])
    assert m.num_steps == 1


def test_consume_bytes_is_one_step(lists):
    m = stackmask.Matcher(lists)
    m.consume_bytes(b"[1,2")
    assert m.num_steps == 1
    m.rollback(1)
    assert m.num_steps == 0


def test_forced_bytes_and_tokens(small):
    g = stackmask.Grammar.from_lark(r'start: "{\"name\": " NAME "}"' + '\nNAME: /"[a-z]+"/')
    m = stackmask.Matcher(stackmask.CompiledGrammar(g, small))
    assert m.compute_ff_bytes() == b'{"name": "'
    forced = m.compute_ff_tokens()
    # ` "` is a token no longer token extends, so it is forced too.
    assert b"".join(small.token_bytes(t) for t in forced) == b'{"name": "'
    m.consume_tokens(forced)
    assert_mask_is_reference(m, "after fast-forward")


def test_bitmask_rows_padding_and_negative_index(small, lists):
    m = stackmask.Matcher(lists)
    words = stackmask.bitmask_size(small.vocab_size)
    bitmask = np.full((3, words + 2), -1, dtype=np.int32)
    m.fill_next_token_bitmask(bitmask, -1)
    reference = np.zeros(words, np.int32)
    m.fill_reference_bitmask(reference)
    assert np.array_equal(bitmask[2, :words], reference)
    assert not bitmask[2, words:].any()
    assert (bitmask[:2] == -1).all()
    stackmask.fill_next_token_bitmask(m, bitmask, 0)
    assert np.array_equal(bitmask[0, :words], reference)


def test_allocate_and_apply(small, lists):
    vocab = small.vocab_size
    bitmask = stackmask.allocate_token_bitmask(2, vocab)
    assert bitmask.shape == (2, 9) and bitmask.dtype == np.int32 and (bitmask == -1).all()
    m = stackmask.Matcher(lists)
    m.fill_next_token_bitmask(bitmask, 1)
    logits = np.arange(2 * (vocab + 5), dtype=np.float32).reshape(2, vocab + 5)
    stackmask.apply_token_bitmask_inplace(logits, bitmask)
    finite = {i for i in range(vocab + 5) if np.isfinite(logits[1, i])}
    assert finite == allowed(bitmask[1]) and finite
    # Row 0 allows every token of the bitmask's 288 bits; ids past them are masked.
    assert np.isfinite(logits[0, :288]).all() and np.isinf(logits[0, 288:]).all()
    one = np.zeros(vocab, dtype=np.float32)
    stackmask.apply_token_bitmask_inplace(one, bitmask[1])
    assert {i for i in range(vocab) if np.isfinite(one[i])} == finite
    rows = np.zeros((2, vocab), dtype=np.float32)
    stackmask.apply_token_bitmask_inplace(rows, bitmask, indices=[1])
    assert np.isfinite(rows[0]).all()
    assert {i for i in range(vocab) if np.isfinite(rows[1, i])} == finite


def test_torch_bitmask_and_apply(small, lists):
    try:
        import torch
    except ImportError:
        skip_loudly("torch is not installed: torch CPU tensors untested")
    bitmask = stackmask.allocate_token_bitmask(2, small.vocab_size, framework="torch")
    assert bitmask.dtype == torch.int32
    m = stackmask.Matcher(lists)
    m.fill_next_token_bitmask(bitmask, 1)
    reference = np.zeros(bitmask.shape[1], np.int32)
    m.fill_reference_bitmask(reference)
    assert np.array_equal(bitmask[1].numpy(), reference)
    stackmask.fill_next_token_bitmasks([m], bitmask, [0])
    assert np.array_equal(bitmask[0].numpy(), reference)
    logits = torch.zeros(2, small.vocab_size)
    stackmask.apply_token_bitmask_inplace(logits, bitmask)
    assert set(torch.isfinite(logits[1]).nonzero().flatten().tolist()) == allowed(reference)


def test_batch_equals_single(small, lists):
    texts = ["", "[", "[1", "[12,", "[1,2]", "[3]"]
    matchers = [stackmask.Matcher(lists) for _ in texts]
    for m, text in zip(matchers, texts):
        m.consume_tokens(ids(small, text))
    matchers[-1].consume_token(small.eos_token_ids[0])
    words = stackmask.bitmask_size(small.vocab_size)
    expected = np.zeros((len(texts), words), np.int32)
    for i, m in enumerate(matchers):
        m.fill_reference_bitmask(expected, i)
    batch = np.full((len(texts), words), -1, np.int32)
    stackmask.fill_next_token_bitmasks(matchers, batch)
    assert np.array_equal(batch, expected)
    # Rows chosen by index, in a wider bitmask with padding words and spare rows.
    wide = np.full((len(texts) + 2, words + 1), -1, np.int32)
    order = [7, 0, 3, 5, 1, 2]
    stackmask.fill_next_token_bitmasks(matchers, wide, order)
    for i, row in enumerate(order):
        assert np.array_equal(wide[row, :words], expected[i]) and wide[row, words] == 0
    assert (wide[[4, 6]] == -1).all()
    stackmask.fill_next_token_bitmasks([], batch)


def test_json_schema_dict_and_str(small):
    schema = {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"],
              "additionalProperties": False}
    for given in (schema, json.dumps(schema)):
        m = stackmask.Matcher(stackmask.CompiledGrammar(stackmask.Grammar.from_json_schema(given), small))
        m.consume_tokens(ids(small, '{"a": 12}'))
        assert m.is_accepting()
    compact = stackmask.Grammar.from_json_schema(schema, whitespace="compact")
    m = stackmask.Matcher(stackmask.CompiledGrammar(compact, small))
    with pytest.raises(stackmask.StackmaskError, match="rejected"):
        m.consume_tokens(ids(small, '{"a": 12}'))
    m.consume_tokens(ids(small, '{"a":12}'))
    assert_mask_is_reference(m, "compact")
    assert m.is_accepting()
