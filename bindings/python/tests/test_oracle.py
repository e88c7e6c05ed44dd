"""Masks from Python equal the Rust oracle (every token tried) bit for bit, on a corpus."""

from __future__ import annotations

import numpy as np
import pytest

import stackmask
from conftest import JSON_GRAMMAR, SAMPLE_JSON, assert_mask_is_reference, small_token_ids

# (name, grammar, texts): each text is teacher-forced token by token.
LARK_CORPUS = [
    ("json", JSON_GRAMMAR, [
        '{"a": [1, 2.5e-3, true, null], "b": {"c": "\\u00e9\\"x"}}',
        '[{"name": "é", "v": -0.5}, {}, [], "abc"]',
        ' \n  {"k" : false }  ',
    ]),
    ("ambiguous", r'''
        start: expr
        expr: expr "+" expr | expr "*" expr | "(" expr ")" | NUM | ID
        NUM: /[0-9]+/
        ID: /[a-z]+/
        WS: / +/
        %ignore WS
    ''', ["ab + 12 * (x+1)", "(((a)))*b+c"]),
    ("keywords", r'''
        start: stmt+
        stmt: "SELECT " cols " FROM " ID ";"
        cols: ID ("," ID)*
        ID: /[A-Za-z_][A-Za-z0-9_]*/
    ''', ["SELECT a,b FROM t;SELECT abc FROM SELECTX;"]),
    ("nullable", r'''
        start: a b "x"
        a: "a"*
        b: "b"? c
        c: "c"*
        ''', ["aabcccx", "x"]),
]

REGEX_CORPUS = [
    (r"[0-9]{3}-[0-9]{4}", ["555-1234"]),
    (r"(ab|abc)+x?", ["abcababcx"]),
    (r'\{"a": (true|false|null)\}', ['{"a": true}']),
]


def _teacher_force(compiled, ids, name):
    matcher = stackmask.Matcher(compiled)
    assert_mask_is_reference(matcher, f"{name} step 0")
    for step, token in enumerate(ids, 1):
        matcher.consume_token(token)
        assert_mask_is_reference(matcher, f"{name} step {step}")
    return matcher


@pytest.mark.parametrize("name,grammar,texts", LARK_CORPUS, ids=[c[0] for c in LARK_CORPUS])
def test_lark_masks_equal_oracle_small_tokenizer(small, name, grammar, texts):
    compiled = stackmask.CompiledGrammar(stackmask.Grammar.from_lark(grammar), small)
    for text in texts:
        matcher = _teacher_force(compiled, small_token_ids(small, text.encode()), name)
        assert matcher.is_accepting(), f"{name}: {text!r} should be complete"
        matcher.consume_token(small.eos_token_ids[0])
        assert matcher.is_terminated()
        assert_mask_is_reference(matcher, f"{name} after EOS")


@pytest.mark.parametrize("pattern,texts", REGEX_CORPUS, ids=[c[0] for c in REGEX_CORPUS])
def test_regex_masks_equal_oracle_small_tokenizer(small, pattern, texts):
    compiled = stackmask.CompiledGrammar(stackmask.Grammar.from_regex(pattern), small)
    for text in texts:
        matcher = _teacher_force(compiled, small_token_ids(small, text.encode()), pattern)
        assert matcher.is_accepting()


def test_json_sample_masks_equal_oracle_qwen3(qwen, json_qwen):
    """The sample document with the real 151,669-token vocabulary, every step."""
    ids = qwen.encode(SAMPLE_JSON[:300])
    _teacher_force(json_qwen, ids, "sample.json")


def test_eager_and_lazy_classifiers_agree(small):
    grammar = stackmask.Grammar.from_lark(LARK_CORPUS[1][1])
    lazy = stackmask.CompiledGrammar(grammar, small)
    eager = stackmask.CompiledGrammar(grammar, small, eager=True)
    ids = small_token_ids(small, b"ab + 12 * (x+1)")
    a, b = stackmask.Matcher(lazy), stackmask.Matcher(eager)
    words = stackmask.bitmask_size(small.vocab_size)
    for token in ids:
        ma, mb = np.zeros(words, np.int32), np.zeros(words, np.int32)
        a.fill_next_token_bitmask(ma)
        b.fill_next_token_bitmask(mb)
        assert np.array_equal(ma, mb)
        assert_mask_is_reference(b, "eager")
        a.consume_token(token)
        b.consume_token(token)
