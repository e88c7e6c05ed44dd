"""Agent tool calling: the model must answer with exactly one valid call of one tool.

The tool definitions (OpenAI-style) become one JSON Schema whose top level is a `oneOf`
over call objects `{"name": "<tool>", "arguments": {...}}` (stackmask.tool_call_schema).
Two tools here take overlapping arguments (`search_web` and `search_files` both take a
`query` string), the case where the grammar must keep every alternative alive until the
text decides between them. A seeded random "model" stands in for an LLM, so this runs
without a download; every call it produces parses and validates.

    python examples/tool_calling.py [--seed N] [--calls N]
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import numpy as np

import stackmask

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Current weather in a city.",
            "parameters": {
                "type": "object",
                "properties": {
                    "city": {"type": "string", "maxLength": 20},
                    "unit": {"enum": ["celsius", "fahrenheit"]},
                },
                "required": ["city", "unit"],
                "additionalProperties": False,
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "search_web",
            "description": "Search the web.",
            "parameters": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "maxLength": 30},
                    "max_results": {"type": "integer", "minimum": 1, "maximum": 10},
                },
                "required": ["query"],
                "additionalProperties": False,
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "search_files",
            "description": "Search local files.",
            "parameters": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "maxLength": 30},
                    "recursive": {"type": "boolean"},
                },
                "required": ["query", "recursive"],
                "additionalProperties": False,
            },
        },
    },
    {"name": "get_time", "description": "The current time (no arguments)."},
]


def compile_tools(tokenizer: stackmask.Tokenizer, tools: list[dict[str, Any]] = TOOLS) -> stackmask.CompiledGrammar:
    """The tools' call schema (top-level `oneOf`) compiled for `tokenizer`, without
    whitespace between JSON tokens (a random stand-in model would fill it with blanks)."""
    schema = stackmask.tool_call_schema(tools)
    grammar = stackmask.Grammar.from_json_schema(schema, whitespace="compact")
    return stackmask.CompiledGrammar(grammar, tokenizer)


def generate_call(
    matcher: stackmask.Matcher,
    tokenizer: stackmask.Tokenizer,
    rng: np.random.Generator,
    max_tokens: int = 300,
) -> bytes:
    """Sample one constrained tool call from random logits; returns its bytes.

    The stand-in model favours short tokens and EOS (so texts end); the grammar does the
    rest. Raises RuntimeError if the call is not finished after `max_tokens` tokens.
    """
    bitmask = stackmask.allocate_token_bitmask(1, tokenizer.vocab_size)
    out = bytearray()
    for _ in range(max_tokens):
        matcher.fill_next_token_bitmask(bitmask, 0)
        logits = rng.normal(size=(1, tokenizer.vocab_size)).astype(np.float32) * 3
        if matcher.is_accepting():
            logits[0, tokenizer.eos_token_ids] += 100.0
        stackmask.apply_token_bitmask_inplace(logits, bitmask)
        token = int(np.argmax(logits[0]))
        matcher.consume_token(token)
        if matcher.is_terminated():
            return bytes(out)
        out += tokenizer.token_bytes(token) or b""
    raise RuntimeError(f"no complete call after {max_tokens} tokens: {bytes(out)!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--calls", type=int, default=5)
    args = parser.parse_args()
    tokenizer = stackmask.Tokenizer.embedded_default()
    compiled = compile_tools(tokenizer)
    rng = np.random.default_rng(args.seed)
    for _ in range(args.calls):
        call = json.loads(generate_call(stackmask.Matcher(compiled), tokenizer, rng))
        print(json.dumps(call, ensure_ascii=False))


if __name__ == "__main__":
    main()
