"""Same grammar, same tokenizer: stackmask's bitmask rows equal llguidance's, int32 for int32.

llguidance is optional (`pip install llguidance`); without it this test skips loudly.
"""

from __future__ import annotations

import gzip

import numpy as np
import pytest

import stackmask
from conftest import REPO, skip_loudly

QWEN3 = REPO / "assets" / "qwen3.tokenizer.json.gz"

# Grammars on which both libraries define the same masks. (They differ elsewhere by
# design: llguidance allows no %ignore'd text before the first or after the last lexeme,
# and never allows Qwen3's added non-special tokens such as `<tool_call>`; stackmask
# treats those as the text they stand for. docs/python.md lists the differences.)
COMPACT_JSON = r"""
start: value
?value: object | array | STRING | NUMBER | "true" | "false" | "null"
object: "{" [member ("," member)*] "}"
member: STRING ":" value
array: "[" [value ("," value)*] "]"
STRING: /"[a-zA-Z0-9 _.-]*"/
NUMBER: /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/
"""

SHARED = [
    ("lists", 'start: "[" (NUM ("," NUM)*)? "]"\nNUM: /[0-9]+/\n', ["[12,3,456]", "[]"]),
    ("compact-json", COMPACT_JSON, ['{"a":[1,-2.5e3,true,null],"b":{"c":"x y"},"d":""}', '[[],{},"tool call"]']),
]


@pytest.fixture(scope="module")
def llg():
    try:
        import llguidance
        import llguidance.numpy
    except ImportError:
        skip_loudly("llguidance is not installed: bitmask layout not compared with llguidance")
    return llguidance


@pytest.mark.parametrize("name,grammar,texts", SHARED, ids=[s[0] for s in SHARED])
def test_masks_equal_llguidance(llg, name, grammar, texts):
    json_text = gzip.decompress(QWEN3.read_bytes()).decode()
    ours_tok = stackmask.Tokenizer.from_file(QWEN3)
    eos = ours_tok.eos_token_ids[0]
    ours_tok = ours_tok.with_eos_token_ids([eos])
    llg_tok = llg.LLTokenizer(json_text, eos_token=eos)
    assert llg_tok.vocab_size == ours_tok.vocab_size
    compiled = stackmask.CompiledGrammar(stackmask.Grammar.from_lark(grammar), ours_tok)
    words = stackmask.bitmask_size(ours_tok.vocab_size)
    for text in texts:
        ids = ours_tok.encode(text)
        ours = stackmask.Matcher(compiled)
        theirs = llg.LLMatcher(llg_tok, llg.LLMatcher.grammar_from_lark(grammar))
        assert not theirs.is_error(), theirs.get_error()
        for step in range(len(ids) + 1):
            a = np.zeros((1, words), np.int32)
            b = np.zeros((1, words), np.int32)
            ours.fill_next_token_bitmask(a, 0)
            llg.numpy.fill_next_token_bitmask(theirs, b, 0)
            assert np.array_equal(a, b), f"{name} {text!r} step {step}: masks differ in words {np.flatnonzero(a != b)[:5]}"
            if step < len(ids):
                ours.consume_token(ids[step])
                assert theirs.consume_token(ids[step]), theirs.get_error()
        assert ours.is_accepting() and theirs.is_accepting()
